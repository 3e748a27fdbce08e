"""A whole game in the browser against a real amazons-bot, to its end; then the archive: the
game replayed step by step and its text record exported, alice's page (rating graph, results by
variant) and the leaderboard's page. Screenshots of the lobby, the game and
the result go to the directory given as the first argument (docs/screenshots when refreshing)."""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (BUILD, Bot, Server, browser, click, click_move, fail, game_state, js, legal_move, square, sign_in,
                         temp_dir, text, wait_for)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
MAX_PLIES = 200  # a game of the 8x8 variant ends long before


def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SHOTS, name))


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        bot = Bot(server, "bot")
        d = browser(tmp, "alice")
        try:
            d.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": tmp})
            sign_in(d, server.url, "alice", "alice-secret")
            wait_for(d, "the bot in the players list", lambda d: "bot" in text(d, "#players"))

            Select(d.find_element(By.ID, "rules")).select_by_value("botzone8")
            Select(d.find_element(By.ID, "time")).select_by_visible_text("5 min + 5 s")
            Select(d.find_element(By.ID, "color")).select_by_value("white")
            d.find_element(By.ID, "rated").click()
            d.find_element(By.ID, "create").click()
            wait_for(d, "the game to start", lambda d: (game_state(d) or {}).get("status") == "active")
            g = game_state(d)
            if g["color"] != "white" or g["size"] != 8:
                fail("expected to play white on 8x8, got %r" % g)
            # The clocks count down locally between the server's updates.
            wait_for(d, "both clocks", lambda d: d.find_elements(By.ID, "clock-white") and d.find_elements(By.ID, "clock-black"))

            plies_seen = 0
            shot_taken = False
            looked = False
            while True:
                wait_for(d, "our turn or the end", lambda d: (lambda s: s["status"] == "finished" or (s["myTurn"] and not s["moveSent"]))(game_state(d)), timeout=60)
                g = game_state(d)
                if g["status"] == "finished":
                    break
                if len(g["moves"]) > MAX_PLIES:
                    fail("the game does not end")
                if len(g["moves"]) < plies_seen:
                    fail("moves went missing: %d after %d" % (len(g["moves"]), plies_seen))
                if g["moves"]:
                    last = g["moves"][-1]
                    to = last.split("-")[1].split("/")[0]
                    if "last" not in square(d, to).get_attribute("class").split():
                        fail("the last move's square %s is not marked" % to)
                if len(g["moves"]) >= 6 and not looked:
                    looked = True
                    # The tab says it is our move; the bot's moves made sounds.
                    wait_for(d, "the tab's title", lambda d: d.title == "(1) Your move · Amazons")
                    if "your%20move" not in js(d, "return document.querySelector('link[rel=\"icon\"]').href"):
                        fail("the tab's icon does not show that it is our move")
                    kinds = (js(d, "return document.body.dataset.soundKinds") or "").split()
                    if "start" not in kinds or "your-move" not in kinds or "arrow" not in kinds:
                        fail("the game's start and the bot's moves (queen and arrow) made no sound: %r" % kinds)
                    # The move list shows earlier positions when clicked, the arrow keys step,
                    # and Back to the game returns.
                    d.find_element(By.CSS_SELECTOR, '#moves .mv[data-ply="1"]').click()
                    wait_for(d, "the position after move 1", lambda d: "after move 1 of %d" % len(g["moves"]) in text(d, "#looking"))
                    second_to = g["moves"][1].split("-")[1].split("/")[0]
                    if square(d, second_to).get_attribute("data-piece") != "":
                        fail("after move 1 the square %s that move 2 reached is not empty" % second_to)
                    ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
                    wait_for(d, "the position after move 2", lambda d: "after move 2 of" in text(d, "#looking"))
                    # botzone8: Black moves first, so the second move is White's.
                    if square(d, second_to).get_attribute("data-piece") != "white":
                        fail("after move 2 White's queen is not on %s" % second_to)
                    click(d, "Back to the game", By.ID, "back-live")
                    wait_for(d, "the game now", lambda d: not d.find_elements(By.ID, "looking"))
                    # Flip turns the board around, and back.
                    top_left = "return document.querySelector('.board .sq').dataset.sq"
                    if js(d, top_left) != "a8":
                        fail("White's board does not start at a8 top left: %r" % js(d, top_left))
                    click(d, "Flip board", By.ID, "flip")
                    wait_for(d, "the board turned", lambda d: js(d, top_left) == "h1")
                    click(d, "Flip board", By.ID, "flip")
                    wait_for(d, "the board turned back", lambda d: js(d, top_left) == "a8")
                    # This move is typed in the notation: the hint counts what the beginning
                    # allows, Tab completes, Enter plays.
                    typed = "%s-%s/%s" % tuple(legal_move(d))
                    field = d.find_element(By.ID, "move-input")
                    field.send_keys(typed[:2])
                    wait_for(d, "the count of moves from " + typed[:2], lambda d: re.match(r"^(\d+ legal moves begin so; Tab completes|Enter plays .*)\.$", text(d, "#move-hint")))
                    field.send_keys("z")
                    wait_for(d, "no move begins so", lambda d: text(d, "#move-hint") == 'No legal move begins "%sz".' % typed[:2])
                    field.send_keys(Keys.BACKSPACE, typed[2:], Keys.ENTER)
                    before = len(g["moves"])
                    wait_for(d, "the typed move to be taken", lambda d: len(game_state(d)["moves"]) > before or game_state(d)["status"] == "finished")
                    if game_state(d)["moves"][before] != typed:
                        fail("typed %s, the game has %s" % (typed, game_state(d)["moves"][before]))
                    if not text(d, "#announce").startswith("White played %s." % typed) and not text(d, "#announce").startswith("Black played"):
                        fail("the screen reader's line reads %r" % text(d, "#announce"))
                    continue
                move = legal_move(d)
                if len(g["moves"]) >= 12 and not shot_taken:
                    # The first stage of the input: the queen's destinations marked.
                    square(d, move[0]).click()
                    wait_for(d, "destinations", lambda d: "target" in square(d, move[1]).get_attribute("class").split())
                    shot(d, "web-game.png")
                    ActionChains(d).send_keys(Keys.ESCAPE).perform()
                    wait_for(d, "Esc", lambda d: not d.find_elements(By.CSS_SELECTOR, ".sq.target"))
                    shot_taken = True
                before = len(g["moves"])
                click_move(d, move)
                wait_for(d, "our move to be taken", lambda d: len(game_state(d)["moves"]) > before or game_state(d)["status"] == "finished")
                # Read together: the bot's answer may arrive between two separate reads.
                shown, plies_seen = js(d, """const a = window.amazons, g = a.games.get(a.current);
                    return [Number(document.getElementById('moves').dataset.plies), g.moves.length];""")
                if shown != plies_seen:
                    fail("the move list shows %d plies, the game has %d" % (shown, plies_seen))

            wait_for(d, "the result", lambda d: text(d, "#result-title"))
            title, reason = text(d, "#result-title"), text(d, "#result-reason")
            g = game_state(d)
            if title != ("You won" if g["result"]["winner"] == "white" else "You lost"):
                fail("alice, who played White, reads the result %r (winner %s)" % (title, g["result"]["winner"]))
            if g["result"]["reason"] != "no_moves" or not reason.endswith("has no legal move left."):
                fail("unexpected end: %r / %r" % (g["result"], reason))
            print("game over after %d plies: %s. %s" % (len(g["moves"]), title, reason))
            # The seat under the board says the rating now, as the header does, and the change.
            rating_now = text(d, "#me").split("(")[1].rstrip(")")
            wait_for(d, "the seat's new rating", lambda d: text(d, ".seat.bottom .name").startswith("alice (%s, %s" % (rating_now, "+" if title == "You won" else "-")))
            d.find_element(By.ID, "territory").click()
            shot(d, "web-result.png")
            d.find_element(By.ID, "territory").click()

            # The lobby after a rated game: the leaderboard has both players.
            d.find_element(By.ID, "back-lobby").click()
            wait_for(d, "the leaderboard", lambda d: "alice" in text(d, "#leaderboard") and "bot" in text(d, "#leaderboard"))
            shot(d, "web-lobby.png")

            # The archive: the game is there, replays move by move, exports its text record.
            d.find_element(By.ID, "nav-archive").click()
            wait_for(d, "the archive", lambda d: d.find_elements(By.CSS_SELECTOR, '[id^="replay-"]'))
            if "1 finished game," not in text(d, "#archive-record"):
                fail("archive summary: " + text(d, "#archive-record"))
            # Alice's page: her rating before the game and now (the header's), and the result by
            # variant. The leaderboard's own page lists both players.
            won = g["result"]["winner"] == "white"
            rating_now = text(d, "#me").split("(")[1].rstrip(")")
            wait_for(d, "the rating graph", lambda d: d.find_element(By.ID, "rating-graph").get_attribute("data-points") == "1500 " + rating_now)
            if js(d, "return [...document.querySelectorAll('#results-by-variant tr[data-rules=botzone8] td')].map(e => e.textContent)") != \
                    ["botzone8", "1" if won else "0", "0" if won else "1", "0"]:
                fail("the results by variant: %r" % text(d, "#results-by-variant"))
            d.get(server.url + "/#/leaderboard")
            wait_for(d, "the leaderboard's page", lambda d: sorted(js(d, "return [...document.querySelectorAll('#leaderboard-page tr[data-name]')].map(e => e.dataset.name)")) == ["alice", "bot"])
            d.find_element(By.ID, "nav-archive").click()
            wait_for(d, "the archive again", lambda d: d.find_elements(By.CSS_SELECTOR, '[id^="replay-"]'))
            d.find_elements(By.CSS_SELECTOR, '[id^="replay-"]')[0].click()
            wait_for(d, "the replay", lambda d: text(d, "#replay-ply").startswith("Move 0 of %d" % len(g["moves"])))
            d.find_element(By.ID, "next").click()
            wait_for(d, "one step", lambda d: text(d, "#replay-ply").startswith("Move 1 of"))
            first = g["moves"][0].split("-")[1].split("/")[0]
            if square(d, first).get_attribute("data-piece") not in ("white", "black"):
                fail("after one step the queen is not on " + first)
            d.find_element(By.ID, "last").click()
            wait_for(d, "the last step", lambda d: text(d, "#replay-ply").startswith("Move %d of" % len(g["moves"])))

            # The engine's view of the positions replayed, from the engine in the page.
            d.find_element(By.ID, "analysis-switch").click()
            wait_for(d, "the analysis of the last position", lambda d: text(d, "#analysis-line"))
            depth = lambda d: int(d.find_element(By.ID, "analysis-line").get_attribute("data-depth") or 0)
            position = lambda d: d.find_element(By.ID, "analysis-line").get_attribute("data-position")
            d.find_element(By.ID, "first").click()
            wait_for(d, "the engine's view of the start", lambda d: position(d) == "2B2B2/8/B6B/8/8/W6W/8/2W2W2 b" and depth(d) >= 3, timeout=60)
            if not re.match(r"^(Even|(White|Black) \+\d+\.\d|(White|Black) wins)", text(d, "#analysis-score")):
                fail("the analysis score reads %r" % text(d, "#analysis-score"))
            d.find_element(By.ID, "next").click()
            wait_for(d, "the engine's view after the first move", lambda d: position(d) != "2B2B2/8/B6B/8/8/W6W/8/2W2W2 b" and position(d).endswith(" w") and depth(d) >= 2, timeout=60)
            best = d.find_element(By.ID, "analysis-line").get_attribute("data-best")
            if not re.match(r"^[a-h][1-8]-[a-h][1-8]/[a-h][1-8]$", best or ""):
                fail("the analysis's best move reads %r" % best)
            shot(d, "web-analysis.png")
            d.find_element(By.ID, "analysis-switch").click()

            # The engine's review of the game: progress and Cancel, then a whole review with a
            # graph, each side's mistakes and blunders, and the marks in the move list.
            Select(d.find_element(By.ID, "review-movetime")).select_by_value("200")
            click(d, "Review", By.ID, "review-start")
            wait_for(d, "the review's progress", lambda d: re.match(r"Reviewing: move [1-9]\d* of %d" % len(g["moves"]), text(d, "#review-progress")), timeout=60)
            # Found and clicked in one step: the screen is drawn anew at each reviewed move, and
            # on a busy machine a find and a click apart meet a button already replaced.
            wait_for(d, "Cancel", lambda d: js(d, "const b = document.getElementById('review-cancel'); if (b) b.click(); return !!b"))
            wait_for(d, "the cancelled review", lambda d: d.find_elements(By.ID, "review-start"))
            click(d, "Review", By.ID, "review-start")
            wait_for(d, "the whole review", lambda d: d.find_elements(By.ID, "review-graph") or js(d, "const p = document.getElementById('review-problem'); return p && p.textContent"), timeout=120)
            if d.find_elements(By.ID, "review-problem"):
                fail("the review failed: " + text(d, "#review-problem"))
            marks = 0
            for side in ("white", "black"):
                found = re.match(r"^(White|Black): (\d+) mistakes?, (\d+) blunders?$", text(d, "#review-" + side))
                if not found:
                    fail("the review's summary for %s: %r" % (side, text(d, "#review-" + side)))
                marks += int(found.group(2)) + int(found.group(3))
            listed = len(d.find_elements(By.CSS_SELECTOR, ".moves .mv.mistake, .moves .mv.blunder"))
            if listed != marks:
                fail("the move list marks %d moves, the summary counts %d" % (listed, marks))
            graph = d.find_element(By.ID, "review-graph")
            ActionChains(d).move_to_element_with_offset(graph, 0, 0).click().perform()  # the middle
            middle = len(g["moves"]) / 2
            shown = lambda d: int(re.match(r"Move (\d+) of", text(d, "#replay-ply")).group(1))
            wait_for(d, "the move the graph's middle stands for", lambda d: abs(shown(d) - middle) <= 1)
            shot(d, "web-review.png")
            d.find_element(By.ID, "export").click()
            path = os.path.join(tmp, "amazons-game-%s.txt" % g["id"])
            wait_for(d, "the exported record", lambda d: os.path.exists(path))
            with open(path) as f:
                record = f.read()
            if '[Rules "botzone8"]' not in record:
                fail("the exported record is not the game's text record:\n" + record[:400])
            # With the review: every move annotated, and amazons-record reads it.
            d.find_element(By.ID, "export-reviewed-text").click()
            path = os.path.join(tmp, "amazons-game-%s-reviewed.txt" % g["id"])
            wait_for(d, "the reviewed record", lambda d: os.path.exists(path))
            time.sleep(0.3)
            with open(path) as f:
                reviewed = f.read()
            if reviewed.count("{before ") != len(g["moves"]):
                fail("the reviewed record annotates %d of %d moves" % (reviewed.count("{before "), len(g["moves"])))
            checked = subprocess.run([os.path.join(BUILD, "formats", "amazons-record"), "check", path], capture_output=True, text=True)
            if checked.returncode != 0:
                fail("amazons-record refuses the reviewed record: " + checked.stderr)

            # The analysis board, opened from the replay on the position shown.
            at = shown(d)
            click(d, "the replay's Analysis board", By.ID, "replay-analyse")
            tree = "return [...document.querySelectorAll('#analysis-tree .mv')].map(e => e.dataset.move)"
            wait_for(d, "the game on the analysis board", lambda d: js(d, tree) == g["moves"])
            current = js(d, "return document.querySelector('#analysis-tree .mv.current').dataset.ply")
            if int(current) != at:
                fail("the analysis board opened at move %s, the replay showed %d" % (current, at))

            # Quick pairing with a bot that seeks 3 min + 2 s, casual: paired, then aborted.
            seeker = Bot(server, "seeker", "--seek", "180+2", "--no-join", "--no-challenges")
            d.find_element(By.CSS_SELECTOR, "header .brand").click()
            wait_for(d, "the lobby", lambda d: d.find_elements(By.ID, "quick"))
            Select(d.find_element(By.ID, "rules")).select_by_value("standard")
            Select(d.find_element(By.ID, "time")).select_by_visible_text("3 min + 2 s")
            if d.find_element(By.ID, "rated").is_selected():
                d.find_element(By.ID, "rated").click()
            d.find_element(By.ID, "quick").click()
            wait_for(d, "the paired game", lambda d: (lambda s: s and s["id"] != g["id"] and s["status"] == "active")(game_state(d)), timeout=30)
            click(d, "the abort button", By.ID, "abort")
            wait_for(d, "the aborted game", lambda d: text(d, "#result-title") == "Game aborted")
            seeker.stop()

            # Quick pairing by a tile (rated, standard, 3 + 2) with a bot that seeks the same: a
            # wait that says so and can be cancelled, then a pairing; "Your games" names the
            # opponent and whose move it is.
            d.find_element(By.CSS_SELECTOR, "header .brand").click()
            wait_for(d, "the lobby", lambda d: d.find_elements(By.ID, "tile-3+2"))
            d.find_element(By.ID, "tile-3+2").click()
            wait_for(d, "the wait", lambda d: "Looking for an opponent: standard, 3 min + 2 s" in text(d, "#waiting"))
            # Found and clicked in one step: the lobby's lists are redrawn as they change.
            wait_for(d, "Cancel the wait", lambda d: js(d, "const b = document.getElementById('cancel-seek'); if (b) b.click(); return !!b"))
            wait_for(d, "the wait cancelled", lambda d: not d.find_elements(By.ID, "cancel-seek"))
            seeker = Bot(server, "tiler", "--seek", "180+2", "--rated", "--no-join", "--no-challenges")
            before = g["id"]
            d.find_element(By.ID, "tile-3+2").click()
            wait_for(d, "the game paired by a tile", lambda d: (lambda s: s and s["id"] != before and s["status"] == "active")(game_state(d)), timeout=30)
            paired = game_state(d)["id"]
            d.find_element(By.CSS_SELECTOR, "header .brand").click()
            wait_for(d, "Your games in the lobby", lambda d: re.match(r"^Game %s against tiler · (your move|tiler to move)$" % paired, text(d, "#my-games .item span")))
            d.find_element(By.ID, "resume-%s" % paired).click()
            click(d, "the abort button", By.ID, "abort")
            wait_for(d, "the aborted tile game", lambda d: text(d, "#result-title") == "Game aborted")
            seeker.stop()
        finally:
            d.quit()
            bot.stop()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
