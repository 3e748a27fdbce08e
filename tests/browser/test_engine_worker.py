"""The engine in the browser: the page the server serves is cross-origin isolated, and the
WebAssembly engine runs there in its Web Worker (ai/wasm/amazons-engine-worker.js) with its
search threads. Over the engine protocol it answers as the native engine does: perft counts on
both boards, a search at a fixed depth, errors; a search with two threads, stopped from the page,
still answers. The page stays responsive meanwhile (a timer keeps firing during the search)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import BUILD, Server, browser, fail, temp_dir, wait_for
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "wasm"))
from compare_engines import Engine

# Runs in the page: a worker, the lines it wrote in window.engineLines, its end in engineDone.
START = """
window.engineLines = []; window.engineErrors = []; window.engineDone = null; window.ticks = 0;
setInterval(() => { window.ticks += 1; }, 50);
window.engine = new Worker('amazons-engine-worker.js');
window.engine.onmessage = (e) => {
  if ('line' in e.data) window.engineLines.push(e.data.line);
  if ('error' in e.data) window.engineErrors.push(e.data.error);
  if ('done' in e.data) window.engineDone = e.data.done;
};
"""


def native_answers(commands):
    """The native amazons-engine's answers to the same commands, each awaited before the next."""
    native = Engine("native", [os.path.join(BUILD, "ai", "amazons-engine")])
    answers = [line for command in commands for line in native.answer(command)]
    native.quit()
    return answers


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        d = browser(tmp, "engine")
        try:
            d.get(server.url + "/")
            if d.execute_script("return window.crossOriginIsolated") is not True:
                fail("the page is not cross-origin isolated: the engine would have no threads")
            d.execute_script(START)

            def lines():
                return d.execute_script("return window.engineLines.slice()")

            def send(line, answered):
                """Sends `line` and waits until the lines written since say it is answered."""
                before = len(lines())
                d.execute_script("window.engine.postMessage(arguments[0])", line)
                wait_for(d, "the answer to %r" % line, lambda d: answered(lines()[before:])
                         or d.execute_script("return window.engineDone") is not None)
                return lines()[before:]

            def one_line(new):
                return len(new) >= 1

            def best_move(new):
                return any(l.startswith("bestmove") for l in new)

            # One thread, so the search is the native one's to the node.
            commands = ["threads 1", "rules botzone8", "perft 3", "rules standard", "perft 2",
                        "position start moves d1-d7/g7", "perft 2", "go depth 2", "eval", "frobnicate"]
            for line in commands:
                send(line, best_move if line.startswith("go") else one_line)
            got = lines()
            want = native_answers(commands)

            def comparable(answers):  # without what depends on the machine's speed
                return [re.sub(r" nps \d+ time \d+", "", l) for l in answers]

            if comparable(got) != comparable(want):
                fail("the browser's engine answered\n  %r\nthe native engine\n  %r" % (got, want))

            # Two threads, an infinite search, stopped from the page; the page kept its timers.
            send("threads 2", one_line)
            ticks = d.execute_script("return window.ticks")
            send("go infinite", lambda new: any(l.startswith("info depth 3") for l in new))
            searching = lines()
            time.sleep(0.5)
            if d.execute_script("return window.ticks") <= ticks + 3:
                fail("the page's timers stopped while the engine searched")
            stopped = send("stop", best_move)
            if searching[-1].startswith("bestmove") or stopped[-1] == "bestmove none":
                fail("the infinite search: %r, after stop %r" % (searching, stopped))
            d.execute_script("window.engine.postMessage('quit')")
            wait_for(d, "the engine's end", lambda d: d.execute_script("return window.engineDone") == 0)
            errors = d.execute_script("return window.engineErrors")
            if errors:
                fail("the engine wrote to stderr: %r" % errors)
        finally:
            d.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
