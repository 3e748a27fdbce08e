"""Tournaments in the browser: carol creates a round robin over the plain protocol (the server
lets players create them: limits.players_create_tournaments), two amazons-bots join it with
--tournament, and alice finds it in the lobby. Her Withdraw before joining and her second Join
are refused, in the page's words for the server's code, shown on the screen; she joins and withdraws before the
start. The bots' game shows as playing with a Watch link that opens it; at the end the standings
the page shows are those the server sends carol, and a Join is refused as over. Then an arena
of 8 s, which alice creates with the lobby's form (a mistyped length refused first), between
two more bots, one gated: the other wins game after game, and the page marks it
on fire when the server does; its final standings too are the server's. A screenshot of the
arena's standings goes to the directory given as the first argument (docs/screenshots when
refreshing). Prints the time of each stage."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (BUILD, Bot, Raw, Server, browser, clear_notices, click, fail, game_state, js, sign_in,
                         temp_dir, wait_for)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
START_IN_S = 6
ARENA_S = 8
NAME = "Browser cup"

STANDINGS = """
const heads = [...document.querySelectorAll('#standings th')].map((e) => e.textContent);
return [...document.querySelectorAll('#standings tr[data-name]')].map((tr) => {
  const td = [...tr.querySelectorAll('td')].map((c) => c.textContent);
  const at = (name) => td[heads.indexOf(name)];
  return {name: tr.dataset.name, rank: at('#'), points: at('Points'),
          tiebreak: heads.length === 8 ? td[3] : null, games: at('Games'),
          wins: at('W'), losses: at('L'), draws: at('D'), withdrawn: tr.classList.contains('withdrawn'),
          on_fire: !!tr.querySelector('.on-fire')};
});"""


def text(d, css):
    """An element's text read in one go in the page: the tournament screen and the game's seats
    are drawn again while the test reads them, so an element found a moment ago may be gone."""
    return js(d, "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css)


def shown(x):
    return str(round(x * 100) / 100).removesuffix(".0")


def status(d):
    return js(d, "const t = document.getElementById('tournament'); return t && t.dataset.status")


def problem(d):
    return text(d, "#tournament-problem")


def offered(d):
    """The ids of the Join and Withdraw buttons the tournament's screen shows."""
    return js(d, "return [...document.querySelectorAll('#tournament-join, #tournament-withdraw')].map((e) => e.id)")


def standings_wanted(info):
    """The standings as the page should show them (an arena's tiebreak, its wins, has no column)."""
    arena = info["tournament"]["kind"] == "arena"
    return [{"name": s["name"], "rank": str(s["rank"]), "points": shown(s["points"]),
             "tiebreak": None if arena else shown(s["tiebreak"]),
             "games": str(s["games"]), "wins": str(s["wins"]), "losses": str(s["losses"]), "draws": str(s["draws"]),
             "withdrawn": s["withdrawn"], "on_fire": s["on_fire"]} for s in info["standings"]]


