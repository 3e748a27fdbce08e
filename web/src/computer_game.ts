// A game against the engine in the page: the position, the moves and the result, with no server.
// The page's rules code keeps it; the engine's moves are checked like anyone's.
import { BUILTIN_VARIANTS, type Color, type Variant } from "@protocol";
import type { LocalRecord } from "./record";
import type { PlyReview } from "./review";
import { Board, Move, formatMove, other, parseMove, replay } from "./rules";

export const LEVELS: { name: string; label: string }[] = [
  { name: "beginner", label: "Beginner: for your first games" },
  { name: "easy", label: "Easy: looks one move ahead" },
  { name: "medium", label: "Medium: a fair fight for a club player" },
  { name: "hard", label: "Hard: one second of full search" },
  { name: "max", label: "Max: five seconds a move" },
];

export interface ComputerSettings {
  rules: string;
  level: string;
  color: Color | "random";
}

export const DEFAULT_SETTINGS: ComputerSettings = { rules: "standard", level: "beginner", color: "white" };

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
  started = new Date();

  constructor(settings: ComputerSettings, coin: () => boolean = () => Math.random() < 0.5) {
    this.variant = builtinVariant(settings.rules);
    this.level = settings.level;
    this.you = settings.color === "random" ? (coin() ? "white" : "black") : settings.color;
    this.board = Board.fromVariant(this.variant);
    this.checkEnd();
  }

  // The saved game again, or null when it does not replay (an old or edited save).
  static restore(text: string | null): ComputerGame | null {
    try {
      const s = JSON.parse(text ?? "null") as SavedComputerGame | null;
      if (!s || !Array.isArray(s.moves) || (s.you !== "white" && s.you !== "black")) return null;
      if (!BUILTIN_VARIANTS.some((v) => v.name === s.rules) || !LEVELS.some((l) => l.name === s.level)) return null;
      const g = new ComputerGame({ rules: s.rules, level: s.level, color: s.you });
      if (!g.replayTo(s.moves.map(String))) return null;
      if (s.resigned === true) g.resign();
      const started = new Date(String(s.started));
      if (!Number.isNaN(started.getTime())) g.started = started;
      return g;
    } catch {
      return null;
    }
  }

  saved(): SavedComputerGame {
    return { rules: this.variant.name, level: this.level, you: this.you, moves: [...this.moves], resigned: this.resigned, started: this.started.toISOString() };
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
      result: this.winner ? { winner: this.winner, reason: this.resigned ? "resign" : "no_moves" } : null,
      started: this.started,
      ended,
    };
  }

  // Whether a takeback is possible: a move of yours to take back, the game not resigned.
  get canTakeBack(): boolean {
    return !this.resigned && this.played.some((_, i) => this.moverOf(i) === this.you);
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
    if (this.over || !this.board.play(m)) return false;
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
