"""The lobby's "Your turn" list in the browser: alice creates a correspondence game (1 day per
move) in the page, bob joins and moves over the plain protocol while she sits in the lobby; the
list then shows the game with the time she has left, a notice says so, and its Play button opens
the game at bob's move. Once she has moved the game leaves the list. A screenshot of the list goes
to the directory given as the first argument (docs/screenshots when refreshing)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (Raw, Server, browser, clear_notices, click, click_move, fail, game_state, legal_move,
                         sign_in, square, temp_dir, text, wait_for)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
BOB_MOVE = "d1-d2/d3"  # a white queen from the standard start, arrow beyond it


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        d = browser(tmp, "alice")
        bob = None
        try:
            sign_in(d, server.url, "alice")
            # Empty, the Your turn list is folded away.
            wait_for(d, "the lobby", lambda d: d.find_elements(By.ID, "your-turn"))
            if d.find_element(By.ID, "your-turn").is_displayed():
                fail("the empty Your turn list is shown: %r" % text(d, "#your-turn"))
            Select(d.find_element(By.ID, "rules")).select_by_value("standard")
            Select(d.find_element(By.ID, "time")).select_by_visible_text("1 day per move")
            Select(d.find_element(By.ID, "color")).select_by_value("black")
            d.find_element(By.ID, "create").click()
            wait_for(d, "the open game", lambda d: (lambda s: s and s["status"] == "open")(game_state(d)))
            game = game_state(d)["id"]

            bob = Raw(server, "bob")
            start = bob.request({"type": "join", "game": game})
            if start.get("type") != "start" or start.get("color") != "white":
                fail("bob's join: %r" % start)
            if start.get("time") != {"per_move": 86400}:
                fail("the page created %r, not 1 day per move" % start.get("time"))
            wait_for(d, "the game started", lambda d: (lambda s: s and s["status"] == "active")(game_state(d)))
            click(d, "the Lobby link", By.ID, "back-lobby")
            wait_for(d, "the lobby", lambda d: d.find_elements(By.ID, "your-turn"))
            if d.find_elements(By.ID, "turn-" + game):
                fail("the game is in Your turn while bob is to move")

            moved = bob.request({"type": "move", "game": game, "move": BOB_MOVE})
            if moved.get("type") != "moved":
                fail("bob's move: %r" % moved)
            wait_for(d, "the game in Your turn", lambda d: d.find_elements(By.ID, "turn-" + game))
            line = text(d, '#your-turn .item[data-game="%s"]' % game)
            # 86400 s for the move, a moment of which has gone: 23 h 59 min, rounded down.
            if not re.search(r"^bob · standard · 1 d per move · move 2 · 23 h 59 min left", line):
                fail("the Your turn line: %r" % line)
            notice = "Your move in game %s against bob (standard)." % game
            wait_for(d, "the notice", lambda d: notice in text(d, "#notices"))
            if d.execute_script("return document.getElementById('screen').dataset.screen") != "lobby":
                fail("the page left the lobby by itself")
            if SHOTS:
                # Only the notice of this game stays, in its corner.
                d.execute_script("""for (const n of document.querySelectorAll('#notices .notice'))
                    if (!n.textContent.includes(arguments[0])) n.remove();""", notice)
                os.makedirs(SHOTS, exist_ok=True)
                d.save_screenshot(os.path.join(SHOTS, "web-your-turn.png"))

            click(d, "Play", By.ID, "turn-" + game)
            wait_for(d, "the game at bob's move",
                     lambda d: (lambda s: s and s["id"] == game and s["moves"] == [BOB_MOVE] and s["myTurn"])(game_state(d)))
            if square(d, "d2").get_attribute("data-piece") != "white" or square(d, "d3").get_attribute("data-piece") != "arrow":
                fail("the board does not show bob's move: d2=%r d3=%r" % (
                    square(d, "d2").get_attribute("data-piece"), square(d, "d3").get_attribute("data-piece")))
            if game_state(d)["color"] != "black":
                fail("alice opened the game as %r" % game_state(d)["color"])
            click_move(d, legal_move(d))
            bob.wait("alice's move", lambda m: m.get("type") == "moved" and m.get("game") == game)
            wait_for(d, "alice's move done", lambda d: (lambda s: len(s["moves"]) == 2 and not s["moveSent"])(game_state(d)))
            bob_next = "%s-%s/%s" % tuple(legal_move(d))  # White's, from the page's rules code
            clear_notices(d)
            click(d, "the Lobby link", By.ID, "back-lobby")
            wait_for(d, "the game gone from Your turn (the list folded away)",
                     lambda d: d.find_elements(By.ID, "your-turn") and not d.find_element(By.ID, "your-turn").is_displayed())
            turns = bob.request({"type": "turns"})
            if turns.get("type") != "your_turn" or [t["game"] for t in turns["games"]] != [game]:
                fail("bob's turns: %r" % turns)

            # Bob moves while alice is away; signing in again (a reload) lists the game from the
            # welcome's your_turn, without a notice: nothing changed while she looked.
            d.get("about:blank")
            reply = bob.request({"type": "move", "game": game, "move": bob_next})
            if reply.get("type") != "moved":
                fail("bob's second move: %r" % reply)
            d.get(server.url)
            wait_for(d, "the game in Your turn after signing in", lambda d: d.find_elements(By.ID, "turn-" + game))
            if "move 4 · 23 h 59 min left" not in text(d, '#your-turn .item[data-game="%s"]' % game):
                fail("the Your turn line after signing in: %r" % text(d, "#your-turn"))
            if "Your move in game" in text(d, "#notices"):
                fail("a notice at sign-in: %r" % text(d, "#notices"))
        finally:
            d.quit()
            if bob:
                bob.close()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
