#!/usr/bin/python3
"""How fast the web client loads: first paint and bytes transferred on a first and on a repeated
visit, on loopback and under Chrome DevTools' "Fast 3G" throttling, read from headless Chromium's
performance log (the DevTools protocol's Network events) and the page's paint timing.

  cd build/release && /usr/bin/python3 ../../bench/web_load.py [--runs N] [--web-root DIR]

Starts amazons-server from the build (AMAZONS_BINARY_DIR, as the browser tests, default
build/release) on a loopback port. A first visit is a browser with an empty profile; a repeated
visit is a new browser on the same profile (its disk cache, no memory cache), as a person who
comes back another day. Each visit loads the page, then fetches the engine's files in the order
its Web Worker loads them: the page is what every visitor pays for, the engine what one who
plays the computer pays for on top.

Prints, per network and visit, the medians over the runs: requests that reached the server, how
many came back 304, bytes received (headers and bodies as on the wire, the
Network.loadingFinished events' encodedDataLength), first paint and first contentful paint (ms
after navigation start), the load event, the same counts for the engine's files and the time to
fetch them, and the Content-Encodings seen. Not run by CI: a person runs it before and after a
change and writes the figures down (docs/DEVELOPING.md, "Loading the web client").
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
import browser_lib as lib  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

# Chrome DevTools' "Fast 3G" preset (front_end/core/sdk/NetworkManager.ts): 1.44 Mbit/s down and
# 675 kbit/s up, each times 0.9, and 150 ms of round trip times 3.75.
FAST_3G = {"offline": False, "latency": 562.5,
           "downloadThroughput": 1.44 * 1000 * 1000 / 8 * 0.9,
           "uploadThroughput": 675 * 1000 / 8 * 0.9}
NETWORKS = [("loopback", None), ("Fast 3G", FAST_3G)]
# How long a visit may take under Fast 3G (the engine's files are a megabyte).
ENGINE_WAIT_S = 120


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900", "--user-data-dir=" + profile):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(ENGINE_WAIT_S)
    driver.set_script_timeout(ENGINE_WAIT_S)
    return driver


def network_totals(driver, verbose=False):
    """{"page": ..., "engine": ...} of the Network events logged since the last call, the
    engine's files (amazons-engine-*) apart from the page's: (requests that reached the server,
    not the disk cache; how many came back 304; bytes received; Content-Encodings of answers)."""
    totals = {part: [0, 0, 0, set()] for part in ("page", "engine")}
    responses, wire_status = {}, {}
    for entry in driver.get_log("performance"):
        event = json.loads(entry["message"])["message"]
        method, params = event["method"], event.get("params", {})
        if method == "Network.responseReceived" and not params["response"]["url"].startswith("data:"):
            responses[params["requestId"]] = params["response"]
        elif method == "Network.responseReceivedExtraInfo":
            # The status on the wire: a revalidated answer is reported as the cached 200 above.
            wire_status[params["requestId"]] = params.get("statusCode")
        elif method == "Network.loadingFinished":
            totals.setdefault("finished", {})[params["requestId"]] = params.get("encodedDataLength", 0)
    for request, response in responses.items():
        t = totals["engine" if "/amazons-engine-" in response["url"] else "page"]
        received = totals.get("finished", {}).get(request, 0)
        status = wire_status.get(request, response["status"])
        cached = response.get("fromDiskCache") or response.get("fromPrefetchCache")
        if not cached:
            t[0] += 1
            t[1] += status == 304
            headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
            t[3].add("304" if status == 304 else headers.get("content-encoding", "identity"))
        t[2] += received
        if verbose:
            print("  %s %s %s %d" % (response["url"], status, "disk cache" if cached else "network", received),
                  file=sys.stderr)
    return totals

# The engine's files fetched from the page in the order its worker loads them (the worker, then
# Emscripten's loader, then the WebAssembly and the loader of the search threads together).
# Fetched by the page rather than by a real Worker because DevTools' throttling and the
# performance log reach the page's requests only, not a dedicated worker's; the HTTP cache is
# the one the worker would use (the same origin and top-level site).
ENGINE_FILES = """
const done = arguments[arguments.length - 1];
const started = performance.now();
const core = self.crossOriginIsolated ? 'amazons-engine-core' : 'amazons-engine-core-st';
const get = (name) => fetch(name).then((r) => r.arrayBuffer());
get('amazons-engine-worker.js')
  .then(() => get(core + '.js'))
  .then(() => Promise.all([get(core + '.wasm')].concat(self.crossOriginIsolated ? [get(core + '.worker.js')] : [])))
  .then(() => done(performance.now() - started), (e) => done(-1));
"""


def visit(url, profile, network, verbose):
    """One visit in a browser on `profile`: the page's figures, then the engine's files'."""
    driver = start_browser(profile)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        if network:
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", network)
        driver.get_log("performance")  # what the browser did before the visit
        driver.get(url)
        lib.wait_for(driver, "the page to render", lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.getElementById('app').children.length > 0"))
        time.sleep(1)  # the paint entries and the last events reach the log
        paints = {p["name"]: p["startTime"] for p in driver.execute_script(
            "return performance.getEntriesByType('paint').map(p => ({name: p.name, startTime: p.startTime}))")}
        load = driver.execute_script("const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd")
        engine_ms = driver.execute_async_script(ENGINE_FILES)
        time.sleep(2 if network else 0.5)  # the page's last requests (/nodes) and their events
        totals = network_totals(driver, verbose)
        page, engine = totals["page"], totals["engine"]
        return {"requests": page[0], "304": page[1], "bytes": page[2],
                "first paint": paints.get("first-paint", -1),
                "first contentful paint": paints.get("first-contentful-paint", -1), "load": load,
                "engine requests": engine[0], "engine 304": engine[1], "engine bytes": engine[2],
                "engine ms": engine_ms, "codings": sorted(page[3] | engine[3])}
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="visits of each kind (medians printed)")
    parser.add_argument("--web-root", help="the files to serve (default: the build's web/dist)")
    parser.add_argument("--json", help="also write every run's figures to this file")
    parser.add_argument("--verbose", action="store_true", help="print every response")
    args = parser.parse_args()
    with lib.temp_dir() as tmp:
        server = lib.Server(tmp, args=["--web-root", args.web_root] if args.web_root else [])
        url = "http://127.0.0.1:%d/" % server.port
        results = {}
        for name, network in NETWORKS:
            for run in range(args.runs):
                profile = os.path.join(tmp, "profile-%s-%d" % (name.replace(" ", ""), run))
                for kind in ("first", "repeat"):
                    results.setdefault((name, kind), []).append(visit(url, profile, network, args.verbose))
                shutil.rmtree(profile, ignore_errors=True)
        server.stop()
    columns = ["requests", "304", "bytes", "first paint", "first contentful paint", "load",
               "engine requests", "engine 304", "engine bytes", "engine ms"]
    print("%-9s %-7s" % ("network", "visit") + "".join(" %12s" % c.replace("first contentful paint", "FCP")
                                                       .replace("first paint", "first paint")
                                                       .replace("engine ", "eng. ") for c in columns))
    for (name, kind), runs in results.items():
        row = "%-9s %-7s" % (name, kind)
        for c in columns:
            row += " %12.0f" % statistics.median(r[c] for r in runs)
        print(row + "  " + ",".join(sorted(set(sum((r["codings"] for r in runs), [])))))
    print("(bytes: as received, headers included; times in ms; medians of %d runs)" % args.runs)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%s/%s" % k: v for k, v in results.items()}, f, indent=1)


if __name__ == "__main__":
    main()
