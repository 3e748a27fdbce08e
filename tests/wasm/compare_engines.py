#!/usr/bin/env python3
"""The WebAssembly engine against the native one (label "wasm").

  compare_engines.py NATIVE_ENGINE WASM_ENGINE_JS PROTOCOL_MD [FUZZ_CORPUS_DIR]

Runs `amazons-engine` and `node amazons-engine.js` (and `--single`, the build without threads)
side by side on the same lines and checks that they answer the same: perft counts on both boards, fixed-depth searches with one thread (every
`info` line's depth, score, nodes and principal variation, and the best move; only nps and time
may differ), the static evaluation, and every error. Then replays the transcript of
docs/ENGINE_PROTOCOL.md against the WebAssembly engine alone, as tests/ai/test_protocol.cpp does
against the native one. With a corpus, feeds the WebAssembly engine every input of the native
protocol's fuzz corpus (fuzz/corpus/engine_protocol) under the harness's rules. Each answer is
awaited with a deadline, so a hung engine fails the test instead of stalling it.
"""
import os
import queue
import re
import subprocess
import sys
import threading

DEADLINE_S = 120  # for one answer; a search here takes well under a second natively


class Engine:
    def __init__(self, name, command):
        self.name = name
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.last_command = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip('\n'))
        self.lines.put(None)

    def send(self, line):
        self.last_command = line
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def read(self):
        try:
            line = self.lines.get(timeout=DEADLINE_S)
        except queue.Empty:
            fail(f'{self.name}: no answer to {self.last_command!r} within {DEADLINE_S} s')
        if line is None:
            fail(f'{self.name}: exited early ({self.process.wait()}): '
                 f'{self.process.stderr.read().strip()}')
        return line

    def answer(self, command):
        """The lines that answer `command`: up to `bestmove` (or an error) for go, else one."""
        self.send(command)
        if not command.startswith('go'):
            return [self.read()]
        lines = []
        while True:
            lines.append(self.read())
            if lines[-1].startswith(('bestmove', 'error')):
                return lines

    def quit(self):
        self.send('quit')
        try:
            code = self.process.wait(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail(f'{self.name}: still running {DEADLINE_S} s after quit')
        if code != 0:
            fail(f'{self.name}: exit status {code} after quit')


def fail(message):
    print(f'FAIL: {message}', file=sys.stderr)
    sys.exit(1)


def comparable(line):
    """An answer without what depends on the machine's speed or on where the rules are kept (the
    checkout's config/ natively, the module's embedded /config)."""
    return re.sub(r' in \S*config/rules$', ' in CONFIG/rules', re.sub(r' nps \d+ time \d+', '', line))


# Sessions sent to both engines, each to a fresh pair of engines. Every command here is answered
# with one line, or with info lines and a bestmove line.
SESSIONS = [
    ['threads 1', 'rules standard', 'perft 1', 'perft 2', 'perft 3',
     'position start moves d1-d7/g7 g10-g8/e6', 'perft 3', 'eval',
     'newgame', 'go depth 3', 'position start moves d1-d7/g7', 'newgame', 'go depth 6',
     'position text 10/10/10/10/10/10/10/10/xxx7/W1B7 w', 'perft 2', 'go depth 4'],
    ['threads 1', 'rules botzone8', 'perft 1', 'perft 2', 'perft 3',
     'position start moves c8-c3/b4 a3-b3/b2', 'perft 3', 'eval', 'newgame', 'go depth 8',
     'newgame', 'go nodes 20000',
     'position text 8/8/8/8/8/3W4/xx6/B7 w', 'go depth 2'],
    # Bad input, answered the same by both.
    ['perft 99', 'go movetime -5', 'go movetime +5', 'limits noise 1e999', 'limits noise 1x',
     'moves c3-c2', 'position text 2q/3/Q2 x', 'rules nonesuch', 'hash 0', 'frobnicate'],
]


def compare_sessions(native_command, wasm_command):
    for session in SESSIONS:
        native = Engine('native', native_command)
        wasm = Engine('wasm', wasm_command)
        for command in session:
            a = native.answer(command)
            b = wasm.answer(command)
            if [comparable(x) for x in a] != [comparable(x) for x in b]:
                fail(f'after {command!r}:\n  native: {a}\n  wasm:   {b}')
            if command.startswith('perft') and not a[0].startswith(('perft', 'error')):
                fail(f'{command!r}: unexpected answer {a}')
        native.quit()
        wasm.quit()
    print(f'native and WebAssembly engines agree on {sum(map(len, SESSIONS))} commands')


def check_threads(wasm_command):
    """Lazy SMP in the browser's engine: helper threads start on demand (beyond the two Web Workers
    the module starts with) and the search answers. Not compared: threads race."""
    wasm = Engine('wasm', wasm_command)
    for threads in (3, 1, 4):
        if wasm.answer(f'threads {threads}') != ['ok']:
            fail(f'threads {threads}: refused')
        answer = wasm.answer('go movetime 400')
        if not answer[-1].startswith('bestmove ') or answer[-1] == 'bestmove none' or \
                not any(line.startswith('info depth') for line in answer):
            fail(f'threads {threads}: go movetime 400 answered {answer}')
        if wasm.answer('perft 3') != ['perft 3 8350439170']:
            fail(f'threads {threads}: perft 3 of the standard start is not 8350439170')
    wasm.quit()
    print('the WebAssembly engine searches with 1, 3 and 4 threads')


def check_single(single_command):
    """The build without threads (for pages that may not share memory) says what it cannot do:
    more than one thread, and searches that would never end by themselves, since it reads no
    `stop` while it searches. What it can do it answers; compare_sessions compared it too."""
    wasm = Engine('wasm without threads', single_command)
    refusals = {
        'threads 2': 'error threads: this build of the engine has no threads; only 1 is possible',
        'go infinite': 'error go: infinite needs search threads, which this build of the engine has '
                       'not; give movetime, depth or nodes',
        'go ponder': 'error go: ponder needs search threads, which this build of the engine has '
                     'not; give movetime, depth or nodes',
    }
    for command, want in refusals.items():
        if wasm.answer(command) != [want]:
            fail(f'without threads, {command!r} answered {wasm.answer(command)}')
    answer = wasm.answer('go movetime 300')
    if not answer[-1].startswith('bestmove ') or answer[-1] == 'bestmove none':
        fail(f'without threads, go movetime 300 answered {answer}')
    if wasm.answer('perft 3') != ['perft 3 8350439170']:
        fail('without threads, perft 3 of the standard start is not 8350439170')
    wasm.quit()
    print('the WebAssembly engine without threads refuses what it cannot do and searches')


def transcript(markdown_path):
    lines = []
    inside = False
    with open(markdown_path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line == '```transcript':
                inside = True
            elif inside and line == '```':
                break
            elif inside:
                lines.append(line)
    if len(lines) < 20:
        fail(f'{markdown_path}: no transcript found')
    return lines


def matches(expected, got):
    e, g = expected.split(), got.split()
    return len(e) == len(g) and all(x == '*' or x == y for x, y in zip(e, g)) or expected == got


def replay_transcript(wasm_command, markdown_path):
    wasm = Engine('wasm', wasm_command)
    checked = 0
    for line in transcript(markdown_path):
        if line.startswith('> '):
            wasm.send(line[2:])
            if line[2:] == 'quit':
                break
        elif line.startswith('< '):
            want = line[2:]
            while True:
                got = wasm.read()
                if matches(want, got):
                    break
                if got.startswith('info') and not want.startswith('info'):
                    continue  # info lines the transcript does not show
                if got.startswith('info') and want.startswith('info'):
                    continue
                fail(f'transcript: expected {want!r}, got {got!r}')
            checked += 1
    code = wasm.process.wait(timeout=DEADLINE_S)
    if code != 0:
        fail(f'transcript: exit status {code} after quit')
    print(f'the WebAssembly engine replays the {checked} answers of the protocol transcript')


MAX_FUZZ_LINES = 64  # as fuzz/engine_protocol_fuzz.cpp


def too_costly(words):
    """What fuzz/engine_protocol_fuzz.cpp skips: the controller's own requests for much work."""
    if not words:
        return False
    if words[0] == 'perft':
        return len(words) != 2 or words[1] not in ('0', '1')
    if words[0] == 'hash':
        return len(words) != 2 or len(words[1]) > 1
    if words[0] == 'threads':
        return True
    if words[0] == 'rules':
        return len(words) > 1 and ('/' in words[1] or '.json' in words[1])
    return False


def replay_fuzz_corpus(wasm_command, corpus):
    """The native harness's properties, kept by the WebAssembly engine over the whole corpus in one
    session: no line kills it; every command that should answer does; every search started ends
    with exactly one bestmove (each is stopped at once). Bytes that are not UTF-8 arrive replaced,
    since the worker's lines are JavaScript strings."""
    wasm = Engine('wasm', wasm_command)
    wasm.answer('hash 1')
    inputs = sorted(os.listdir(corpus))
    lines_sent = searches = 0
    for n, name in enumerate(inputs):
        with open(os.path.join(corpus, name), 'rb') as f:
            data = f.read().decode('utf-8', errors='replace').replace('\0', ' ')
        handled = 0
        for line in data.split('\n'):
            if handled >= MAX_FUZZ_LINES:
                break
            words = line.replace('\t', ' ').replace('\r', ' ').split()
            if too_costly(words):
                continue
            handled += 1
            if words and words[0] == 'quit':
                break
            # A unique sentinel after the line: what comes before its error is the line's answer.
            sentinel = f'sentinel-{n}-{handled}'
            wasm.send(line)
            wasm.send(sentinel)
            answer = []
            while True:
                got = wasm.read()
                if sentinel in got:
                    break
                answer.append(got)
            lines_sent += 1
            go = bool(words) and words[0] == 'go'
            if go and not any(a.startswith('error') for a in answer):
                searches += 1
                if not any(a.startswith('bestmove') for a in answer):
                    wasm.send('stop')
                    while not wasm.read().startswith('bestmove'):
                        pass
            silent = not words or words[0].startswith('#') or words[0] == 'stop'
            if not silent and not go and not answer:
                fail(f'fuzz corpus {name}: no answer to {line!r}')
    wasm.quit()
    print(f'the WebAssembly engine took the {len(inputs)} inputs of the fuzz corpus: {lines_sent} lines, '
          f'{searches} searches')


def main():
    if len(sys.argv) not in (4, 5):
        fail('usage: compare_engines.py NATIVE_ENGINE WASM_ENGINE_JS PROTOCOL_MD [FUZZ_CORPUS_DIR]')
    native_command = [sys.argv[1]]
    wasm_command = ['node', sys.argv[2]]
    compare_sessions(native_command, wasm_command)
    check_threads(wasm_command)
    single_command = wasm_command + ['--single']
    compare_sessions(native_command, single_command)
    check_single(single_command)
    replay_transcript(wasm_command, sys.argv[3])
    if len(sys.argv) == 5:
        replay_fuzz_corpus(wasm_command, sys.argv[4])


if __name__ == '__main__':
    main()
