// A game against the engine in the page: the position, the moves and the result, with no server.
// The page's rules code keeps it; the engine's moves are checked like anyone's.
import { BUILTIN_VARIANTS, type Color, type Variant } from "@protocol";
import type { LocalRecord } from "./record";
import type { PlyReview } from "./review";
import { Board, Move, formatMove, other, parseMove, replay } from "./rules";

// Each level's words are computer.level.NAME in the catalogue.
export const LEVELS: { name: string }[] = [{ name: "beginner" }, { name: "easy" }, { name: "medium" }, { name: "hard" }, { name: "max" }];

// The clocks a game against the computer may have: minutes each and seconds added a move.
export const CLOCKS: { name: string; initialMs: number; incrementMs: number }[] = [
  { name: "none", initialMs: 0, incrementMs: 0 },
  { name: "3+2", initialMs: 180_000, incrementMs: 2_000 },
  { name: "5+5", initialMs: 300_000, incrementMs: 5_000 },
  { name: "10+10", initialMs: 600_000, incrementMs: 10_000 },
];

export interface ComputerSettings {
  rules: string;
  level: string;
  color: Color | "random";
  clock?: string; // a CLOCKS name; none when absent
}

export const DEFAULT_SETTINGS: ComputerSettings = { rules: "standard", level: "beginner", color: "white", clock: "none" };

export function builtinVariant(name: string): Variant {
  return BUILTIN_VARIANTS.find((v) => v.name === name) ?? BUILTIN_VARIANTS[0];
}

