// The engine in the page: the WebAssembly build of amazons-engine (ai/wasm/) in its Web Worker,
// spoken to in the engine protocol (docs/ENGINE_PROTOCOL.md). One question at a time: bestMove()
// sets up the game and the level and resolves with the engine's move; a later question waits for
// the earlier one. Nothing here checks a move: the caller plays it on its own board.

export type EngineState = "loading" | "ready" | "failed";

// Why the engine cannot run in this page, or null when it can. Its threads share memory, which a
// browser allows only on a cross-origin isolated page (the server sends the headers for it; a
// plain http:// address other than localhost is not a secure context and never isolated).
export function engineUnavailable(): string | null {
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") return "This browser cannot run the engine (no Web Workers or WebAssembly).";
  if (!self.crossOriginIsolated) return "The engine needs a secure page: open this server over https:// or on localhost.";
  return null;
}

export interface EngineQuestion {
  rules: string; // a built-in variant's name
  moves: readonly string[]; // from the variant's start
  level: string; // beginner, easy, medium, hard or max
}

// A question's four lines are answered by four lines in order (ok or error three times, then
// bestmove or error), with info lines between: the answer is complete at the fourth.
const ANSWERS_PER_QUESTION = 4;

interface Waiter {
  resolve: (move: string | null) => void;
  reject: (reason: Error) => void;
  answers: number;
  error?: string;
}

export class BrowserEngine {
  state: EngineState = "loading";
  failure = "";
  private worker: Worker | null;
  private waiter: Waiter | null = null;
  private ready!: () => void;
  // Each question starts when the engine is ready and the one before has its answer.
  private queue: Promise<unknown> = new Promise<void>((resolve) => (this.ready = resolve));

  // `onState` hears when the engine is ready or has failed.
  constructor(private readonly onState: () => void = () => undefined) {
    this.worker = new Worker("amazons-engine-worker.js");
    this.worker.onmessage = (e: MessageEvent<{ line?: string; error?: string; done?: number }>) => this.receive(e.data);
    this.worker.onerror = (e) => this.fail(`the engine's worker failed: ${e.message}`);
    // Search threads beyond the cores a page should take would only slow the page.
    const threads = Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
    this.worker.postMessage(`threads ${threads}`);
    this.worker.postMessage("isready");
  }

  // The engine's move for the side to move after `moves`, or null when that side has none.
  bestMove(q: EngineQuestion): Promise<string | null> {
    const asked = this.queue.then(() => this.ask(q));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  // Ends a search at once (it still answers, with the best move so far).
  stop(): void {
    if (this.waiter) this.worker?.postMessage("stop");
  }

  dispose(): void {
    this.worker?.postMessage("quit");
    this.worker?.terminate();
    this.worker = null;
    this.fail("the engine was closed");
  }

  private ask(q: EngineQuestion): Promise<string | null> {
    if (this.state === "failed" || !this.worker) return Promise.reject(new Error(this.failure));
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject, answers: 0 };
      const w = this.worker!;
      w.postMessage(`rules ${q.rules}`);
      w.postMessage(q.moves.length > 0 ? `position start moves ${q.moves.join(" ")}` : "position start");
      w.postMessage(`level ${q.level}`);
      w.postMessage("go");
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
    if (!w || !/^(ok|error |bestmove )/.test(line)) return;
    if (line.startsWith("error ")) w.error ??= line.slice("error ".length);
    if (++w.answers < ANSWERS_PER_QUESTION) return;
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
