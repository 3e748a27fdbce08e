"""Shared pieces of the browser tests: a real amazons-server on a loopback port, real bots, and
headless Chromium driven by Selenium. Run with Debian's /usr/bin/python3 (python3-selenium)."""
import atexit
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait

BUILD = os.environ.get("AMAZONS_BINARY_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build", "release"))
SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WAIT_S = 20  # the longest any single step may take before the test fails


_children = []  # every process started, killed at exit whatever happens


@atexit.register
def _kill_children():
    for p in _children:
        if p.poll() is None:
            p.kill()
            p.wait()


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


class Server:
    """amazons-server --port 0 on 127.0.0.1 with its own database; its port from the first line."""

    def __init__(self, tmp, port=0, db=None, config=None, args=(), name="server"):
        """db: a SQLite file (default: amazons.db in tmp) or a postgresql:// URL; args: more of
        the server's flags (e.g. --cluster); name: of its log file, NAME.log in tmp."""
        self.tmp = tmp
        self.db = db or os.path.join(tmp, "amazons.db")
        self.log_path = os.path.join(tmp, name + ".log")
        self.log = open(self.log_path, "ab")
        exe = os.path.join(BUILD, "server", "amazons-server")
        extra = list(args)
        if config is not None:  # a config file (docs: the server's --config), e.g. {"limits": {...}}
            path = os.path.join(tmp, name + ".json")
            with open(path, "w") as f:
                json.dump(config, f)
            extra += ["--config", path]
        self.proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--db", self.db, "--discovery-port", "-1", *extra],
            stdout=subprocess.PIPE, stderr=self.log)
        _children.append(self.proc)
        self.port = 0
        deadline = time.time() + WAIT_S
        while time.time() < deadline:
            line = self.proc.stdout.readline().decode(errors="replace")
            if not line:
                break
            m = re.search(r"listening on port (\d+)", line)
            if m:
                self.port = int(m.group(1))
                break
        if not self.port:
            self.stop()
            fail("the server did not start (see %s)" % self.log_path)

    @property
    def https_url(self):
        """The same port over TLS (the server's self-signed certificate)."""
        return "https://127.0.0.1:%d" % self.port

    @property
    def url(self):
        return os.environ.get("AMAZONS_WEB_URL", "http://127.0.0.1:%d" % self.port)

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Bot:
    """amazons-bot at the beginner level, or playing with `engine` (a UCI command line)."""
    def __init__(self, server, name, *extra, engine=None, servers=None):
        """servers: the bot's --server list ("host:port,host:port"), default the server's port."""
        exe = os.path.join(BUILD, "bot", "amazons-bot")
        self.log = open(os.path.join(server.tmp, "bot-%s.log" % name), "ab")
        player = ["--engine", engine, "--protocol", "uci"] if engine else ["--level", "beginner"]
        self.proc = subprocess.Popen(
            [exe, "--server", servers or "127.0.0.1:%d" % server.port, "--name", name, *player, *extra],
            stdout=self.log, stderr=self.log)
        _children.append(self.proc)

    def stop(self, now=False):
        """SIGTERM: the bot finishes its games and leaves; now: a second SIGTERM, which resigns
        them (a bot whose game the test no longer plays on would otherwise wait for it)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            if now:
                time.sleep(0.05)
                if self.proc.poll() is None:
                    self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def free_port():
    """A loopback port nobody listens on at the moment (a server given it may still race)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def postgres_and_redis(tmp):
    """A throwaway PostgreSQL (scripts/pg_test_server.sh: as an unprivileged user when run as
    root) and Redis (scripts/redis_test_server.sh) on loopback ports; yields (database URL, Redis
    URL) and stops both at the end, or when this process dies."""
    pg_dir = tempfile.mkdtemp(prefix="amazons-pg-", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    redis_dir = os.path.join(tmp, "redis")
    pg_script = os.path.join(SOURCE, "scripts", "pg_test_server.sh")
    redis_script = os.path.join(SOURCE, "scripts", "redis_test_server.sh")
    pg_port, redis_port = free_port(), free_port()
    for script, where, port in ((pg_script, pg_dir, pg_port), (redis_script, redis_dir, redis_port)):
        done = subprocess.run([script, "start", where, str(port), str(os.getpid())],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            subprocess.run([pg_script, "stop", pg_dir], capture_output=True)
            fail("%s did not start: %s" % (os.path.basename(script), done.stderr or done.stdout))
    try:
        yield ("postgresql://amazons@127.0.0.1:%d/test1" % pg_port, "redis://127.0.0.1:%d" % redis_port)
    finally:
        subprocess.run([redis_script, "stop", redis_dir], capture_output=True, timeout=30)
        subprocess.run([pg_script, "stop", pg_dir], capture_output=True, timeout=30)


class Raw:
    """A player over the plain JSON-lines protocol on the server's port (docs/PROTOCOL.md): sends
    requests, reads what comes (answering pings) and keeps every message it read."""

    def __init__(self, server, name):
        self.name = name
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT_S)
        self.buffer = b""
        self.seen = []
        self.next_id = 1
        welcome = self.request({"type": "hello", "protocol": 1, "name": name})
        if welcome.get("type") != "welcome":
            fail("%s could not sign in: %r" % (name, welcome))

    def send(self, message):
        rid = self.next_id
        self.next_id += 1
        self.sock.sendall((json.dumps(dict(message, id=rid)) + "\n").encode())
        return rid

    def read(self, deadline):
        """The next message, or None when none came by the deadline."""
        while b"\n" not in self.buffer:
            self.sock.settimeout(max(0.01, deadline - time.time()))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                fail("the server closed %s's connection" % self.name)
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        m = json.loads(line)
        if m.get("type") == "ping":
            self.sock.sendall(b'{"type":"pong"}\n')
        self.seen.append(m)
        return m

    def wait(self, what, predicate, timeout=WAIT_S):
        """The first message read from now on that predicate accepts."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.read(deadline)
            if m is not None and predicate(m):
                return m
        fail("%s timed out waiting for %s; last messages: %r" % (self.name, what, self.seen[-5:]))

    def request(self, message, timeout=WAIT_S):
        """Sends the request and returns the server's answer to it (the message with its id)."""
        rid = self.send(message)
        return self.wait("the answer to " + message["type"], lambda m: m.get("id") == rid, timeout)

    def close(self):
        with contextlib.suppress(OSError):
            self.sock.close()


AXE = os.path.join(os.path.dirname(__file__), "node_modules", "axe-core", "axe.min.js")
AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
  .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))), (e) => done([{id: 'axe failed', help: String(e), nodes: []}]));
