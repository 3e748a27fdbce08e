"""A person in a real browser, as a program that other tests start: headless Chromium signs in to
the web client at URL as NAME, joins the first open game it sees (optionally only GAME), and
plays it to its end by clicking three squares a move, the way a person does. Writes what the page
showed at the end to OUT as JSON: {"game", "color", "moves", "result"}. Exits 0 when the game
ended with a result, 1 (with the reason on stderr) otherwise. A screenshot of the game after
SHOT_AFTER plies goes to SHOTS when given.

Usage: play_as.py URL NAME OUT [--game ID] [--shots DIR] [--shot-after N] [--seed N]"""
import argparse
import json
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import browser, click_move, fail, game_state, js, sign_in, wait_for
from selenium.webdriver.common.by import By

MAX_PLIES = 200  # every variant ends long before
TURN_WAIT_S = 90  # the opponent is another person or program: give it time


def random_legal_move(d, rng):
    """A legal move from the page's own rules code, chosen with this program's seeded generator."""
    moves = js(d, """
      const a = window.amazons; const g = a.games.get(a.current); const b = g.board;
      const name = (s) => 'abcdefghijkl'[s % b.size] + (Math.floor(s / b.size) + 1);
      const out = [];
      for (const q of b.queens(b.toMove))
        for (const to of b.destinations(q))
          for (const ar of b.arrowTargets(q, to)) out.push([name(q), name(to), name(ar)]);
      return out;""")
    if not moves:
        fail("the page offers no legal move on our turn")
    return rng.choice(moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("name")
    ap.add_argument("out")
    ap.add_argument("--game", default="")
    ap.add_argument("--shots", default="")
    ap.add_argument("--shot-after", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    tmp = tempfile.mkdtemp(prefix="amazons-play-as-")
    d = browser(tmp, args.name, self_signed=args.url.startswith("https:"))
    try:
        sign_in(d, args.url, args.name)
        selector = '[id="join-%s"]' % args.game if args.game else '[id^="join-"]'
        wait_for(d, "an open game to join", lambda d: d.find_elements(By.CSS_SELECTOR, selector), timeout=TURN_WAIT_S)
        d.find_elements(By.CSS_SELECTOR, selector)[0].click()
        wait_for(d, "the game to start", lambda d: (game_state(d) or {}).get("status") == "active")
        shot_taken = not args.shots
        while True:
            wait_for(d, "our turn or the end",
                     lambda d: (lambda s: s["status"] == "finished" or (s["myTurn"] and not s["moveSent"]))(game_state(d)),
                     timeout=TURN_WAIT_S)
            g = game_state(d)
            if g["status"] == "finished":
                break
            if len(g["moves"]) > MAX_PLIES:
                fail("the game does not end")
            if not shot_taken and len(g["moves"]) >= args.shot_after:
                os.makedirs(args.shots, exist_ok=True)
                d.save_screenshot(os.path.join(args.shots, "browser-vs-desktop-web.png"))
                shot_taken = True
            before = len(g["moves"])
            click_move(d, random_legal_move(d, rng))
            wait_for(d, "our move taken",
                     lambda d: len(game_state(d)["moves"]) > before or game_state(d)["status"] == "finished")
        g = game_state(d)
        if args.shots:
            d.save_screenshot(os.path.join(args.shots, "browser-vs-desktop-web-result.png"))
        with open(args.out + ".tmp", "w") as f:
            json.dump({"game": g["id"], "color": g["color"], "moves": g["moves"], "result": g["result"]}, f)
        os.replace(args.out + ".tmp", args.out)
        if not g["result"]:
            fail("the game finished without a result on the page")
    finally:
        d.quit()


if __name__ == "__main__":
    started = time.time()
    main()
    print("played in %.1f s" % (time.time() - started))
