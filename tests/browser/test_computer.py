"""Play the computer in the browser, with nothing installed and no name: from the sign-in page a
visitor opens the game against the engine running in the page (WebAssembly in a Web Worker),
plays White against the beginner level, and the engine answers each move with a legal one (the
page's rules code checks it). Then a new game as Black on 8x8 (botzone8, where Black moves
first): the engine does not move for the visitor, who moves first; a reload resumes the game;
a hint marks one of the visitor's queens; a takeback undoes a move and its answer. A premove
entered while the max level thinks is cancelled by a right click, entered again and played or
dropped as the computer's answer allows. A
resignation ends the game as a loss, and "My games" lists it once the visitor signs in. Screenshots at desktop and phone sizes go to the directory given as the first
argument (docs/screenshots when refreshing)."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import BUILD, Server, browser, click, click_move, fail, js, sign_in, temp_dir, text, wait_for
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None

# What the screen's status says about whose turn it is (data-state of #computer-status).
STATE = "return document.getElementById('computer-status').dataset.state"
MOVES = "return [...document.querySelectorAll('#computer-moves .mv')].map(e => e.textContent)"
PROBLEM = "const p = document.getElementById('computer-problem'); return p ? p.textContent : null"
PREMOVE = "return document.getElementById('computer-status').dataset.premove"
NOTE = "const n = document.getElementById('computer-note'); return n ? n.textContent : ''"
# Whether a move ("d1-d7/g7") is legal for the visitor on the game's board, by the page's rules.
STILL_LEGAL = """
  const b = window.amazons.computer.game.board;
  const sq = (t) => b.square(t.charCodeAt(0) - 97, Number(t.slice(1)) - 1);
  const [from, rest] = arguments[0].split('-'); const [to, arrow] = rest.split('/');
  return b.isLegal({from: sq(from), to: sq(to), arrow: sq(arrow)});"""
# A legal move for the side to move, from the squares the page offers: [queen, to, arrow].
LEGAL = """
  const sq = (n) => document.querySelector('.board [data-sq="' + n + '"]');
  const names = [...document.querySelectorAll('#computer .board .sq')].map(e => e.dataset.sq);
  return names.filter(n => sq(n).classList.contains('accepts'));"""


def wait_your_move(d, what):
    wait_for(d, what, lambda d: js(d, PROBLEM) or js(d, STATE) in ("your-move", "over"), timeout=60)
    problem = js(d, PROBLEM)
    if problem:
        fail("%s: the page says %r" % (what, problem))


def play_one(d):
    """Enters a move as a person does: the first queen the page offers, its first destination
    and arrow."""
    queens = js(d, LEGAL)
    if not queens:
        fail("no queen is offered on the visitor's turn")
    q = queens[0]
    d.find_element(By.CSS_SELECTOR, '#computer .board [data-sq="%s"]' % q).click()
    to = js(d, "return [...document.querySelectorAll('#computer .board .sq.target')].map(e => e.dataset.sq)")[0]
    d.find_element(By.CSS_SELECTOR, '#computer .board [data-sq="%s"]' % to).click()
    arrow = js(d, "return [...document.querySelectorAll('#computer .board .sq.target-arrow')].map(e => e.dataset.sq)")[0]
    d.find_element(By.CSS_SELECTOR, '#computer .board [data-sq="%s"]' % arrow).click()
    return "%s-%s/%s" % (q, to, arrow)


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        d = browser(tmp, "visitor")
        try:
            d.get(server.url + "/")
            click(d, "the sign-in page's Play the computer link", By.ID, "play-computer")
            wait_for(d, "the computer screen", lambda d: d.find_elements(By.ID, "computer-status"))
            Select(d.find_element(By.ID, "computer-level")).select_by_value("beginner")
            Select(d.find_element(By.ID, "computer-rules")).select_by_value("standard")
            Select(d.find_element(By.ID, "computer-color")).select_by_value("white")
            click(d, "New game", By.ID, "computer-new")
            wait_your_move(d, "the first move")
            if js(d, MOVES) != []:
                fail("a new game as White starts with moves: %r" % js(d, MOVES))
            for turn in range(1, 4):
                mine = play_one(d)
                wait_for(d, "the engine's answer to move %d" % turn, lambda d: len(js(d, MOVES)) == 2 * turn or js(d, PROBLEM), timeout=60)
                wait_your_move(d, "move %d" % (turn + 1))
                moves = js(d, MOVES)
                if moves[2 * turn - 2] != mine:
                    fail("the move list has %r where the visitor played %s" % (moves, mine))
            kinds = (js(d, "return document.body.dataset.soundKinds") or "").split()
            if not {"start", "move", "your-move", "arrow"} <= set(kinds):
                fail("the game against the computer made no start, move or arrow sound: %r" % kinds)
            if SHOTS:
                d.save_screenshot(os.path.join(SHOTS, "web-computer.png"))

            # A premove while the computer thinks (the max level: five seconds a move): a right
            # click cancels it; entered again, it is played the moment the computer answers if
            # that leaves it legal, else dropped with a note that says why.
            Select(d.find_element(By.ID, "computer-level")).select_by_value("max")
            click(d, "New game", By.ID, "computer-new")
            wait_your_move(d, "the first move against the max level")
            play_one(d)
            wait_for(d, "the max level thinking", lambda d: js(d, STATE) == "thinking")
            pre = play_one(d)
            wait_for(d, "the premove " + pre, lambda d: js(d, PREMOVE) == pre)
            ActionChains(d).context_click(d.find_element(By.CSS_SELECTOR, "#computer .board")).perform()
            wait_for(d, "the premove cancelled", lambda d: js(d, PREMOVE) == "" and "cancelled" in js(d, NOTE))
            if js(d, STATE) != "thinking":
                fail("the computer answered before the test could enter its premove again")
            pre = play_one(d)
            wait_for(d, "the premove " + pre + " again", lambda d: js(d, PREMOVE) == pre)
            if d.find_elements(By.ID, "computer-move-now"):
                click(d, "Move now", By.ID, "computer-move-now")
            wait_for(d, "the premove played or dropped", lambda d: len(js(d, MOVES)) >= 3 or "dropped" in js(d, NOTE), timeout=60)
            moves = js(d, MOVES)
            if len(moves) >= 3:
                if moves[2] != pre:
                    fail("the premove %s was not the move played: %r" % (pre, moves))
            elif js(d, STILL_LEGAL, pre):
                fail("the premove %s was dropped (%r) though it is legal after %r" % (pre, js(d, NOTE), moves))
            Select(d.find_element(By.ID, "computer-level")).select_by_value("beginner")

            # Black on 8x8: Black moves first, so the visitor does, and the board is turned.
            Select(d.find_element(By.ID, "computer-rules")).select_by_value("botzone8")
            Select(d.find_element(By.ID, "computer-color")).select_by_value("black")
            click(d, "New game", By.ID, "computer-new")
            wait_your_move(d, "Black's first move on 8x8")
            if js(d, MOVES) != []:
                fail("the engine moved for the visitor: %r" % js(d, MOVES))
            bottom_left = js(d, "return document.querySelector('#computer .board .sq').dataset.sq")
            if bottom_left != "h1":  # the first square drawn is the top left: h1 when turned
                fail("the board is not turned for Black (top left %s)" % bottom_left)
            play_one(d)
            wait_for(d, "the engine's answer on 8x8", lambda d: len(js(d, MOVES)) == 2, timeout=60)
            wait_your_move(d, "the second move on 8x8")
            before_reload = js(d, MOVES)

            # A reload resumes the game, and the settings are kept for the next one.
            d.refresh()
            wait_for(d, "the computer screen after a reload", lambda d: d.find_elements(By.ID, "computer-status"))
            wait_your_move(d, "the resumed game")
            if js(d, MOVES) != before_reload:
                fail("the reload did not resume the game: %r, before %r" % (js(d, MOVES), before_reload))
            if Select(d.find_element(By.ID, "computer-rules")).first_selected_option.get_attribute("value") != "botzone8":
                fail("the rules chosen were not kept")

            # A hint marks one of the visitor's queens (Black's here).
            click(d, "Hint", By.ID, "computer-hint")
            wait_for(d, "the hint", lambda d: d.find_elements(By.CSS_SELECTOR, "#computer .board .sq.hint"), timeout=60)
            hinted = d.find_element(By.CSS_SELECTOR, "#computer .board .sq.hint").get_attribute("data-piece")
            if hinted != "black":
                fail("the hint marks a square holding %r, not one of Black's queens" % hinted)

            # Take back: the visitor's move and the engine's answer, the visitor to move again.
            click(d, "Take back", By.ID, "computer-takeback")
            wait_for(d, "the takeback", lambda d: js(d, MOVES) == [])
            wait_your_move(d, "the position taken back")

            # Resigning is a loss.
            play_one(d)
            wait_for(d, "the engine's answer after the takeback", lambda d: len(js(d, MOVES)) == 2, timeout=60)
            wait_your_move(d, "the move after the takeback")
            click(d, "Resign", By.ID, "computer-resign")
            wait_for(d, "the result", lambda d: js(d, STATE) == "over")
            title = d.find_element(By.ID, "computer-result-title").text
            if title != "You lost":
                fail("after resigning the result says %r" % title)

            # The finished game is listed, exported as a record amazons-record reads, reviewed,
            # and exported again with the review's annotations.
            played = js(d, MOVES)
            wait_for(d, "the finished game listed", lambda d: d.find_elements(By.CSS_SELECTOR, "#computer-finished li[data-result='lost']"))
            d.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": tmp})

            def downloaded(suffix):
                found = [f for f in os.listdir(tmp) if f.startswith("amazons-computer-") and f.endswith(suffix)]
                return os.path.join(tmp, found[0]) if found else None
            click(d, "Export as text", By.ID, "computer-export-text")
            path = wait_for(d, "the exported text record", lambda d: downloaded(".txt"))
            time.sleep(0.3)  # the download is renamed when complete; its content is then whole
            record = open(path).read()
            checked = subprocess.run([os.path.join(BUILD, "formats", "amazons-record"), "check", path],
                                     capture_output=True, text=True)
            if checked.returncode != 0 or '[Reason "resign"]' not in record or ("1. %s %s" % tuple(played)) not in record:
                fail("the exported record (%s) is not this game:\n%s%s" % (checked.stderr, record, checked.stdout))
            Select(d.find_element(By.ID, "review-movetime")).select_by_value("200")
            click(d, "Review", By.ID, "review-start")
            wait_for(d, "the review", lambda d: d.find_elements(By.ID, "review-graph"), timeout=60)
            click(d, "Export as JSON", By.ID, "computer-export-json")
            path = wait_for(d, "the exported JSON record", lambda d: downloaded(".json"))
            time.sleep(0.3)
            annotated = json.load(open(path))
            if not all(isinstance(m, dict) and "analysis" in m for m in annotated["moves"]):
                fail("the JSON record after the review lacks the analysis: %r" % annotated["moves"])
            # Rematch: the same board and level, the colours exchanged (the visitor White now,
            # so Black, the engine, moves first on 8x8).
            click(d, "Rematch", By.ID, "computer-rematch")
            wait_for(d, "the rematch under way", lambda d: js(d, STATE) in ("thinking", "your-move") and js(d, "return window.amazons.computer.game.you") == "white")
            if Select(d.find_element(By.ID, "computer-rules")).first_selected_option.get_attribute("value") != "botzone8":
                fail("the rematch is not on the same board")
            # The territory view on this board.
            click(d, "Territory", By.ID, "computer-territory")
            wait_for(d, "the territory view", lambda d: d.find_elements(By.CSS_SELECTOR, "#computer .board .sq.terr-white, #computer .board .sq.terr-black"))
            click(d, "Territory", By.ID, "computer-territory")

            # With clocks (3 min + 2 s on 8x8, the engine as Black first): both clocks shown, the
            # engine's answer timed by its clock, ours running, no takeback.
            Select(d.find_element(By.ID, "computer-clock")).select_by_value("3+2")
            Select(d.find_element(By.ID, "computer-color")).select_by_value("white")
            click(d, "New game", By.ID, "computer-new")
            wait_your_move(d, "the first move with clocks")
            clock = lambda c: text(d, "#computer-clock-" + c)  # redrawn every 100 ms
            first = clock("white")
            time.sleep(1.5)
            if not (first.startswith("3:0") or first.startswith("2:5")) or clock("white") == first:
                fail("our clock does not run: %r then %r" % (first, clock("white")))
            if not clock("black").startswith(("3:0", "2:5")):
                fail("the computer's clock after its move reads %r" % clock("black"))
            if d.find_elements(By.ID, "computer-takeback"):
                fail("a takeback is offered in a game with clocks")
            Select(d.find_element(By.ID, "computer-clock")).select_by_value("none")

            if SHOTS:
                d.set_window_size(390, 844)
                click(d, "New game", By.ID, "computer-new")
                wait_your_move(d, "a new game on a phone")
                d.execute_script("window.scrollTo(0, 0)")
                d.save_screenshot(os.path.join(SHOTS, "web-computer-phone.png"))

            # Signed in, "My games" lists the games against the computer kept in this browser
            # beside the server's, each with the analysis board and the exports.
            sign_in(d, server.url, "visitor")
            d.get(server.url + "/#/archive")
            wait_for(d, "the computer's games in the archive", lambda d: d.find_elements(By.CSS_SELECTOR, "#archive-computer li[data-result='lost']"))
            row = d.find_element(By.CSS_SELECTOR, "#archive-computer li[data-result='lost']").text
            if "you resigned after %d moves" % len(played) not in row or "botzone8" not in row:
                fail("the archive's line for the resigned game reads %r" % row)
            click(d, "the archived game's analysis board", By.ID, "archive-computer-0-analyse")
            wait_for(d, "the archived game on the analysis board",
                     lambda d: js(d, "return [...document.querySelectorAll('#analysis-tree .mv')].map(e => e.dataset.move)") == played)
        finally:
            d.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
