"""Settings that change play, in a game against a real amazons-bot. With "Confirm each move" on,
a move entered waits on the board with Confirm and Cancel and nothing is sent: Cancel gives the
input back, Confirm sends it. With moves sliding "slowly" the bot's moves slide on the board (the
board names the move it animated); with sliding off none does, and with confirming off a move
goes at once. With notifications on (the browser's permission granted), the bot's move while the
tab is hidden is told by a notification. The settings survive a reload."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (Bot, Server, browser, click, click_move, fail, game_state, js, legal_move, sign_in,
                         temp_dir, wait_for)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

ANIMATED = "return document.querySelector('#screen .board').dataset.animated || ''"
APPLIED = "const r = document.documentElement.dataset; return [r.confirm, r.animation]"


def our_turn(d):
    s = game_state(d)
    return s and s["status"] == "active" and s["myTurn"] and not s["moveSent"]


def settings(d, url, confirm, animation):
    d.get(url + "/#/settings")
    wait_for(d, "the settings", lambda d: d.find_elements(By.ID, "setting-confirm"))
    box = d.find_element(By.ID, "setting-confirm")
    if box.is_selected() != confirm:
        box.click()
    Select(d.find_element(By.ID, "setting-animation")).select_by_value(animation)
    wait_for(d, "the settings applied", lambda d: js(d, APPLIED) == ["on" if confirm else "off", animation])


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        bot = Bot(server, "bot")
        d = browser(tmp, "alice")
        try:
            sign_in(d, server.url, "alice")
            settings(d, server.url, True, "slow")
            # Notifications: the browser's permission is asked when switched on (granted here).
            d.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["notifications"]})
            d.find_element(By.ID, "setting-notify").click()
            wait_for(d, "notifications on", lambda d: js(d, "return document.documentElement.dataset.notify") == "on")
            d.refresh()
            wait_for(d, "the settings after a reload", lambda d: js(d, APPLIED) == ["on", "slow"])
            if not d.find_element(By.ID, "setting-confirm").is_selected():
                fail("the confirm switch is off after a reload")

            d.get(server.url + "/#/")
            wait_for(d, "the bot in the players list", lambda d: "bot" in d.find_element(By.ID, "players").text)
            Select(d.find_element(By.ID, "rules")).select_by_value("botzone8")  # Black, the bot, moves first
            Select(d.find_element(By.ID, "time")).select_by_visible_text("5 min + 5 s")
            Select(d.find_element(By.ID, "color")).select_by_value("white")
            d.find_element(By.ID, "create").click()
            wait_for(d, "our first move", our_turn, timeout=60)
            game = game_state(d)["id"]

            # Confirm on: the move waits; Cancel gives the input back; Confirm sends.
            before = len(game_state(d)["moves"])
            move = legal_move(d)
            click_move(d, move)
            click(d, "Cancel", By.ID, "cancel-move")
            wait_for(d, "the input back", lambda d: d.find_elements(By.CSS_SELECTOR, "#screen .board .sq.accepts") and not d.find_elements(By.ID, "confirm-move"))
            if len(game_state(d)["moves"]) != before or game_state(d)["moveSent"]:
                fail("a move waiting for Confirm was sent")
            click_move(d, move)
            wait_for(d, "Confirm", lambda d: d.find_elements(By.ID, "confirm-move"))
            time.sleep(0.5)  # nothing goes out while it waits
            if len(game_state(d)["moves"]) != before:
                fail("the move went out before Confirm")
            # The tab hidden (as the page sees it) while the bot answers: a notification.
            d.execute_script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
            click(d, "Confirm move", By.ID, "confirm-move")
            wait_for(d, "the confirmed move taken", lambda d: len(game_state(d)["moves"]) > before)
            if game_state(d)["moves"][before] != "%s-%s/%s" % tuple(move):
                fail("the game has %s where %s was confirmed" % (game_state(d)["moves"][before], move))
            if js(d, ANIMATED) == game_state(d)["moves"][before]:
                fail("our own move, entered on the board, slid again")
            wait_for(d, "the bot's answer", our_turn, timeout=60)
            wait_for(d, "the bot's answer sliding", lambda d: js(d, ANIMATED) == game_state(d)["moves"][-1])
            wait_for(d, "the your-move notification", lambda d: "turn-" + game in (js(d, "return document.body.dataset.notified") or "").split("|"))
            d.execute_script("delete document.hidden")

            # Off: no slide, and a move goes at once.
            settings(d, server.url, False, "off")
            d.get(server.url + "/#/game/" + game)
            wait_for(d, "the game again", our_turn, timeout=60)
            d.execute_script("document.querySelector('#screen .board').dataset.animated = ''")
            before = len(game_state(d)["moves"])
            click_move(d, legal_move(d))
            wait_for(d, "the move sent at once", lambda d: len(game_state(d)["moves"]) > before)
            if d.find_elements(By.ID, "confirm-move"):
                fail("Confirm is asked for with confirming off")
            wait_for(d, "the bot's next answer", lambda d: our_turn(d) or game_state(d)["status"] == "finished", timeout=60)
            if js(d, ANIMATED):
                fail("a move slid with sliding off: %r" % js(d, ANIMATED))
        finally:
            d.quit()
            bot.stop()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
