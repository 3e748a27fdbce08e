"""A challenge to a real amazons-bot, accepted; then the server is killed with SIGKILL mid-game
and restarted on the same port and database: the page shows "Reconnecting...", comes back by
itself with its token, gets the game's state again and the game goes on with every move."""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import Bot, Server, browser, play_bot_as_white, play_my_move, fail, game_state, sign_in, temp_dir, text, wait_for
from selenium.webdriver.common.by import By


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        bot = Bot(server, "bot")
        d = browser(tmp, "alice")
        eve = None
        try:
            sign_in(d, server.url, "alice")
            before = play_bot_as_white(d, "the bot online")
            game = game_state(d)["id"]

            # A spectator: a link to a game that does not exist shows the server's error and
            # goes back to the lobby; the link to this game shows it as it stands.
            eve = browser(tmp, "eve")
            sign_in(eve, server.url, "eve")
            eve.get(server.url + "/#/game/999")
            wait_for(eve, "the error for game 999", lambda e: "Game 999:" in text(e, "#notices"))
            wait_for(eve, "the lobby again", lambda e: e.find_elements(By.ID, "create"))
            eve.get(server.url + "/#/game/" + game)
            wait_for(eve, "the watched game", lambda e: (game_state(e) or {}).get("moves") == before)
            if game_state(eve)["color"] is not None or not text(eve, "#status").startswith("Watching"):
                fail("eve is not a spectator: %r, %r" % (game_state(eve), text(eve, "#status")))

            port = server.port
            server.stop(signal.SIGKILL)
            wait_for(d, "Reconnecting...", lambda d: text(d, "#conn") == "Reconnecting...")
            if "Reconnecting" not in text(d, "#status"):
                fail("the game screen does not say it is reconnecting: " + text(d, "#status"))
            server = Server(tmp, port=port, db=server.db)
            wait_for(d, "the page back online", lambda d: text(d, "#conn") == "Online", timeout=30)
            wait_for(d, "the state resent", lambda d: game_state(d)["moves"] == before and game_state(d)["status"] == "active")
            play_my_move(d)
            wait_for(d, "the bot playing on after the restart", lambda d: len(game_state(d)["moves"]) >= len(before) + 2, timeout=60)
            # The spectator came back too and watches again.
            wait_for(eve, "the spectator following after the restart", lambda e: len(game_state(e)["moves"]) >= len(before) + 2, timeout=30)
            wait_for(d, "our turn", lambda d: game_state(d)["myTurn"])
            d.find_element(By.ID, "resign").click()
            d.find_element(By.ID, "resign").click()
            wait_for(d, "the result", lambda d: text(d, "#result-title") == "You lost")
            if text(d, "#result-reason") != "White resigned.":
                fail("reason: " + text(d, "#result-reason"))
            wait_for(eve, "the result for the spectator", lambda e: text(e, "#result-title") == "Black wins")
        finally:
            d.quit()
            if eve:
                eve.quit()
            bot.stop()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
