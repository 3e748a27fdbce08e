"""Premoves in the browser against a real amazons-bot whose engine is the UCI test engine in its
"gated" mode: it plays its least legal move (by the C++ Move::raw() order), and only when the
test opens the gate. So the test knows each reply before it comes: a premove the reply leaves
legal is cancelled by right click and by Esc, entered again and sent the moment the reply
arrives; one the reply blocks is dropped with a notice. A screenshot of a pending premove goes to
the directory given as the first argument (docs/screenshots when refreshing)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (BUILD, Bot, Server, browser, click_move, fail, game_state, js, square, sign_in,
                         temp_dir, text, wait_for)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None

# The page's rules code does the work: every move of a board, the gated engine's choice, and a
# premove of White that the reply leaves legal (or not).
PLAN = """
const a = window.amazons, g = a.games.get(a.current), n = g.board.size;
const name = (s) => 'abcdefghijkl'[s % n] + (Math.floor(s / n) + 1);
const text = (m) => name(m.from) + '-' + name(m.to) + '/' + name(m.arrow);
const idx = (s) => Math.floor(s / n) * 16 + s % n;  // common/types.h: rank * kStride + file
const raw = (m) => idx(m.from) + idx(m.to) * 256 + idx(m.arrow) * 65536;
const moves = (b) => { const out = [];
  for (const q of b.queens(b.toMove)) for (const to of b.destinations(q))
    for (const ar of b.arrowTargets(q, to)) out.push({from: q, to: to, arrow: ar});
  return out; };
const least = (b) => moves(b).reduce((x, y) => raw(y) < raw(x) ? y : x);
const want = arguments[0];
if (want === 'first') { const m = least(g.board); return [name(m.from), name(m.to), name(m.arrow)]; }
const reply = least(g.board);
const then = g.board.clone(); then.play(reply);
const mine = g.board.clone(); mine.toMove = g.color;
for (const m of moves(mine)) if (then.isLegal(m) === (want === 'kept'))
  return {reply: text(reply), move: [name(m.from), name(m.to), name(m.arrow)], text: text(m)};
return null;
"""


def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SHOTS, name))


def premove(d):
    return d.find_element(By.ID, "status").get_attribute("data-premove")


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        gate = os.path.join(tmp, "gate")
        engine = "%s gated %s" % (os.path.join(BUILD, "tests", "amazons-uci-test-engine"), gate)
        bot = Bot(server, "gatekeeper", "--list-interval", "1", engine=engine)
        d = browser(tmp, "alice")

        def open_gate():
            with open(gate, "w") as f:
                f.write("go\n")

        def enter_premove(plan):
            click_move(d, plan["move"])
            wait_for(d, "the premove " + plan["text"], lambda d: premove(d) == plan["text"])

        try:
            sign_in(d, server.url, "alice")
            wait_for(d, "the bot in the players list", lambda d: "gatekeeper" in text(d, "#players"))
            Select(d.find_element(By.ID, "rules")).select_by_value("standard")
            # The engine is given the time per move to think: enough for the test to open its gate.
            Select(d.find_element(By.ID, "time")).select_by_visible_text("30 s per move")
            Select(d.find_element(By.ID, "color")).select_by_value("white")
            d.find_element(By.ID, "create").click()
            wait_for(d, "our first move", lambda d: (lambda s: s and s["status"] == "active" and s["myTurn"])(game_state(d)))
            click_move(d, js(d, PLAN, "first"))
            wait_for(d, "the bot thinking", lambda d: (lambda s: len(s["moves"]) == 1 and not s["moveSent"])(game_state(d)))
            if "You may premove" not in text(d, "#status"):
                fail("the status does not offer a premove: " + text(d, "#status"))

            # A premove the reply leaves legal: cancelled by right click, by Esc, then sent.
            kept = js(d, PLAN, "kept")
            if not kept:
                fail("no premove that the bot's reply leaves legal")
            enter_premove(kept)
            if text(d, "#status") != "Premove %s, Esc cancels" % kept["text"]:
                fail("status with a premove: " + text(d, "#status"))
            for s in kept["move"]:
                cls = square(d, s).get_attribute("class").split()
                if "premove" not in cls and "premove-arrow" not in cls:
                    fail("the premove's square %s is not marked: %r" % (s, cls))
            if len(game_state(d)["moves"]) != 1:
                fail("the premove went out before the reply")
            ActionChains(d).context_click(square(d, kept["move"][1])).perform()
            wait_for(d, "right click to cancel it", lambda d: premove(d) == "" and not d.find_elements(By.CSS_SELECTOR, ".sq.premove"))
            if "Premove cancelled." not in text(d, "#notices"):
                fail("no notice of the cancelled premove: " + text(d, "#notices"))
            enter_premove(kept)
            shot(d, "web-premove.png")
            ActionChains(d).send_keys(Keys.ESCAPE).perform()
            wait_for(d, "Esc to cancel it", lambda d: premove(d) == "")
            enter_premove(kept)
            open_gate()
            wait_for(d, "the reply and the premove sent at once", lambda d: len(game_state(d)["moves"]) == 3)
            g = game_state(d)
            if g["moves"][1] != kept["reply"] or g["moves"][2] != kept["text"]:
                fail("expected %s then %s, got %r" % (kept["reply"], kept["text"], g["moves"]))

            # A premove the reply blocks: dropped with the reason; then it is our turn as usual.
            wait_for(d, "the bot thinking again", lambda d: not game_state(d)["moveSent"] and not game_state(d)["myTurn"])
            doomed = js(d, PLAN, "doomed")
            if not doomed:
                fail("no premove that the bot's reply makes illegal")
            enter_premove(doomed)
            open_gate()
            wait_for(d, "the reply, and our turn", lambda d: (lambda s: len(s["moves"]) == 4 and s["myTurn"] and not s["moveSent"])(game_state(d)))
            notice = "Premove %s dropped: " % doomed["text"]
            wait_for(d, "the notice of the dropped premove", lambda d: notice in text(d, "#notices"))
            if "now blocked" not in text(d, "#notices") or premove(d) != "":
                fail("dropped premove: %r / %r" % (text(d, "#notices"), premove(d)))
            if game_state(d)["moves"][3] != doomed["reply"]:
                fail("the bot's reply was %s, not %s" % (game_state(d)["moves"][3], doomed["reply"]))
        finally:
            d.quit()
            bot.stop()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


main()
