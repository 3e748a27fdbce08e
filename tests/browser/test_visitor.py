"""A visitor who has not signed in (issue 34): the first screen lists the games being played and
opens one to watch, moves arriving live; an invite link says who invites to what and seats the
visitor in one click on a 390 px phone; a wrong invite code says so; axe-core finds nothing on
the three screens. Two players over the plain protocol make the games."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import Raw, Server, axe_violations, browser, clear_notices, fail, game_state, js, temp_dir, text, wait_for
from selenium.webdriver.common.by import By

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None


def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        clear_notices(driver)
        driver.save_screenshot(os.path.join(SHOTS, name))


def phone(driver, width=390, height=844):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})


def no_sideways_scroll(driver, width, where):
    scroll = js(driver, "return document.documentElement.scrollWidth")
    if scroll > width:
        wide = js(driver, """const w = arguments[0]; const out = [];
          for (const e of document.querySelectorAll('body *')) { const r = e.getBoundingClientRect();
            if (r.right > w + 0.5 && r.width > 0) out.push(e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(r.right)); }
          return out.slice(0, 8);""", width)
        fail("%s is %d px wide on a %d px phone: %r" % (where, scroll, width, wide))


def accessible(driver, screen):
    found = axe_violations(driver)
    if found:
        fail("axe-core finds on %s: %r" % (screen, found))


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        alice, bob = Raw(server, "alice"), Raw(server, "bob")
        created = alice.request({"type": "create", "rules": "standard", "color": "white",
                                 "time": {"initial": 300, "increment": 5}})
        game = created["game"]
        bob.request({"type": "join", "game": game})
        alice.wait("the start", lambda m: m.get("type") == "start")
        alice.send({"type": "move", "game": game, "move": "d1-d7/g7"})
        bob.wait("alice's move", lambda m: m.get("type") == "moved")

        visitor = browser(tmp, "visitor")
        guest = browser(tmp, "guest", 390, 844)
        try:
            # The first screen, signed out: the game being played, opened to watch.
            visitor.get(server.url)
            wait_for(visitor, "the games being played", lambda d: d.find_elements(By.CSS_SELECTOR, "#live-games .live-game"))
            link = visitor.find_element(By.CSS_SELECTOR, "#live-games .live-game")
            if link.get_attribute("data-game") != game or "alice (1500" not in link.text or "bob (1500" not in link.text:
                fail("the live game is listed as %r (game %s)" % (link.text, link.get_attribute("data-game")))
            if "move 2" not in text(visitor, "#live-games"):
                fail("the live list does not say the game is at move 2: %r" % text(visitor, "#live-games"))
            if not visitor.find_elements(By.ID, "signin"):
                fail("the sign-in form is not on the first screen")
            js(visitor, "document.getElementById('live-games').scrollIntoView({block: 'end'})")
            shot(visitor, "web-visitor-home.png")
            accessible(visitor, "the first screen with a live game")
            link.click()
            wait_for(visitor, "the watched game", lambda d: (game_state(d) or {}).get("moves") == ["d1-d7/g7"])
            if game_state(visitor)["color"] is not None:
                fail("the visitor has a seat: %r" % game_state(visitor))
            if visitor.find_elements(By.ID, "chat-input") or not visitor.find_elements(By.ID, "visitor-signin"):
                fail("a visitor is offered the chat, or no way to sign in")
            bob.send({"type": "move", "game": game, "move": "d10-d8/d9"})
            wait_for(visitor, "bob's move, live", lambda d: len(game_state(d)["moves"]) == 2)
            shot(visitor, "web-visitor-watching.png")
            accessible(visitor, "a game watched by a visitor")
            if alice.request({"type": "list"})["games"][0].get("spectators", 0) != 1:
                fail("the server does not count the visitor as a spectator")
            # Back to the first screen: the page stops watching (the server counts no spectator).
            visitor.get(server.url + "/#/")
            deadline = time.time() + 10
            while time.time() < deadline and alice.request({"type": "list"})["games"][0].get("spectators", 0) > 0:
                time.sleep(0.2)
            if alice.request({"type": "list"})["games"][0].get("spectators", 0) > 0:
                fail("the visitor still watches after leaving the game screen")

            # An invite link on a phone: who invites to what, and one click seats the guest.
            private = alice.request({"type": "create", "rules": "standard", "color": "white", "private": True,
                                     "time": {"initial": 180, "increment": 2}, "rated": False})
            phone(guest)
            guest.get("%s/#/join/%s/%s" % (server.url, private["game"], private["invite"]))
            wait_for(guest, "the invite", lambda d: text(d, "#invite-title") == "alice invites you to a game")
            words = text(guest, "#invite-text")
            for want in ("alice (1500)", "standard", "3 min + 2 s", "casual", "You play Black"):
                if want not in words:
                    fail("the invite says %r, without %r" % (words, want))
            name = guest.find_element(By.ID, "name").get_attribute("value")
            if not re.fullmatch(r"guest\d{4}", name):
                fail("the guest name offered is %r" % name)
            if text(guest, "#signin-button") != "Accept and play":
                fail("the button says %r" % text(guest, "#signin-button"))
            no_sideways_scroll(guest, 390, "the invite")
            shot(guest, "web-invite-phone.png")
            accessible(guest, "an invite on a phone")
            guest.find_element(By.ID, "signin-button").click()  # the one click
            wait_for(guest, "the game to start", lambda d: (game_state(d) or {}).get("status") == "active")
            if game_state(guest)["color"] != "black" or game_state(guest)["id"] != private["game"]:
                fail("the guest is not black in game %s: %r" % (private["game"], game_state(guest)))
            start = alice.wait("the invite's start", lambda m: m.get("type") == "start" and m.get("game") == private["game"])
            if start["black"]["name"] != name:
                fail("alice's opponent is %r, not %r" % (start["black"]["name"], name))
            # Seated once: each move arrives once, not also as to a spectator.
            alice.send({"type": "move", "game": private["game"], "move": "d1-d7/g7"})
            wait_for(guest, "alice's move", lambda d: len(game_state(d)["moves"]) == 1)
            logged = js(guest, "return window.amazons.games.get(arguments[0]).moves.length", private["game"])
            if logged != 1:
                fail("the guest's page has %d moves after one" % logged)
            no_sideways_scroll(guest, 390, "the game")

            # A wrong code says so, and says nothing of the game.
            visitor.get("%s/#/join/%s/%s" % (server.url, private["game"], "x" * len(private["invite"])))
            visitor.refresh()
            wait_for(visitor, "the refusal", lambda d: d.find_elements(By.ID, "invite-problem"))
            if "alice" in text(visitor, "#invite-card"):
                fail("a wrong code shows the game: %r" % text(visitor, "#invite-card"))
        finally:
            visitor.quit()
            guest.quit()
            alice.close()
            bob.close()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
