"""A private game by invite link: the host's game screen shows the link, a second browser (a
360x740 phone, over TLS with the server's self-signed certificate) opens it, signs in and joins; moves by click and by drag, Esc steps back, chat;
the phone reloads mid-game and resumes with its token; a resignation ends it on both pages."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (Server, browser, click_move, fail, game_state, js, legal_move, square, sign_in, temp_dir,
                         text, wait_for)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None


def classes(driver, name):
    return square(driver, name).get_attribute("class").split()


def play_one(driver, drag=False):
    g = game_state(driver)
    q, to, arrow = legal_move(driver)
    if drag:
        ActionChains(driver).click_and_hold(square(driver, q)).move_to_element(square(driver, to)).release().perform()
        wait_for(driver, "the dragged queen on " + to, lambda d: "target-arrow" in classes(d, arrow))
        square(driver, arrow).click()
    else:
        click_move(driver, (q, to, arrow))
    wait_for(driver, "the move to be played", lambda d: len(game_state(d)["moves"]) == len(g["moves"]) + 1)


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        alice = browser(tmp, "alice")
        bob = browser(tmp, "bob", 360, 740, self_signed=True)
        try:
            # A phone: 360x740 CSS pixels, touch, the mobile viewport rules.
            bob.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
            bob.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
            sign_in(alice, server.url, "alice")
            Select(alice.find_element(By.ID, "time")).select_by_visible_text("5 min + 5 s")
            Select(alice.find_element(By.ID, "color")).select_by_value("white")
            alice.find_element(By.ID, "private").click()
            alice.find_element(By.ID, "create").click()
            wait_for(alice, "the invite link", lambda d: d.find_elements(By.ID, "invite-link"))
            link = alice.find_element(By.ID, "invite-link").get_attribute("value")
            m = re.fullmatch(re.escape(server.url) + r"/#/join/(\d+)/([A-Za-z0-9]+)", link)
            if not m:
                fail("the invite link is " + link)
            if not alice.find_elements(By.ID, "copy-invite"):
                fail("no copy button beside the invite link")
            if game_state(alice)["status"] != "open":
                fail("the host's game is not waiting")

            # The friend opens the link, over TLS this time (https and wss on the same port),
            # signs in, and is in the game.
            link = link.replace(server.url, server.https_url)
            bob.get(link)
            wait_for(bob, "the sign-in form", lambda d: d.find_elements(By.ID, "name"))
            bob.find_element(By.ID, "name").clear()  # a guest name is offered: bob takes his own
            bob.find_element(By.ID, "name").send_keys("bob")
            bob.find_element(By.ID, "signin-button").click()
            wait_for(bob, "the game to start for bob", lambda d: (game_state(d) or {}).get("status") == "active")
            wait_for(alice, "the game to start for alice", lambda d: game_state(d)["status"] == "active")
            if game_state(bob)["color"] != "black" or game_state(bob)["id"] != m.group(1):
                fail("bob is not black in game %s: %r" % (m.group(1), game_state(bob)))
            if not bob.current_url.startswith("https://") or js(bob, "return location.protocol") != "https:":
                fail("bob is not on https: " + bob.current_url)
            if not bob.current_url.endswith("#/game/" + m.group(1)):
                fail("bob's address is " + bob.current_url)

            # Esc and right click step back through the stages.
            q, to, _ = legal_move(alice)
            square(alice, q).click()
            wait_for(alice, "destinations", lambda d: "target" in classes(d, to))
            square(alice, to).click()
            wait_for(alice, "arrow targets", lambda d: alice.find_elements(By.CSS_SELECTOR, ".sq.target-arrow"))
            ActionChains(alice).context_click(square(alice, to)).perform()
            wait_for(alice, "right click back to the destinations", lambda d: "target" in classes(d, to))
            ActionChains(alice).send_keys(Keys.ESCAPE).perform()
            wait_for(alice, "Esc back to choosing a queen", lambda d: not d.find_elements(By.CSS_SELECTOR, ".sq.target"))

            play_one(alice)
            wait_for(bob, "alice's move on bob's page", lambda d: len(game_state(d)["moves"]) == 1)
            play_one(bob)
            wait_for(alice, "bob's move", lambda d: len(game_state(d)["moves"]) == 2)
            play_one(alice, drag=True)
            wait_for(bob, "the dragged move", lambda d: len(game_state(d)["moves"]) == 3)
            play_one(bob)

            chat = alice.find_element(By.ID, "chat-input")
            chat.send_keys("good luck")
            chat.send_keys(Keys.ENTER)
            wait_for(bob, "the chat line", lambda d: "alice: good luck" in text(d, "#chat-log"))
            if SHOTS:
                os.makedirs(SHOTS, exist_ok=True)
                bob.save_screenshot(os.path.join(SHOTS, "web-phone.png"))
            width = bob.execute_script("return document.documentElement.scrollWidth")
            if width > 360:
                fail("the phone layout is %d px wide, wider than the 360 px screen" % width)

            # A reload resumes with the token: no sign-in form, the same game, every move.
            before = game_state(bob)["moves"]
            bob.refresh()
            wait_for(bob, "the resumed game", lambda d: (game_state(d) or {}).get("moves") == before)
            if bob.find_elements(By.ID, "signin"):
                fail("the reload asked bob to sign in again")
            if game_state(bob)["color"] != "black":
                fail("after the reload bob does not play black")
            play_one(alice)
            wait_for(bob, "a move after the reload", lambda d: len(game_state(d)["moves"]) == len(before) + 1)

            bob.find_element(By.ID, "resign").click()
            bob.find_element(By.ID, "resign").click()  # the second click confirms
            for d, who, title in ((alice, "alice", "You won"), (bob, "bob", "You lost")):
                wait_for(d, "the result on %s's page" % who, lambda d: text(d, "#result-title") == title)
                if text(d, "#result-reason") != "Black resigned.":
                    fail("%s sees the reason %r" % (who, text(d, "#result-reason")))
        finally:
            alice.quit()
            bob.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
