#!/usr/bin/env python3
"""The browser's engine against the native one: the same fixed-depth searches (one thread, so
both visit the same nodes, which this checks) and perft counts (all cores, as `perft` runs; the
same counts, checked) timed in both, the native engine as the baseline.

  python3 bench/wasm_speed.py [BUILD_DIR] [RUNS]     (default build/release, 3 runs)

The WebAssembly engine runs under Node (web/dist/amazons-engine.js), whose V8 is the one in
Chromium. Prints each search's median time and nodes a second in both, and the ratio.
"""
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'wasm'))
from compare_engines import Engine, fail  # noqa: E402

SEARCHES = [('standard', 'start', 8), ('standard', 'start moves d1-d7/g7 g10-g8/e6', 7),
            ('botzone8', 'start', 10), ('botzone8', 'start moves c8-c3/b4 a3-b3/b2', 9)]


def timed_search(command, variant, position, depth):
    engine = Engine(command[-1], command)
    engine.answer('threads 1')
    engine.answer('rules ' + variant)
    engine.answer('position ' + position)
    info = [line for line in engine.answer(f'go depth {depth}') if line.startswith('info')][-1]
    engine.quit()
    found = re.search(r'nodes (\d+) nps \d+ time (\d+)', info)
    return int(found.group(1)), int(found.group(2))


PERFTS = [('standard', 3), ('botzone8', 3)]


def timed_perft(command, variant, depth):
    """(count, ms): the wall time of the perft command alone, the engine already loaded."""
    engine = Engine(command[-1], command)
    engine.answer('rules ' + variant)
    engine.answer('isready')
    started = time.perf_counter()
    answer = engine.answer(f'perft {depth}')[0]
    ms = (time.perf_counter() - started) * 1000
    engine.quit()
    return int(answer.split()[-1]), ms


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build/release'
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    native = [os.path.join(build, 'ai', 'amazons-engine')]
    wasm = ['node', os.path.join(build, 'web', 'dist', 'amazons-engine.js')]
    print(f'{"search":48} {"native ms":>9} {"wasm ms":>9} {"native nps":>11} {"wasm nps":>11} wasm time / native')
    for variant, position, depth in SEARCHES:
        times = {}
        nodes = set()
        for name, command in (('native', native), ('wasm', wasm)):
            samples = []
            for _ in range(runs):
                n, ms = timed_search(command, variant, position, depth)
                nodes.add(n)
                samples.append(max(ms, 1))
            times[name] = statistics.median(samples)
        if len(nodes) != 1:
            fail(f'{variant} {position} depth {depth}: the builds visited different nodes {nodes}')
        n = nodes.pop()
        label = f'{variant} {position} depth {depth}'
        print(f'{label:48} {times["native"]:9.0f} {times["wasm"]:9.0f} '
              f'{n * 1000 / times["native"]:11,.0f} {n * 1000 / times["wasm"]:11,.0f} '
              f'{times["wasm"] / times["native"]:.2f}x')
    print(f'\n{"perft":48} {"native ms":>9} {"wasm ms":>9} {"count":>23} wasm time / native')
    for variant, depth in PERFTS:
        times = {}
        counts = set()
        for name, command in (('native', native), ('wasm', wasm)):
            samples = []
            for _ in range(runs):
                count, ms = timed_perft(command, variant, depth)
                counts.add(count)
                samples.append(ms)
            times[name] = statistics.median(samples)
        if len(counts) != 1:
            fail(f'perft {depth} of {variant}: the builds counted {counts}')
        print(f'{variant + " start, perft " + str(depth):48} {times["native"]:9.0f} {times["wasm"]:9.0f} '
              f'{counts.pop():23,} {times["wasm"] / times["native"]:.2f}x')


if __name__ == '__main__':
    main()
