"""The analysis board in the browser, with nothing installed and no name: a visitor opens it from
the sign-in page on the standard start; the engine in the page gives its three best moves
(multi-PV), an evaluation bar and its best line as arrows. A pasted position text is analysed
and each move the page offers is legal for the native amazons-engine too. Moves played on the
board grow a tree of variations, walked with the arrow keys; a reload keeps it. The editor sets
up a 6x6 position by clicks and refuses one without queens; a bad paste gets a clear reason.
Game records are read pasted (JSON) and opened as a file (SGF).
Screenshots at desktop and phone sizes go to the directory given as the first argument
(docs/screenshots when refreshing)."""
import json
import os
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import BUILD, Server, browser, click, click_delays, fail, js, select, temp_dir, wait_for
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None

LINES = "return [...document.querySelectorAll('#engine-lines .engine-line')].map(e => e.dataset.move)"
DEPTH = "return Number(document.getElementById('engine-lines').dataset.depth)"
SEARCHED = "return document.getElementById('engine-lines').dataset.position"
TREE = "return [...document.querySelectorAll('#analysis-tree .mv')].map(e => e.dataset.move)"
CURRENT = "const c = document.querySelector('#analysis-tree .mv.current'); return c ? c.dataset.move : null"
POSITION = "return document.getElementById('analysis-position').value"
PROBLEM = "const p = document.getElementById('analysis-problem'); return p ? p.textContent : null"
# A position from a game: the standard start after d1-d7/g7 a7-b6/c5 g1-g2/g3, Black to move.
STUDY = "3B2B3/10/10/3W2x2B/1B8/2x7/W8W/6x3/6W3/10 b"


def native_says_legal(position, moves):
    """amazons-engine (the native build) answers `ok` to `moves M` for each move alone."""
    engine = os.path.join(BUILD, "ai", "amazons-engine")
    lines = []
    for m in moves:
        lines += ["position text " + position, "moves " + m]
    out = subprocess.run([engine], input="\n".join(lines + ["quit"]) + "\n", capture_output=True,
                         text=True, timeout=30).stdout.split("\n")
    answers = [line for line in out if line]
    for i, m in enumerate(moves):
        if answers[2 * i + 1] != "ok":
            fail("the native engine refuses %s in %s: %s" % (m, position, answers[2 * i + 1]))


def press(d, square):
    """A click on a board square, as a person makes it (pointer events); found again if the board
    was drawn anew between finding it and clicking it."""
    for _ in range(20):
        try:
            d.find_element(By.CSS_SELECTOR, '.board [data-sq="%s"]' % square).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    fail("the square %s kept being drawn anew" % square)


def wait_lines(d, what, position, count=3, depth=2):
    wait_for(d, what, lambda d: js(d, PROBLEM) or (js(d, SEARCHED) == position and js(d, DEPTH) >= depth
                                                   and len(js(d, LINES)) == count), timeout=60)
    if js(d, PROBLEM):
        fail("%s: the page says %r" % (what, js(d, PROBLEM)))
    lines = js(d, LINES)
    if len(set(lines)) != len(lines):
        fail("%s: the engine's lines repeat a move: %r" % (what, lines))
    return lines


