"""The engine on a LAN page: a server reached over plain http:// by a name that is not localhost
is not a secure context, so the page is not cross-origin isolated and may not share memory with
workers. The page then runs the WebAssembly engine built without threads (ai/wasm, `--single`
under Node). Here the name `lan.test` is mapped to 127.0.0.1 in Chromium, so the page is exactly
such a LAN page while every byte stays on loopback. On it the analysis board gives three best
moves that the native engine calls legal and deepens; switched off and on (which ends the worker
and starts another) it analyses again; a move there is analysed; and a game against the computer
gets the engine's answers. The page stays responsive while the engine thinks: a click is handled
within 100 ms (measured in the page from the event's time stamp)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import Server, browser, click, click_delays, fail, js, temp_dir, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_analysis import LINES, DEPTH, SEARCHED, PROBLEM, native_says_legal

RESPONSIVE_MS = 100


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        port = server.url.rsplit(":", 1)[1]
        d = browser(tmp, "lan", flags=["--host-resolver-rules=MAP lan.test 127.0.0.1"])
        try:
            d.get("http://lan.test:%s/#/analysis" % port)
            wait_for(d, "the analysis board on the LAN page", lambda d: d.find_elements(By.ID, "analysis-board"))
            if js(d, "return window.crossOriginIsolated") is not False or js(d, "return window.isSecureContext") is not False:
                fail("the lan.test page is isolated or secure: it does not stand for a LAN page")
            start = "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w"
            wait_for(d, "three lines at depth 3 without threads", lambda d: js(d, PROBLEM) or (
                js(d, SEARCHED) == start and js(d, DEPTH) >= 3 and len(js(d, LINES)) == 3), timeout=60)
            if js(d, PROBLEM):
                fail("the page says %r" % js(d, PROBLEM))
            native_says_legal(start, js(d, LINES))

            # The page answers clicks at once while the engine thinks in its worker.
            delays = click_delays(d, lambda: d.find_element(By.ID, "analysis-flip").click(), 5)
            if len(delays) != 5 or max(delays) > RESPONSIVE_MS:
                fail("clicks while the engine thinks waited %r ms" % delays)

            # Off and on: the running search ends with its worker, a new one answers.
            d.find_element(By.ID, "analysis-engine").click()
            wait_for(d, "the engine off", lambda d: "engine is off" in d.find_element(By.ID, "analysis-status").text)
            d.find_element(By.ID, "analysis-engine").click()
            wait_for(d, "the lines again", lambda d: js(d, SEARCHED) == start and js(d, DEPTH) >= 2 and len(js(d, LINES)) == 3, timeout=60)

            # A move played: its position is analysed.
            button = "const b = document.querySelector('#engine-lines .engine-line .line-move'); if (!b) return null; b.click(); return b.textContent"
            played = wait_for(d, "the best line's button", lambda d: js(d, button))
            wait_for(d, "the position after %s analysed" % played, lambda d: js(d, SEARCHED) != start and js(d, DEPTH) >= 2 and len(js(d, LINES)) == 3, timeout=60)
            native_says_legal(js(d, SEARCHED), js(d, LINES))

            # A game against the computer: the engine answers, and no Move now (it cannot stop).
            d.get("http://lan.test:%s/#/computer" % port)
            wait_for(d, "the computer screen", lambda d: d.find_elements(By.ID, "computer-status"))
            Select(d.find_element(By.ID, "computer-level")).select_by_value("easy")
            Select(d.find_element(By.ID, "computer-rules")).select_by_value("botzone8")
            Select(d.find_element(By.ID, "computer-color")).select_by_value("white")
            click(d, "New game", By.ID, "computer-new")
            moves = "return [...document.querySelectorAll('#computer-moves .mv')].map(e => e.textContent)"
            wait_for(d, "the engine's first move as Black on 8x8", lambda d: len(js(d, moves)) == 1 or js(d, "const p = document.getElementById('computer-problem'); return p && p.textContent"), timeout=60)
            if len(js(d, moves)) != 1:
                fail("the computer game on the LAN page: %r" % js(d, "return document.getElementById('computer').innerText"))
            if d.find_elements(By.ID, "computer-move-now"):
                fail("Move now is offered by an engine that cannot stop")
        finally:
            d.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
