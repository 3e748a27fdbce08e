// The engine in the page: the WebAssembly build of amazons-engine (ai/wasm/) in its Web Worker,
// spoken to in the engine protocol (docs/ENGINE_PROTOCOL.md). One question at a time: bestMove()
// sets up the game and the level and resolves with the engine's move; analyse() searches a
// position until stopped, reporting each depth; a later question waits for the earlier one.
// Nothing here checks a move: the caller plays it on its own board.
//
// Two builds: with search threads where the page is cross-origin isolated (https://, localhost),
// and without anywhere else (a LAN server on plain http://). The one without reads no `stop`
// while it searches: its analysis is a search one depth deeper at a time, and stopping it ends
// the worker and starts another.

import { t } from "./i18n";

export type EngineState = "loading" | "ready" | "failed";

// Why the engine cannot run in this page, or null when it can.
export function engineUnavailable(): string | null {
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") return t("engine.unavailable");
  return null;
}

// Whether the page may share memory with workers, which the engine's search threads need: a
// cross-origin isolated page (the server sends the headers for it; a plain http:// address other
// than localhost is not a secure context and never isolated).
export function engineThreads(): boolean {
  return self.crossOriginIsolated === true;
}

const SINGLE_MAX_DEPTH = 40; // where the analysis without threads stops deepening

export interface EngineQuestion {
  rules: string; // a built-in variant's name
  moves: readonly string[]; // from the variant's start
  level: string; // beginner, easy, medium, hard or max
  // The clocks, when the game has them: the engine takes its time from its own (and the level's
  // limits still apply).
  clock?: { white: number; black: number; increment: number }; // ms
}

// What one completed depth of a search says (an `info` line).
export interface EngineInfo {
  depth: number;
  multipv: number; // 1 for the best line, 2 for the second best...
  // Hundredths of a square of territory for the side to move, or a win / loss proven `plies`
  // ahead (for the side to move).
  score: { kind: "value"; value: number } | { kind: "win" | "loss"; plies: number };
  pv: string[];
}

export function parseInfo(line: string): EngineInfo | null {
  const m = /^info depth (\d+)(?: multipv (\d+))? score (?:(-?\d+)|(win|loss) (\d+)) .*?\bpv ?(.*)$/.exec(line);
  if (!m) return null;
  const score = m[3] !== undefined ? { kind: "value" as const, value: Number(m[3]) } : { kind: m[4] as "win" | "loss", plies: Number(m[5]) };
  return { depth: Number(m[1]), multipv: m[2] !== undefined ? Number(m[2]) : 1, score, pv: m[6].split(" ").filter(Boolean) };
}

// A question's lines are answered by as many lines in order (ok or error for each setting, then
// bestmove or error for go), with info lines between: the answer is complete at the last.
interface Waiter {
  resolve: (move: string | null) => void;
  reject: (reason: Error) => void;
  expected: number;
  answers: number;
  error?: string;
  onInfo?: (info: EngineInfo) => void;
}

// A running analysis: stop() ends it; `done` settles when the engine has answered.
export interface Analysis {
  stop(): void;
  done: Promise<unknown>;
}

export class BrowserEngine {
  state: EngineState = "loading";
  failure = "";
  // Whether a search can be told to end early (Move now): not in the build without threads.
  readonly canStop = engineThreads();
  private worker!: Worker;
  private waiter: Waiter | null = null;
  private ready!: () => void;
  // Each question starts when the engine is ready and the one before has its answer.
  private queue: Promise<unknown> = Promise.resolve();

  // `onState` hears when the engine is ready or has failed.
  constructor(private readonly onState: () => void = () => undefined) {
    this.startWorker();
  }

  private startWorker(): void {
    const loaded = new Promise<void>((resolve) => (this.ready = resolve));
    this.queue = this.queue.then(() => loaded);
    this.state = "loading";
    this.worker = new Worker(this.canStop ? "amazons-engine-worker.js" : "amazons-engine-worker.js?single");
    const worker = this.worker;
    worker.onmessage = (e: MessageEvent<{ line?: string; error?: string; done?: number }>) => {
      if (worker === this.worker) this.receive(e.data);
    };
    worker.onerror = (e) => {
      if (worker === this.worker) this.fail(`the engine's worker failed: ${e.message}`);
    };
    // Search threads beyond the cores a page should take would only slow the page.
    const threads = Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
    if (this.canStop) worker.postMessage(`threads ${threads}`);
    worker.postMessage("isready");
  }

  // Without threads, the only way to end a search early: a new worker. The question it was
  // answering gets no move (null).
  private restart(): void {
    this.worker.terminate();
    const w = this.waiter;
    this.waiter = null;
    w?.resolve(null);
    this.startWorker();
  }