def load(d):
    """Presses Load. In the page, not at the button's place on the screen: the engine's lines
    grow and shrink with each depth, and a click at where the button was a moment ago lands on
    whatever moved there (the paste was never loaded, 1 run in 5 beside other tests)."""
    js(d, "document.getElementById('analysis-load').click()")


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        d = browser(tmp, "visitor")
        try:
            d.get(server.url + "/")
            click(d, "the sign-in page's analysis board link", By.ID, "open-analysis")
            wait_for(d, "the analysis board", lambda d: d.find_elements(By.ID, "analysis-board"))
            start = "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w"
            if js(d, POSITION) != start:
                fail("a first visit does not open the standard start: %r" % js(d, POSITION))
            lines = wait_lines(d, "three best moves at the start", start)
            native_says_legal(start, lines)
            # The bar and the arrows follow the best line.
            share = float(d.find_element(By.ID, "eval-bar").get_attribute("data-share"))
            if not 0.0 < share < 1.0:
                fail("the evaluation bar at the start gives White %r of it" % share)
            # Read together: the next depth may redraw both between two reads.
            arrow, best = js(d, "const a = document.querySelector('.pv-arrows .pv-queen.pv-0'); "
                                "const l = document.querySelector('#engine-lines .engine-line'); "
                                "return [a ? a.dataset.move : null, l ? l.dataset.move : null]")
            if arrow != best:
                fail("the arrow on the board shows %r, the best line starts %r" % (arrow, best))

            # Clicks are handled at once while the engine thinks (measured in the page from each
            # event's time stamp; the same on a LAN page in browser/engine_lan).
            delays = click_delays(d, lambda: d.find_element(By.ID, "analysis-flip").click(), 4)
            if len(delays) != 4 or max(delays) > 100:
                fail("clicks while the engine thinks waited %r ms" % delays)

            # A pasted position text: analysed, and every move offered is legal natively.
            d.find_element(By.ID, "analysis-paste").send_keys(STUDY)
            load(d)
            wait_for(d, "the pasted position", lambda d: js(d, POSITION) == STUDY)
            lines = wait_lines(d, "three best moves in the pasted position", STUDY)
            native_says_legal(STUDY, lines)
            if SHOTS:
                d.save_screenshot(os.path.join(SHOTS, "web-analysis-board.png"))

            # Moves on the board grow a tree: the best move, back, the second best (a variation),
            # and the arrow keys walk it.
            # The lines change with each depth: the button pressed is read back from the tree.
            play_line = "const b = document.querySelectorAll('#engine-lines .engine-line .line-move')[arguments[0]]; if (!b) return null; b.click(); return b.textContent"
            first = wait_for(d, "the best line's button", lambda d: js(d, play_line, 0))
            wait_for(d, "the best move played", lambda d: js(d, TREE) == [first] and js(d, CURRENT) == first)
            body = d.find_element(By.TAG_NAME, "body")
            body.send_keys(Keys.ARROW_LEFT)
            wait_for(d, "back to the pasted position", lambda d: js(d, POSITION) == STUDY and js(d, CURRENT) is None)
            wait_for(d, "the lines again", lambda d: js(d, SEARCHED) == STUDY and len(js(d, LINES)) == 3)
            # One click, on a line whose move is not the first: a wait that clicked line 2 until it
            # differed could click the first move again and then play on from there.
            play_other = ("const b = [...document.querySelectorAll('#engine-lines .engine-line .line-move')]"
                          ".find((x) => x.textContent !== arguments[0]); if (!b) return null; b.click(); return b.textContent")
            second = wait_for(d, "another line's button", lambda d: js(d, play_other, first))
            wait_for(d, "a variation", lambda d: js(d, TREE) == [first, second] and js(d, CURRENT) == second)
            # The tree's model changes before its view is drawn: wait for the drawing too.
            wait_for(d, "the second move shown as a variation", lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis-tree .variation"))
            body.send_keys(Keys.HOME)
            body.send_keys(Keys.ARROW_RIGHT)
            wait_for(d, "the main line's move", lambda d: js(d, CURRENT) == first)
            after_first = js(d, POSITION)

            # A reload keeps the tree and where the visitor was in it.
            d.refresh()
            wait_for(d, "the analysis board after a reload", lambda d: d.find_elements(By.ID, "analysis-board"))
            wait_for(d, "the tree after a reload", lambda d: js(d, TREE) == [first, second] and js(d, CURRENT) == first)
            if js(d, POSITION) != after_first:
                fail("after a reload the board shows %r, before %r" % (js(d, POSITION), after_first))

            # The editor: a 6x6 board set up by clicks.
            click(d, "Set up a position", By.ID, "analysis-edit")
            select(d, "the editor's board size", "editor-size", "6")
            click(d, "White queen", By.ID, "tool-white")
            press(d, "a1")
            click(d, "Done without Black", By.ID, "editor-done")
            wait_for(d, "the editor's refusal", lambda d: "queen counts" in (js(d, PROBLEM) or ""))
            click(d, "Black queen", By.ID, "tool-black")
            press(d, "f6")
            click(d, "Arrow", By.ID, "tool-arrow")
            press(d, "b2")
            press(d, "c3")
            press(d, "c3")  # again: emptied
            click(d, "Analyse this position", By.ID, "editor-done")
            made = "5B/6/6/6/1x4/W5 w"
            wait_for(d, "the position set up", lambda d: js(d, POSITION) == made)
            lines = wait_lines(d, "three best moves on the 6x6 board", made)
            native_says_legal(made, lines)

            # The keyboard: the board is one Tab stop, the arrow keys move over it, Enter presses;
            # each square says what it holds and what pressing it would do.
            label = "return document.querySelector('.board [data-sq=\"' + arguments[0] + '\"]').getAttribute('aria-label')"
            if js(d, label, "a1") != "a1, white queen" or js(d, label, "b2") != "b2, arrow":
                fail("the squares read %r and %r" % (js(d, label, "a1"), js(d, label, "b2")))
            js(d, "document.querySelector('.board [data-sq=\"a1\"]').focus()")
            active = lambda: d.switch_to.active_element
            active().send_keys(Keys.ENTER)
            wait_for(d, "a1 selected by the keyboard", lambda d: js(d, label, "a2") == "a2, empty, move here")
            active().send_keys(Keys.ARROW_UP, Keys.ARROW_UP)
            wait_for(d, "two presses of Up from a1 reaching a3", lambda d: active().get_attribute("data-sq") == "a3")
            active().send_keys(Keys.ENTER)
            wait_for(d, "a3 chosen", lambda d: js(d, label, "a1") == "a1, empty, shoot here")
            active().send_keys(Keys.ARROW_RIGHT, Keys.ENTER)
            wait_for(d, "the move entered by the keyboard", lambda d: js(d, TREE) == ["a1-a3/b3"])

            # A paste that is neither a position nor moves is refused with the reason.
            before_paste = js(d, POSITION)
            paste = d.find_element(By.ID, "analysis-paste")
            paste.clear()
            paste.send_keys("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W w")
            load(d)
            wait_for(d, "the paste's refusal", lambda d: "at character" in d.find_element(By.ID, "analysis-paste-error").text)
            if js(d, POSITION) != before_paste:
                fail("a refused paste changed the board")

            # A move list from the start: the tree holds it, at its end.
            paste = d.find_element(By.ID, "analysis-paste")
            paste.clear()
            paste.send_keys("1. d1-d7/g7 a7-b6/c5")
            load(d)
            wait_for(d, "the pasted moves", lambda d: js(d, TREE) == ["d1-d7/g7", "a7-b6/c5"])

            # A game record pasted (our JSON, as the exports write it, on 8x8) and one opened as
            # a file (SGF, with a variation beside its main line): the tree holds its moves.
            record = json.dumps({"format": "amazons-game/1", "rules": "botzone8", "moves": [
                {"move": "c8-c2/c3", "elapsed_ms": 900}, "c1-b2/b4"], "result": None})
            d.execute_script("const p = document.getElementById('analysis-paste'); p.value = arguments[0];", record)
            load(d)
            wait_for(d, "the pasted JSON record", lambda d: js(d, TREE) == ["c8-c2/c3", "c1-b2/b4"])
            sgf = os.path.join(tmp, "game.sgf")
            with open(sgf, "w") as f:
                f.write("(;GM[18]SZ[10]RU[standard];B[djddgd](;W[dadcdb];B[ddeefe])(;W[adbecf]))\n")
            d.find_element(By.ID, "analysis-file").send_keys(sgf)
            wait_for(d, "the opened SGF record", lambda d: js(d, TREE) == ["d1-d7/g7", "d10-d8/d9", "d7-e6/f6"])
            d.execute_script("const p = document.getElementById('analysis-paste'); p.value = arguments[0];",
                             '{"rules": "standard", "moves": ["d1-d7/g7", "d1-d2/d3"]}')
            load(d)
            wait_for(d, "the refusal of a record with an illegal move",
                     lambda d: 'move 2 "d1-d2/d3" is not legal' in d.find_element(By.ID, "analysis-paste-error").text)
            if js(d, TREE) != ["d1-d7/g7", "d10-d8/d9", "d7-e6/f6"]:
                fail("a refused record changed the tree: %r" % js(d, TREE))

            # A link to a position with moves (as the replay's and the computer game's "Analysis
            # board" buttons make) opens at the ply it names, and the address becomes #/analysis
            # so that a reload keeps what is explored next.
            link = "%s moves b6-b7/b8 a4-a5/a6" % STUDY
            d.get(server.url + "/#/analysis/" + urllib.parse.quote(link, safe="") + "/1")
            wait_for(d, "the linked position", lambda d: js(d, TREE) == ["b6-b7/b8", "a4-a5/a6"] and js(d, CURRENT) == "b6-b7/b8")
            if js(d, POSITION) != "3B2B3/10/1x8/1B1W2x2B/10/2x7/W8W/6x3/6W3/10 w":
                fail("the link opened at %r, not after its first move" % js(d, POSITION))
            if not d.current_url.endswith("#/analysis"):
                fail("after opening a link the address is %r" % d.current_url)

            if SHOTS:
                d.set_window_size(390, 844)
                d.execute_script("window.scrollTo(0, 0)")
                time.sleep(0.5)
                d.save_screenshot(os.path.join(SHOTS, "web-analysis-board-phone.png"))
        finally:
            d.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
