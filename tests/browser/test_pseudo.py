"""The page in the pseudo-locale (en-XA, web/src/pseudo.ts: every English message accented, 40%
longer and in brackets), through the screens a person meets: the first screen, Learn to play,
the game against the computer, the analysis board, the settings, then signed in the lobby, a new
game waiting for its opponent, the tournament form, the archive and the leaderboard. On each, no
plain English word is left but names and the notation's (a text that did not come through the
catalogue), and at a phone's width (390 px) nothing is wider than the screen and no button cuts
its text. Screenshots at phone size go to the directory given as the first argument."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import Server, browser, clear_notices, click, fail, js, page_text, sign_in, temp_dir, wait_for
from selenium.webdriver.common.by import By

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
PHONE = (390, 844)
DESKTOP = (1280, 900)

# Plain words a page in the pseudo-locale may show: the player's name, and English as the
# language switch names it (each language by its own name).
ALLOWED = {"alice", "English"}

# Buttons and links drawn as buttons whose text is wider than they are (cut or spilling out).
CUT = """
const out = [];
for (const el of document.querySelectorAll('button, a.button, .tile, label, h1, h2')) {
  if (el.offsetParent === null) continue;
  if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
    out.push(el.id || el.textContent.trim().slice(0, 40));
}
return out;"""


def check(d, where, name):
    words = set(re.findall(r"[A-Za-z]{2,}", page_text(d))) - ALLOWED
    if words:
        fail("plain English on the %s in the pseudo-locale: %r" % (where, sorted(words)))
    if "[" not in js(d, "return document.body.innerText"):
        fail("no pseudo-localised text on the %s" % where)
    d.set_window_size(*PHONE)
    time.sleep(0.3)
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        clear_notices(d)
        d.save_screenshot(os.path.join(SHOTS, "pseudo-%s.png" % name))
    wide = js(d, "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if wide > 1:
        fail("the %s is %d px wider than the phone's screen with longer texts" % (where, wide))
    cut = js(d, CUT)
    if cut:
        fail("on the %s at 390 px these cut their text: %r" % (where, cut))
    d.set_window_size(*DESKTOP)
    time.sleep(0.3)


def screen(d):
    return js(d, "return document.getElementById('screen').dataset.screen")


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        d = browser(tmp, "alice", *DESKTOP)
        try:
            d.get(server.url)
            js(d, "localStorage.setItem('amazons.language', 'en-XA')")
            d.refresh()
            wait_for(d, "the first screen", lambda d: d.find_elements(By.ID, "rules-summary"))
            # The tab's title comes from the catalogue too (index.html's own is English).
            wait_for(d, "the tab's title in the pseudo-locale", lambda d: js(d, "return document.title").startswith("["))
            if js(d, "return document.documentElement.lang") != "en-XA":
                fail("<html lang> is %r" % js(d, "return document.documentElement.lang"))
            js(d, "document.getElementById('name').value = 'alice'")  # a name, not a word
            check(d, "first screen", "home")

            for route, name, ready in (("#/learn", "learn", "learn"), ("#/computer", "computer", "computer"),
                                       ("#/analysis", "analysis", "analysis"), ("#/settings", "settings", "settings")):
                d.get(server.url + "/" + route)
                wait_for(d, "the %s screen" % name, lambda d: screen(d) == ready)
                time.sleep(0.5)  # the engine's first lines, where the screen has them
                check(d, name + " screen", name)

            sign_in(d, server.url, "alice")
            wait_for(d, "the lobby", lambda d: d.find_elements(By.ID, "create"))
            check(d, "lobby", "lobby")
            click(d, "Create game", By.ID, "create")
            wait_for(d, "the game waiting", lambda d: screen(d) == "game")
            check(d, "game waiting for its opponent", "game-waiting")

            for route, name in (("#/tournaments/new", "tournament-new"), ("#/archive", "archive"), ("#/leaderboard", "leaderboard")):
                d.get(server.url + "/" + route)
                wait_for(d, "the %s screen" % name, lambda d: screen(d) == name)
                check(d, name + " screen", name)
        finally:
            d.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
