"""Accessibility of every screen, checked by axe-core (the npm package tests/browser/package.json
pins; scripts/setup.sh installs it) in Chromium: zero violations of its WCAG 2.1 A and AA rules and
best practices, colour contrast included, on the first screen, Learn to play, the analysis board,
a game against the computer, the lobby, a game against amazons-bot in progress, its result, the
archive and the replay; the first screen and the game again at a phone's size; the settings,
and the first screen and the analysis board in the light theme they switch to (with the board's
colours and the coordinates, each checked to change the page and to stay over a reload)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import Bot, Server, axe_violations, browser, click, fail, game_state, js, play_bot_as_white, sign_in, temp_dir, text, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def check(d, screen, found):
    violations = axe_violations(d)
    for v in violations:
        found.append("%s: %s (%s) %s at %s" % (screen, v["id"], v.get("impact"), v["help"], ", ".join(v["nodes"])))
    print("%s: %d violations" % (screen, len(violations)))


def main():
    started = time.time()
    found = []
    with temp_dir() as tmp:
        server = Server(tmp)
        bot = Bot(server, "bot")
        d = browser(tmp, "a11y")
        d.set_script_timeout(60)
        try:
            d.get(server.url + "/")
            wait_for(d, "the first screen", lambda d: d.find_elements(By.ID, "home"))
            check(d, "first screen", found)
            d.get(server.url + "/#/learn")
            wait_for(d, "the lesson", lambda d: d.find_elements(By.ID, "lesson-text"))
            check(d, "learn", found)
            d.get(server.url + "/#/analysis")
            wait_for(d, "the analysis board's lines", lambda d: d.find_elements(By.CSS_SELECTOR, "#engine-lines .engine-line"), timeout=60)
            check(d, "analysis board", found)
            d.get(server.url + "/#/computer")
            wait_for(d, "the computer screen", lambda d: js(d, "const s = document.getElementById('computer-status'); return s && s.dataset.state === 'your-move'"), timeout=60)
            check(d, "computer", found)

            sign_in(d, server.url, "alice")
            wait_for(d, "the bot in the players list", lambda d: "bot" in text(d, "#players"))
            check(d, "lobby", found)
            Select(d.find_element(By.ID, "rules")).select_by_value("botzone8")
            Select(d.find_element(By.ID, "color")).select_by_value("white")
            d.find_element(By.ID, "create").click()
            wait_for(d, "the game to start", lambda d: (game_state(d) or {}).get("status") == "active")
            wait_for(d, "our move", lambda d: game_state(d)["myTurn"], timeout=60)
            check(d, "game", found)
            d.set_window_size(390, 844)
            check(d, "game on a phone", found)
            d.set_window_size(1280, 900)
            click(d, "Resign", By.ID, "resign") if d.find_elements(By.ID, "resign") else click(d, "Abort", By.ID, "abort")
            if d.find_elements(By.ID, "resign"):
                click(d, "Resign again to confirm", By.ID, "resign")
            wait_for(d, "the result", lambda d: text(d, "#result-title"))
            check(d, "result", found)
            d.find_element(By.ID, "nav-archive").click()
            wait_for(d, "the archive", lambda d: d.find_elements(By.CSS_SELECTOR, '[id^="replay-"]'))
            check(d, "archive", found)
            d.find_elements(By.CSS_SELECTOR, '[id^="replay-"]')[0].click()
            wait_for(d, "the replay", lambda d: text(d, "#replay-ply").startswith("Move 0 of"))
            check(d, "replay", found)
            d.get(server.url + "/#/leaderboard")
            wait_for(d, "the leaderboard's page", lambda d: d.find_elements(By.CSS_SELECTOR, "#leaderboard-page"))
            check(d, "leaderboard", found)
            d.get(server.url + "/#/tournaments/new")
            wait_for(d, "the tournament form", lambda d: d.find_elements(By.ID, "tn-name"))
            check(d, "create a tournament", found)
            d.find_element(By.ID, "signout").click()
            d.set_window_size(390, 844)
            wait_for(d, "the first screen", lambda d: d.find_elements(By.ID, "home"))
            check(d, "first screen on a phone", found)
            d.set_window_size(1280, 900)

            # Settings: each changes the page, is kept over a reload, and the light theme keeps
            # its contrast too.
            d.get(server.url + "/#/settings")
            wait_for(d, "the settings", lambda d: d.find_elements(By.ID, "setting-theme"))
            check(d, "settings", found)
            Select(d.find_element(By.ID, "setting-theme")).select_by_value("light")
            Select(d.find_element(By.ID, "setting-board")).select_by_value("moss")
            d.find_element(By.ID, "setting-coordinates").click()
            root = "const r = document.documentElement.dataset; return [r.theme, r.board, r.coordinates]"
            wait_for(d, "the settings applied", lambda d: js(d, root) == ["light", "moss", "off"])
            dark_square = "return getComputedStyle(document.querySelector('.board .sq.dark')).backgroundColor"
            d.get(server.url + "/")
            wait_for(d, "the first screen in the light theme", lambda d: d.find_elements(By.ID, "home") and js(d, root) == ["light", "moss", "off"])
            if js(d, dark_square) != "rgb(134, 158, 106)":
                fail("the moss board's dark squares are %r" % js(d, dark_square))
            if any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, ".board .coord")):
                fail("coordinates are shown while switched off")
            if js(d, "return getComputedStyle(document.body).backgroundColor") != "rgb(240, 236, 228)":
                fail("the light theme's background is %r" % js(d, "return getComputedStyle(document.body).backgroundColor"))
            check(d, "first screen, light theme", found)
            d.get(server.url + "/#/analysis")
            wait_for(d, "the analysis board's lines", lambda d: d.find_elements(By.CSS_SELECTOR, "#engine-lines .engine-line"), timeout=60)
            check(d, "analysis board, light theme", found)
        finally:
            d.quit()
            bot.stop()
            server.stop()
    if found:
        fail("%d accessibility violations:\n  %s" % (len(found), "\n  ".join(found)))
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