"""


def axe_violations(driver):
    """What axe-core (pinned in tests/browser/package.json, installed by scripts/setup.sh) finds
    on the page against WCAG 2.1 A/AA and its best practices: a list of {id, impact, help, nodes}."""
    if not os.path.exists(AXE):
        fail("axe-core is not installed: run scripts/setup.sh (npm ci in tests/browser)")
    driver.set_script_timeout(60)
    driver.execute_script(open(AXE).read())
    return driver.execute_async_script(AXE_RUN)


def clear_notices(driver):
    """Dismisses the page's notices (before a screenshot: none left over the content)."""
    js(driver, "for (const b of document.querySelectorAll('#notices .close')) b.click();")


def browser(tmp, name, width=1280, height=900, self_signed=False, flags=(), lang="en-US"):
    """lang: the browser's language (navigator.languages), which the page speaks unless told
    otherwise in its settings: English by default, whatever the machine's locale."""
    options = webdriver.ChromeOptions()
    options.add_argument("--lang=" + lang)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height),
                 "--user-data-dir=" + os.path.join(tmp, "chrome-" + name)):
        options.add_argument(flag)
    for flag in flags:
        options.add_argument(flag)
    if self_signed:  # the test server's own certificate: no CA signed it
        options.add_argument("--ignore-certificate-errors")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(WAIT_S)
    return driver


def wait_for(driver, what, predicate, timeout=WAIT_S):
    try:
        # An element the page re-rendered between its find and its use is "not yet", as a
        # missing one is: the next poll finds the new one.
        return WebDriverWait(driver, timeout, poll_frequency=0.1,
                             ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                             ).until(lambda d: predicate(d))
    except Exception:
        logs = ""
        with contextlib.suppress(Exception):
            logs = "\n".join(str(e) for e in driver.get_log("browser"))
        shot = os.path.join(tempfile.gettempdir(), "amazons-browser-failure.png")
        with contextlib.suppress(Exception):
            driver.save_screenshot(shot)
        fail("timed out waiting for %s (screenshot %s)\nbrowser log:\n%s" % (what, shot, logs))


def click(driver, what, by, value, timeout=WAIT_S):
    """Clicks the element, finding it again when the page re-rendered it between the find and the
    click (a click that meets a stale element did not happen, so trying again is safe)."""
    def attempt(d):
        try:
            d.find_element(by, value).click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    wait_for(driver, what, attempt, timeout)


def select(driver, what, element_id, value, timeout=WAIT_S):
    """Chooses `value` in the <select> with this id once the page shows it (a screen that a click
    just asked for may not be drawn yet), finding it again if the page re-rendered it."""
    def attempt(d):
        try:
            Select(d.find_element(By.ID, element_id)).select_by_value(value)
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    wait_for(driver, what, attempt, timeout)


def click_delays(driver, click, times):
    """Clicks `times` times (click() does one, 0.1 s apart) and returns how long each click
    waited for the page's handler, measured in the page from the event's time stamp."""
    driver.execute_script("window.clickDelays = []; document.addEventListener('click', (e) => "
                          "window.clickDelays.push(performance.now() - e.timeStamp), true);")
    for _ in range(times):
        click()
        time.sleep(0.1)
    return driver.execute_script("return window.clickDelays")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def text(driver, css):
    """The element's text, "" when there is none; found again when the page re-rendered it
    between the find and the read (browser/reconnect failed so under ASan: the connection line is
    drawn anew as the page comes back online)."""
    for _ in range(20):
        els = driver.find_elements(By.CSS_SELECTOR, css)
        if not els:
            return ""
        try:
            return els[0].text
        except StaleElementReferenceException:
            continue
    return ""


