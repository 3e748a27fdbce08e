"""Tournaments in the browser: carol creates a round robin over the plain protocol (the server
lets players create them: limits.players_create_tournaments), two amazons-bots join it with
--tournament, and alice finds it in the lobby. Her Withdraw before joining and her second Join
are refused with the server's reasons, shown on the screen; she joins and withdraws before the
start. The bots' game shows as playing with a Watch link that opens it; at the end the standings
the page shows are those the server sends carol, and a Join is refused as over. A screenshot of
the standings goes to the directory given as the first argument (docs/screenshots when
refreshing)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (BUILD, Bot, Raw, Server, browser, clear_notices, click, fail, game_state, js, sign_in,
                         temp_dir, wait_for)
from selenium.webdriver.common.by import By

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
START_IN_S = 6
NAME = "Browser cup"

STANDINGS = """
return [...document.querySelectorAll('#standings tr[data-name]')].map((tr) => {
  const td = [...tr.querySelectorAll('td')].map((c) => c.textContent);
  return {name: tr.dataset.name, rank: td[0], points: td[2], tiebreak: td[3], games: td[4],
          wins: td[5], losses: td[6], draws: td[7], withdrawn: tr.classList.contains('withdrawn'),
          on_fire: !!tr.querySelector('.on-fire')};
});"""


def text(d, css):
    """An element's text read in one go in the page: the tournament screen and the game's seats
    are drawn again while the test reads them, so an element found a moment ago may be gone."""
    return js(d, "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css)


def shown(x):
    return str(round(x * 100) / 100).removesuffix(".0")


def problem(d):
    return text(d, "#tournament-problem")


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp, config={"limits": {"players_create_tournaments": True}})
        carol = Raw(server, "carol")
        info = carol.request({"type": "tournament_create", "name": NAME, "kind": "round_robin", "rules": "botzone8",
                              "time": {"per_move": 30}, "rated": False, "start_in": START_IN_S,
                              "max_players": 0, "bots_allowed": True})
        if info.get("type") != "tournament":
            fail("tournament_create: %r" % info)
        tid = info["tournament"]["id"]
        # bot2's engine moves only when the test opens its gate (a file it removes): the game
        # stays on until the page has been shown it.
        gate = os.path.join(tmp, "gate")
        gated = "%s gated %s" % (os.path.join(BUILD, "tests", "amazons-uci-test-engine"), gate)
        bots = [Bot(server, "bot1", "--tournament", str(tid)), Bot(server, "bot2", "--tournament", str(tid), engine=gated)]
        d = browser(tmp, "alice")
        try:
            sign_in(d, server.url, "alice")
            wait_for(d, "the tournament in the lobby", lambda d: NAME in text(d, "#tournaments"))
            line = text(d, '#tournaments .item[data-tournament="%d"]' % tid)
            if "Round robin · not started" not in line or "starts in " not in line:
                fail("the lobby's line: %r" % line)
            click(d, "the tournament", By.ID, "tournament-%d" % tid)
            wait_for(d, "both bots in the standings",
                     lambda d: sorted(r["name"] for r in js(d, STANDINGS)) == ["bot1", "bot2"])
            if text(d, "#tournament-name") != NAME or "Round robin · botzone8 · 30 s per move · casual" not in text(d, "#tournament-facts"):
                fail("the header: %r / %r" % (text(d, "#tournament-name"), text(d, "#tournament-facts")))

            click(d, "Withdraw", By.ID, "tournament-withdraw")
            wait_for(d, "the refused withdrawal", lambda d: problem(d) == "Withdraw refused: not in the tournament")
            click(d, "Join", By.ID, "tournament-join")
            wait_for(d, "alice in the standings", lambda d: "alice" in [r["name"] for r in js(d, STANDINGS)])
            wait_for(d, "the refusal gone", lambda d: problem(d) == "" and text(d, "#tournament-me") == "You play in it.")
            click(d, "Join again", By.ID, "tournament-join")
            wait_for(d, "the refused second join", lambda d: problem(d) == "Join refused: already in the tournament")
            if "Tournament: already in the tournament" not in text(d, "#notices"):
                fail("no notice of the refusal: %r" % text(d, "#notices"))
            # Withdrawn before the start: out of it, and the bots play each other.
            click(d, "Withdraw", By.ID, "tournament-withdraw")
            wait_for(d, "alice out", lambda d: sorted(r["name"] for r in js(d, STANDINGS)) == ["bot1", "bot2"])

            watch = '#pairings .item[data-state="playing"] a'
            wait_for(d, "the bots' game playing", lambda d: d.find_elements(By.CSS_SELECTOR, watch), timeout=START_IN_S + 15)
            game = js(d, "return document.querySelector('#pairings .item[data-state=\"playing\"]').dataset.game")
            if "running, round 1" not in text(d, "#tournament-facts"):
                fail("the facts of a running round robin: %r" % text(d, "#tournament-facts"))
            click(d, "Watch", By.CSS_SELECTOR, watch)
            wait_for(d, "the game watched", lambda d: (lambda s: s and s["id"] == game and s["color"] is None and s["status"] in ("active", "finished"))(game_state(d)))
            if sorted(text(d, ".seat.%s .name" % side).split(" ")[0] for side in ("top", "bottom")) != ["bot1", "bot2"]:
                fail("the seats of the watched game: %r / %r" % (text(d, ".seat.top .name"), text(d, ".seat.bottom .name")))
            click(d, "the Lobby link", By.ID, "back-lobby")
            click(d, "the tournament again", By.ID, "tournament-%d" % tid)

            final = None
            deadline = time.time() + 40
            while final is None and time.time() < deadline:  # bot2 plays each move at once now
                if not os.path.exists(gate):
                    open(gate, "w").close()
                m = carol.read(time.time() + 0.02)
                if m and m.get("type") == "tournament" and m["tournament"]["status"] == "finished":
                    final = m
            if final is None:
                fail("the tournament did not finish; carol's last messages: %r" % carol.seen[-3:])
            wait_for(d, "the end on the page", lambda d: js(d, "const t = document.getElementById('tournament'); return t && t.dataset.status") == "finished")
            want = [{"name": s["name"], "rank": str(s["rank"]), "points": shown(s["points"]), "tiebreak": shown(s["tiebreak"]),
                     "games": str(s["games"]), "wins": str(s["wins"]), "losses": str(s["losses"]), "draws": str(s["draws"]),
                     "withdrawn": s["withdrawn"], "on_fire": s["on_fire"]} for s in final["standings"]]
            got = js(d, STANDINGS)
            if got != want:
                fail("the standings shown:\n%r\nthe server's:\n%r" % (got, want))
            if sorted(s["points"] for s in final["standings"]) != [0, 1] or [s["games"] for s in final["standings"]] != [1, 1]:
                fail("a round robin of two should end 1-0: %r" % final["standings"])
            pairing = text(d, '#pairings .item[data-game="%s"]' % game)
            winner = final["standings"][0]["name"]
            if not pairing.endswith("%s won" % winner):
                fail("the pairing line: %r (winner %s)" % (pairing, winner))
            if SHOTS:
                clear_notices(d)
                os.makedirs(SHOTS, exist_ok=True)
                d.save_screenshot(os.path.join(SHOTS, "web-tournament.png"))
            click(d, "Join the finished one", By.ID, "tournament-join")
            wait_for(d, "the refused late join", lambda d: problem(d) == "Join refused: the tournament is over")
        finally:
            d.quit()
            for b in bots:
                b.stop()
            carol.close()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