  // The engine's move for the side to move after `moves`, or null when that side has none.
  bestMove(q: EngineQuestion): Promise<string | null> {
    const moves = q.moves.length > 0 ? `position start moves ${q.moves.join(" ")}` : "position start";
    const go = q.clock ? `go wtime ${Math.max(1, Math.round(q.clock.white))} btime ${Math.max(1, Math.round(q.clock.black))} winc ${q.clock.increment} binc ${q.clock.increment}` : "go";
    return this.enqueue(() => this.ask([`rules ${q.rules}`, moves, `level ${q.level}`, "multipv 1", go]));
  }

  // One search of `position` (docs/POSITION_FORMAT.md) at `level` with the `go` arguments
  // `limits` (e.g. "movetime 500 depth 7"): the best move (null: none) and the last completed
  // depth's report (null when none completed).
  async search(position: string, level: string, limits: string): Promise<{ best: string | null; last: EngineInfo | null }> {
    let last: EngineInfo | null = null;
    const best = await this.enqueue(() =>
      this.ask([`position text ${position}`, `level ${level}`, "multipv 1", `go ${limits}`], (info) => (last = info)),
    );
    return { best, last };
  }

  // Searches `position` (docs/POSITION_FORMAT.md) with no limit until stopped, calling `onInfo`
  // after each completed depth with each of its `lines` best lines (multi-PV, best first).
  analyse(position: string, onInfo: (info: EngineInfo) => void, lines = 1): Analysis {
    if (!this.canStop) return this.analyseByDepth(position, onInfo, lines);
    let stopped = false;
    let started = false;
    const done = this.enqueue(() => {
      if (stopped) return Promise.resolve(null);
      started = true;
      return this.ask([`position text ${position}`, `multipv ${lines}`, "go infinite"], onInfo);
    });
    return {
      stop: () => {
        if (stopped) return;
        stopped = true;
        if (started) this.worker.postMessage("stop");
      },
      done,
    };
  }

  // Without threads: `go depth 1`, `go depth 2`... on the same table, each depth's lines passed
  // on, until stopped, a result is proven or SINGLE_MAX_DEPTH.
  private analyseByDepth(position: string, onInfo: (info: EngineInfo) => void, lines: number): Analysis {
    let stopped = false;
    let searching = false;
    const done = (async () => {
      for (let depth = 1; depth <= SINGLE_MAX_DEPTH && !stopped; ++depth) {
        let proven = false;
        const best = await this.enqueue(() => {
          if (stopped) return Promise.resolve(null);
          searching = true;
          return this.ask([`position text ${position}`, `multipv ${lines}`, `go depth ${depth}`], (info) => {
            if (info.depth !== depth || stopped) return;
            if (info.multipv === 1) proven = info.score.kind !== "value";
            onInfo(info);
          });
        });
        searching = false;
        if (best === null || proven) break;
      }
      return null;
    })();
    return {
      stop: () => {
        if (stopped) return;
        stopped = true;
        if (searching) this.restart();
      },
      done,
    };
  }

  private enqueue(question: () => Promise<string | null>): Promise<string | null> {
    const asked = this.queue.then(question);
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  // Ends a search at once (it still answers, with the best move so far). Without threads it
  // cannot: the search ends within its own limits.
  stop(): void {
    if (this.waiter && this.canStop) this.worker.postMessage("stop");
  }

  // Sends `lines` (settings, then one go) and resolves with the go's best move.
  private ask(lines: string[], onInfo?: (info: EngineInfo) => void): Promise<string | null> {
    if (this.state === "failed") return Promise.reject(new Error(this.failure));
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject, expected: lines.length, answers: 0, onInfo };
      for (const line of lines) this.worker.postMessage(line);
    });
  }

  private receive(data: { line?: string; error?: string; done?: number }): void {
    if (data.error !== undefined) console.warn(`amazons-engine: ${data.error}`);
    if (data.done !== undefined) return this.fail(data.error ?? `the engine stopped (${data.done})`);
    const line = data.line;
    if (line === undefined) return;
    if (line === "readyok" && this.state === "loading") {
      this.state = "ready";
      this.ready();
      this.onState();
      return;
    }
    const w = this.waiter;
    if (!w) return;
    if (line.startsWith("info ") && w.onInfo) {
      const info = parseInfo(line);
      if (info) w.onInfo(info);
      return;
    }
    if (!/^(ok|error |bestmove )/.test(line)) return;
    if (line.startsWith("error ")) {
      w.error ??= line.slice("error ".length);
      // A refused setting must not leave a search running on the position before it (the go
      // after it was sent already); stop is silent when nothing runs.
      if (this.canStop) this.worker.postMessage("stop");
    }
    if (++w.answers < w.expected) return;
    this.waiter = null;
    if (w.error !== undefined) return w.reject(new Error(w.error));
    const move = line.slice("bestmove ".length).trim();
    w.resolve(move === "none" ? null : move);
  }

  private fail(reason: string): void {
    if (this.state === "failed") return;
    this.state = "failed";
    this.failure = reason;
    this.waiter?.reject(new Error(reason));
    this.waiter = null;
    this.onState();
  }
}