def page_text(driver):
    """Every text a person reads or hears on the page: what is shown, the tab's title, and the
    labels, titles and placeholders of what is not hidden."""
    return js(driver, """
const parts = [document.body.innerText, document.title];
for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
  if (el.closest('[hidden]')) continue;
  for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) parts.push(el.getAttribute(a));
}
return parts.join('\\n');""")


def sign_in(driver, url, name, password=None):
    driver.get(url)
    wait_for(driver, "the sign-in form", lambda d: d.find_elements(By.ID, "name"))
    field = driver.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    if password:
        driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.ID, "signin-button").click()
    wait_for(driver, "the welcome of " + name, lambda d: text(d, "#me").startswith(name))


def game_state(driver):
    """What the page shows of the current game, read from the page's own model."""
    return js(driver, """
      const a = window.amazons; if (!a || !a.current) return null;
      const g = a.games.get(a.current); if (!g) return null;
      return {id: g.id, status: g.status, color: g.color || null, moves: g.moves.slice(),
              toMove: g.board.toMove, moveSent: g.moveSent, result: g.result || null,
              size: g.board.size, myTurn: g.myTurn()};""")


def legal_move(driver):
    """A legal move for the side to move, from the page's rules code: [queen, to, arrow] names."""
    return js(driver, """
      const a = window.amazons; const g = a.games.get(a.current); const b = g.board;
      const name = (s) => 'abcdefghijkl'[s % b.size] + (Math.floor(s / b.size) + 1);
      const qs = b.queens(b.toMove);
      for (let k = 0; k < 50; ++k) {
        const q = qs[Math.floor(Math.random() * qs.length)];
        const ds = b.destinations(q); if (!ds.length) continue;
        const to = ds[Math.floor(Math.random() * ds.length)];
        const as = b.arrowTargets(q, to);
        return [name(q), name(to), name(as[Math.floor(Math.random() * as.length)])];
      }
      for (const q of qs) for (const to of b.destinations(q)) return [name(q), name(to), name(b.arrowTargets(q, to)[0])];
      return null;""")


def square(driver, name):
    return driver.find_element(By.CSS_SELECTOR, '.board [data-sq="%s"]' % name)


def click_move(driver, move):
    """Enters a move the way a person does, in three clicks, checking the staged highlights."""
    q, to, arrow = move
    square(driver, q).click()
    wait_for(driver, "destinations of " + q, lambda d: "target" in square(d, to).get_attribute("class").split())
    square(driver, to).click()
    wait_for(driver, "arrow targets from " + to,
             lambda d: "target-arrow" in square(d, arrow).get_attribute("class").split())
    # The square just left is always an arrow target.
    if "target-arrow" not in square(driver, q).get_attribute("class").split():
        fail("the square the queen left (%s) is not offered for the arrow" % q)
    square(driver, arrow).click()


def play_bot_as_white(driver, what="the bot online"):
    """Challenges the bot from the lobby as White, then plays two moves and waits for the bot's
    answer: a game under way, our turn. Returns the moves so far."""
    wait_for(driver, what, lambda d: d.find_elements(By.ID, "challenge-bot"))
    Select(driver.find_element(By.ID, "color")).select_by_value("white")
    driver.find_element(By.ID, "challenge-bot").click()
    wait_for(driver, "the accepted challenge", lambda d: (game_state(d) or {}).get("status") == "active")
    # The notice "Challenge sent to ..." is answered by the game: it is gone.
    if driver.find_elements(By.CSS_SELECTOR, '.notice[data-key^="challenge-"]'):
        fail("the challenge's notice stays after the game started: %r" % text(driver, ".notice"))
    play_my_move(driver)
    play_my_move(driver)
    wait_for(driver, "the bot's answer", lambda d: game_state(d)["myTurn"], timeout=60)
    return game_state(driver)["moves"]


def play_my_move(driver):
    """Waits for our turn, plays a legal move by clicks, and waits until the server has taken it."""
    wait_for(driver, "our turn", lambda d: game_state(d)["myTurn"] and not game_state(d)["moveSent"], timeout=60)
    n = len(game_state(driver)["moves"])
    click_move(driver, legal_move(driver))
    wait_for(driver, "our move to be taken", lambda d: len(game_state(d)["moves"]) > n)


@contextlib.contextmanager
def temp_dir():
    """A fresh directory for the test's logs and databases, removed at the end unless
    AMAZONS_KEEP_TEST_DIR is set (then its path is printed, to read the servers' logs)."""
    d = tempfile.mkdtemp(prefix="amazons-browser-")
    try:
        yield d
    finally:
        if os.environ.get("AMAZONS_KEEP_TEST_DIR"):
            print("test directory kept: " + d, file=sys.stderr)
        else:
            shutil.rmtree(d, ignore_errors=True)