class Follower:
    """Carol's view of a tournament while its gated bot plays every move at once."""

    def __init__(self, carol, gate, tid):
        self.carol, self.gate, self.tid, self.latest = carol, gate, tid, None

    def pump(self, seconds=0.02):
        until = time.time() + seconds
        while True:
            if not os.path.exists(self.gate):
                open(self.gate, "w").close()
            m = self.carol.read(min(until, time.time() + 0.02))
            if m and m.get("type") == "tournament" and m["tournament"]["id"] == self.tid:
                self.latest = m
            if time.time() >= until:
                return self.latest

    def until(self, what, predicate, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.latest and predicate(self.latest):
                return self.latest
            self.pump()
        fail("the server never showed %s; the last: %r" % (what, self.latest))


def stage(what, started):
    print("%5.1f s %s" % (time.time() - started, what), flush=True)


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp, config={"limits": {"players_create_tournaments": True}})
        carol = Raw(server, "carol")
        # The page first: Chromium may take seconds to start on a loaded machine, and the
        # tournament, created next, must still be "not started" when the page shows it.
        d = browser(tmp, "alice")
        bots = []
        sign_in(d, server.url, "alice")
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
        try:
            d.refresh()  # the lobby asks for the tournaments when it opens
            wait_for(d, "the tournament in the lobby", lambda d: NAME in text(d, "#tournaments"))
            line = text(d, '#tournaments .item[data-tournament="%d"]' % tid)
            if "Round robin · not started" not in line or "starts in " not in line:
                fail("the lobby's line: %r" % line)
            click(d, "the tournament", By.ID, "tournament-%d" % tid)
            wait_for(d, "both bots in the standings",
                     lambda d: sorted(r["name"] for r in js(d, STANDINGS)) == ["bot1", "bot2"])
            if text(d, "#tournament-name") != NAME or "Round robin · botzone8 · 30 s per move · casual" not in text(d, "#tournament-facts"):
                fail("the header: %r / %r" % (text(d, "#tournament-name"), text(d, "#tournament-facts")))

            stage("join and withdraw", started)
            # Only what the server would take is offered: Join to someone not in it, then Withdraw.
            wait_for(d, "Join offered, Withdraw not", lambda d: offered(d) == ["tournament-join"])
            click(d, "Join", By.ID, "tournament-join")
            wait_for(d, "alice in the standings", lambda d: "alice" in [r["name"] for r in js(d, STANDINGS)])
            wait_for(d, "Withdraw offered, Join not", lambda d: text(d, "#tournament-me") == "You play in it." and offered(d) == ["tournament-withdraw"])
            # Withdrawn before the start: out of it, and the bots play each other.
            click(d, "Withdraw", By.ID, "tournament-withdraw")
            wait_for(d, "alice out", lambda d: sorted(r["name"] for r in js(d, STANDINGS)) == ["bot1", "bot2"])
            wait_for(d, "Join offered again", lambda d: offered(d) == ["tournament-join"])

            stage("a refusal", started)
            # A refusal the page cannot foresee: a tournament that filled up meanwhile.
            full = carol.request({"type": "tournament_create", "name": "Full", "kind": "round_robin", "rules": "botzone8",
                                  "time": {"per_move": 30}, "rated": False, "start_in": START_IN_S + 60,
                                  "max_players": 2, "bots_allowed": True})
            if full.get("type") != "tournament":
                fail("the full one's tournament_create: %r" % full)
            fid = full["tournament"]["id"]
            click(d, "the Lobby link", By.ID, "back-lobby")
            click(d, "the full one", By.ID, "tournament-%d" % fid)
            wait_for(d, "its Join", lambda d: text(d, "#tournament-name") == "Full" and offered(d) == ["tournament-join"])
            dave = Raw(server, "dave")
            for who in (carol, dave):
                answer = who.request({"type": "tournament_join", "tournament": fid})
                if answer.get("type") != "ok":
                    fail("the full one could not be filled: %r" % answer)
            click(d, "Join", By.ID, "tournament-join")
            # The page's own words for the server's code (not_allowed), not the server's message.
            refusal = "the tournament is over, has started or is full, or you are already in it"
            wait_for(d, "the refused join", lambda d: problem(d) == "Join refused: " + refusal)
            if "Tournament: " + refusal not in text(d, "#notices"):
                fail("no notice of the refusal: %r" % text(d, "#notices"))
            click(d, "the Lobby link", By.ID, "back-lobby")
            click(d, "the round robin again", By.ID, "tournament-%d" % tid)
            wait_for(d, "its screen again", lambda d: text(d, "#tournament-name") == NAME)

            stage("the round robin starts", started)
            watch = '#pairings .item[data-state="playing"] a'
            wait_for(d, "the bots' game playing", lambda d: d.find_elements(By.CSS_SELECTOR, watch), timeout=START_IN_S + 15)
            game = js(d, "return document.querySelector('#pairings .item[data-state=\"playing\"]').dataset.game")
            if "running, round 1" not in text(d, "#tournament-facts"):
                fail("the facts of a running round robin: %r" % text(d, "#tournament-facts"))
            clear_notices(d)  # the notices' corner may cover the Watch button
            click(d, "Watch", By.CSS_SELECTOR, watch)
            wait_for(d, "the game watched", lambda d: (lambda s: s and s["id"] == game and s["color"] is None and s["status"] in ("active", "finished"))(game_state(d)))
            if sorted(text(d, ".seat.%s .name" % side).split(" ")[0] for side in ("top", "bottom")) != ["bot1", "bot2"]:
                fail("the seats of the watched game: %r / %r" % (text(d, ".seat.top .name"), text(d, ".seat.bottom .name")))
            click(d, "the Lobby link", By.ID, "back-lobby")
            click(d, "the tournament again", By.ID, "tournament-%d" % tid)

            stage("its game released", started)
            # bot2 plays each move at once now.
            final = Follower(carol, gate, tid).until("the end", lambda m: m["tournament"]["status"] == "finished", 40)
            wait_for(d, "the end on the page", lambda d: status(d) == "finished")
            want = standings_wanted(final)
            got = js(d, STANDINGS)
            if got != want:
                fail("the standings shown:\n%r\nthe server's:\n%r" % (got, want))
            if sorted(s["points"] for s in final["standings"]) != [0, 1] or [s["games"] for s in final["standings"]] != [1, 1]:
                fail("a round robin of two should end 1-0: %r" % final["standings"])
            pairing = text(d, '#pairings .item[data-game="%s"] span' % game)
            winner = final["standings"][0]["name"]
            if not pairing.endswith("%s won" % winner):
                fail("the pairing line: %r (winner %s)" % (pairing, winner))
            if offered(d) != []:
                fail("a finished tournament offers %r" % offered(d))
            # Its finished game is one click from its replay; SB is explained.
            if not d.find_elements(By.ID, "replay-pairing-%s" % game):
                fail("the finished pairing has no Replay link")
            if "Sonneborn-Berger" not in text(d, "#tiebreak-note") or text(d, "#pairings-title") != "Round 1":
                fail("the tiebreak note / pairings title: %r / %r" % (text(d, "#tiebreak-note"), text(d, "#pairings-title")))

            stage("the arena", started)
            # An arena: bot3 beats the gated bot4 game after game, and two wins in a row put it on
            # fire (its next win scores double); the page marks it when the server says so.
            # Alice creates it with the lobby's form: a refusal of what she typed first, then
            # every setting as the server stores it.
            click(d, "the Lobby link", By.ID, "back-lobby")
            click(d, "Create a tournament", By.ID, "create-tournament")
            wait_for(d, "the form", lambda d: d.find_elements(By.ID, "tn-name"))
            d.find_element(By.ID, "tn-name").send_keys("Browser arena")
            Select(d.find_element(By.ID, "tn-kind")).select_by_value("arena")
            if "on fire" not in text(d, "#tn-about"):
                fail("the arena is not explained: %r" % text(d, "#tn-about"))
            Select(d.find_element(By.ID, "tn-rules")).select_by_value("botzone8")
            Select(d.find_element(By.ID, "tn-time")).select_by_visible_text("30 s per move")
            d.find_element(By.ID, "tn-rated").click()
            for field, value in (("tn-start", "5 s"), ("tn-duration", "8 sec0nds")):
                d.find_element(By.ID, field).clear()
                d.find_element(By.ID, field).send_keys(value)
            click(d, "Create the tournament", By.ID, "tn-create")
            wait_for(d, "the form's refusal", lambda d: text(d, "#tournament-new-problem").startswith("Lasts: a time like"))
            d.find_element(By.ID, "tn-duration").clear()
            d.find_element(By.ID, "tn-duration").send_keys("%d s" % ARENA_S)
            click(d, "Create the tournament", By.ID, "tn-create")
            wait_for(d, "the arena's screen", lambda d: text(d, "#tournament-name") == "Browser arena")
            aid = int(d.current_url.rsplit("/", 1)[1])
            bots += [Bot(server, "bot3", "--tournament", str(aid)), Bot(server, "bot4", "--tournament", str(aid), engine=gated)]
            arena = carol.request({"type": "tournament", "tournament": aid})
            if arena.get("type") != "tournament" or arena["tournament"]["kind"] != "arena" or arena["duration"] != ARENA_S \
                    or arena["tournament"]["rated"] or arena["tournament"]["rules"] != "botzone8" or arena["tournament"]["time"] != {"per_move": 30}:
                fail("the arena made by the form: %r" % arena)
            follow = Follower(carol, gate, aid)
            follow.latest = arena
            # An arena breaks ties by wins: no column of its own beside W. The facts and the table
            # are drawn from the tournament's first message, which may come after its name.
            heads = lambda d: js(d, "return [...document.querySelectorAll('#standings th')].map((e) => e.textContent)")
            arena_columns = ["#", "Player", "Points", "Games", "W", "L", "D"]
            wait_for(d, "the arena's header and columns %r" % arena_columns,
                     lambda d: "Arena · botzone8" in text(d, "#tournament-facts") and heads(d) == arena_columns)
            # Joining stays open while an arena runs.
            wait_for(d, "the arena's Join", lambda d: offered(d) == ["tournament-join"])
            stage("the arena followed", started)
            hot = follow.until("a player on fire", lambda m: any(s["on_fire"] for s in m["standings"]), ARENA_S + 10)
            fire = [s["name"] for s in hot["standings"] if s["on_fire"]]

            def marked(d):
                follow.pump()
                return [r["name"] for r in js(d, STANDINGS) if r["on_fire"]] == [s["name"] for s in follow.latest["standings"] if s["on_fire"]]
            wait_for(d, "the on-fire marker of %s" % fire, marked)
            stage("on fire shown", started)
            final = follow.until("the arena's end", lambda m: m["tournament"]["status"] == "finished", ARENA_S + 10)
            wait_for(d, "the arena's end on the page", lambda d: status(d) == "finished")
            if js(d, STANDINGS) != standings_wanted(final):
                fail("the arena's standings shown:\n%r\nthe server's:\n%r" % (js(d, STANDINGS), standings_wanted(final)))
            if SHOTS:
                clear_notices(d)
                os.makedirs(SHOTS, exist_ok=True)
                d.save_screenshot(os.path.join(SHOTS, "web-tournament.png"))
            stage("the arena's standings checked", started)
        finally:
            d.quit()
            for b in bots:  # the arena's last game, void, is still on: resigned
                b.stop(now=True)
            carol.close()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