// Settings as kept in localStorage: anything unknown falls back to the default.
export function parseSettings(text: string | null): ComputerSettings {
  try {
    const s = JSON.parse(text ?? "null") as Partial<ComputerSettings> | null;
    return {
      rules: BUILTIN_VARIANTS.some((v) => v.name === s?.rules) ? s!.rules! : DEFAULT_SETTINGS.rules,
      level: LEVELS.some((l) => l.name === s?.level) ? s!.level! : DEFAULT_SETTINGS.level,
      color: s?.color === "white" || s?.color === "black" || s?.color === "random" ? s.color : DEFAULT_SETTINGS.color,
      clock: CLOCKS.some((c) => c.name === s?.clock) ? s!.clock! : DEFAULT_SETTINGS.clock,
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

// A game as the page keeps it in localStorage, to resume after a reload.
export interface SavedComputerGame {
  rules: string;
  level: string;
  you: Color;
  moves: string[];
  resigned: boolean;
  started?: string; // ISO time
  clock?: string; // a CLOCKS name
  left?: { white: number; black: number }; // ms on each clock when the side to move began
  turnSince?: number; // Date.now() when the side to move began
  flagged?: boolean; // lost on time
}

export class ComputerGame {
  readonly variant: Variant;
  readonly level: string;
  readonly you: Color;
  board: Board;
  moves: string[] = [];
  played: Move[] = [];
  winner: Color | null = null; // set when the side to move has no move
  resigned = false;
  flagged = false; // the loser's clock ran out
  started = new Date();
  readonly clock: (typeof CLOCKS)[number];
  // Time left on each clock when the side to move began its turn, and when that was (Date.now()).
  left = { white: 0, black: 0 };
  turnSince = 0;

  // `now` is the clock's time source (Date.now; the tests give their own).
  constructor(settings: ComputerSettings, coin: () => boolean = () => Math.random() < 0.5, private readonly now: () => number = Date.now) {
    this.clock = CLOCKS.find((c) => c.name === settings.clock) ?? CLOCKS[0];
    this.left = { white: this.clock.initialMs, black: this.clock.initialMs };
    this.turnSince = now();
    this.variant = builtinVariant(settings.rules);
    this.level = settings.level;
    this.you = settings.color === "random" ? (coin() ? "white" : "black") : settings.color;
    this.board = Board.fromVariant(this.variant);
    this.checkEnd();
  }

  // The saved game again, or null when it does not replay (an old or edited save).
  static restore(text: string | null, now: () => number = Date.now): ComputerGame | null {
    try {
      const s = JSON.parse(text ?? "null") as SavedComputerGame | null;
      if (!s || !Array.isArray(s.moves) || (s.you !== "white" && s.you !== "black")) return null;
      if (!BUILTIN_VARIANTS.some((v) => v.name === s.rules) || !LEVELS.some((l) => l.name === s.level)) return null;
      const g = new ComputerGame({ rules: s.rules, level: s.level, color: s.you, clock: s.clock }, undefined, now);
      if (!g.replayTo(s.moves.map(String))) return null;
      if (s.resigned === true) g.resign();
      if (g.timed && s.left && Number.isFinite(s.left.white) && Number.isFinite(s.left.black) && Number.isFinite(s.turnSince)) {
        g.left = { white: Number(s.left.white), black: Number(s.left.black) };
        g.turnSince = Number(s.turnSince);
      }
      if (s.flagged === true && !g.over) g.flag();
      const started = new Date(String(s.started));
      if (!Number.isNaN(started.getTime())) g.started = started;
      return g;
    } catch {
      return null;
    }
  }

  saved(): SavedComputerGame {
    return { rules: this.variant.name, level: this.level, you: this.you, moves: [...this.moves], resigned: this.resigned, started: this.started.toISOString(),
      clock: this.clock.name, left: { ...this.left }, turnSince: this.turnSince, flagged: this.flagged };
  }

  // The game as a record (record.ts), with a review's annotations when there is one.
  record(analysis?: readonly PlyReview[], ended?: Date): LocalRecord {
    const you = { name: "You" }, computer = { name: `Computer (${this.level})`, bot: true };
    return {
      rules: this.variant,
      white: this.you === "white" ? you : computer,
      black: this.you === "black" ? you : computer,
      moves: this.moves,
      analysis,
      time: this.timed ? { initial: this.clock.initialMs / 1000, increment: this.clock.incrementMs / 1000 } : undefined,
      result: this.winner ? { winner: this.winner, reason: this.resigned ? "resign" : this.flagged ? "time" : "no_moves" } : null,
      started: this.started,
      ended,
    };
  }

  get timed(): boolean {
    return this.clock.initialMs > 0;
  }

  // Time left on `c`'s clock now (null without clocks); the running clock counts down.
  remaining(c: Color): number | null {
    if (!this.timed) return null;
    const running = !this.over && this.board.toMove === c;
    return Math.max(0, this.left[c] - (running ? this.now() - this.turnSince : 0));
  }

  // Checks the running clock: true when it has run out, which ends the game (a loss on time).
  checkFlag(): boolean {
    if (!this.timed || this.over || (this.remaining(this.board.toMove) ?? 1) > 0) return false;
    this.flag();
    return true;
  }

  private flag(): void {
    this.left[this.board.toMove] = 0;
    this.flagged = true;
    this.winner = other(this.board.toMove);
  }

  // Whether a takeback is possible: a move of yours to take back, the game not over. Not with
  // clocks: the time spent cannot be given back fairly.
  get canTakeBack(): boolean {
    return !this.timed && !this.resigned && this.played.some((_, i) => this.moverOf(i) === this.you);
  }

  // Takes back your last move and the engine's answer to it, if any: your turn again.
  takeBack(): boolean {
    if (!this.canTakeBack) return false;
    let keep = this.moves.length - 1;
    while (this.moverOf(keep) !== this.you) --keep;
    return this.replayTo(this.moves.slice(0, keep));
  }

  get over(): boolean {
    return this.winner !== null;
  }

  get yourTurn(): boolean {
    return !this.over && this.board.toMove === this.you;
  }

  get lastMove(): Move | null {
    return this.played.length > 0 ? this.played[this.played.length - 1] : null;
  }

  // Plays a move of the side to move; false (nothing changed) when it is not legal.
  play(m: Move): boolean {
    if (this.checkFlag()) return false;
    const mover = this.board.toMove;
    if (this.over || !this.board.play(m)) return false;
    if (this.timed) {
      this.left[mover] = Math.max(0, this.left[mover] - (this.now() - this.turnSince)) + this.clock.incrementMs;
      this.turnSince = this.now();
    }
    this.played.push(m);
    this.moves.push(formatMove(m, this.board.size));
    this.checkEnd();
    return true;
  }

  // The engine's answer: its move in the notation, or null when it says it has none.
  playEngine(text: string | null): string | null {
    if (this.over || this.yourTurn) return "it is not the engine's turn";
    if (text === null) return this.board.hasMove(this.board.toMove) ? "the engine passed while it had moves" : null;
    const m = parseMove(text, this.board.size);
    if (!m || !this.play(m)) return `the engine's move "${text}" is not legal here`;
    return null;
  }

  resign(): void {
    if (this.over) return;
    this.resigned = true;
    this.winner = other(this.you);
  }

  // Who made ply `i` (from 0).
  private moverOf(i: number): Color {
    const first = this.variant.first;
    return i % 2 === 0 ? first : other(first);
  }

  private replayTo(moves: string[]): boolean {
    const r = replay(this.variant, moves);
    if (r.error) return false;
    this.board = r.board;
    this.played = r.played;
    this.moves = moves;
    this.winner = null;
    this.resigned = false;
    this.checkEnd();
    return true;
  }

  private checkEnd(): void {
    if (!this.board.hasMove(this.board.toMove)) this.winner = other(this.board.toMove);
  }
}
