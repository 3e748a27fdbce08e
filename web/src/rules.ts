// The rules, as far as the browser needs them: the board, move text, and the legal moves that
// the highlights offer. The server checks every move again; this only keeps the person from
// entering one it would refuse. Squares are numbered rank * size + file, rank 0 being "1".
import type { Color, Variant } from "@protocol";

export type Square = number;
export enum Cell {
  Empty = 0,
  White = 1,
  Black = 2,
  Arrow = 3,
}

export interface Move {
  from: Square;
  to: Square;
  arrow: Square;
}

export const MAX_SIZE = 12;
const FILES = "abcdefghijkl";
const DIRECTIONS: ReadonlyArray<readonly [number, number]> = [
  [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1],
];

export function other(c: Color): Color {
  return c === "white" ? "black" : "white";
}

export function queenCell(c: Color): Cell {
  return c === "white" ? Cell.White : Cell.Black;
}

export class Board {
  readonly size: number;
  readonly cells: Uint8Array;
  toMove: Color;

  constructor(size: number, toMove: Color = "white") {
    if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) throw new Error(`bad board size ${size}`);
    this.size = size;
    this.cells = new Uint8Array(size * size);
    this.toMove = toMove;
  }

  // Throws on a variant that does not describe a board (the caller shows the message).
  static fromVariant(v: Variant): Board {
    const b = new Board(v.size, v.first === "black" ? "black" : "white");
    for (const [list, cell] of [[v.white, Cell.White], [v.black, Cell.Black]] as const) {
      for (const text of list) {
        const s = parseSquare(text, b.size);
        if (s === null || b.cells[s] !== Cell.Empty) throw new Error(`bad queen square "${text}"`);
        b.cells[s] = cell;
      }
    }
    return b;
  }

  clone(): Board {
    const b = new Board(this.size, this.toMove);
    b.cells.set(this.cells);
    return b;
  }

  at(s: Square): Cell {
    return this.cells[s] as Cell;
  }
  file(s: Square): number {
    return s % this.size;
  }
  rank(s: Square): number {
    return Math.floor(s / this.size);
  }
  square(file: number, rank: number): Square {
    return rank * this.size + file;
  }

  queens(c: Color): Square[] {
    const want = queenCell(c);
    const out: Square[] = [];
    for (let s = 0; s < this.cells.length; ++s) if (this.cells[s] === want) out.push(s);
    return out;
  }

  // The squares a queen on `from` reaches in straight lines over empty squares; `vacated`, if
  // given, counts as empty (the square the moving queen just left, for the arrow).
  reach(from: Square, vacated: Square = -1): Square[] {
    const out: Square[] = [];
    const f0 = this.file(from), r0 = this.rank(from);
    for (const [df, dr] of DIRECTIONS) {
      for (let f = f0 + df, r = r0 + dr; f >= 0 && r >= 0 && f < this.size && r < this.size; f += df, r += dr) {
        const s = this.square(f, r);
        if (this.cells[s] !== Cell.Empty && s !== vacated) break;
        out.push(s);
      }
    }
    return out;
  }

  // Legal destinations of the queen on `q` (none if it is not a queen of the side to move).
  destinations(q: Square): Square[] {
    if (this.cells[q] !== queenCell(this.toMove)) return [];
    return this.reach(q);
  }

  // Where the arrow may land after the queen went from `from` to `to`: from the landing square,
  // through or onto the square just left.
  arrowTargets(from: Square, to: Square): Square[] {
    return this.reach(to, from);
  }

  hasMove(c: Color): boolean {
    // A queen that can move can always shoot back to where it came from.
    for (const q of this.queens(c)) if (this.reach(q).length > 0) return true;
    return false;
  }

  isLegal(m: Move): boolean {
    const n = this.cells.length;
    if (![m.from, m.to, m.arrow].every((s) => Number.isInteger(s) && s >= 0 && s < n)) return false;
    return this.destinations(m.from).includes(m.to) && this.arrowTargets(m.from, m.to).includes(m.arrow);
  }

  // Plays a legal move; returns false (and changes nothing) for an illegal one.
  play(m: Move): boolean {
    if (!this.isLegal(m)) return false;
    this.cells[m.to] = this.cells[m.from];
    this.cells[m.from] = Cell.Empty;
    this.cells[m.arrow] = Cell.Arrow;
    this.toMove = other(this.toMove);
    return true;
  }
}

export function squareName(s: Square, size: number): string {
  return FILES[s % size] + String(Math.floor(s / size) + 1);
}

export function parseSquare(text: string, size: number): Square | null {
  const m = /^([a-l])([1-9][0-9]?)$/.exec(text);
  if (!m) return null;
  const file = FILES.indexOf(m[1]);
  const rank = Number(m[2]) - 1;
  if (file >= size || rank >= size) return null;
  return rank * size + file;
}

// "d1-d7/g7": queen from d1 to d7, arrow to g7.
export function parseMove(text: string, size: number): Move | null {
  const m = /^([a-l][0-9]{1,2})-([a-l][0-9]{1,2})\/([a-l][0-9]{1,2})$/.exec(text);
  if (!m) return null;
  const from = parseSquare(m[1], size), to = parseSquare(m[2], size), arrow = parseSquare(m[3], size);
  if (from === null || to === null || arrow === null) return null;
  return { from, to, arrow };
}

export function formatMove(m: Move, size: number): string {
  return `${squareName(m.from, size)}-${squareName(m.to, size)}/${squareName(m.arrow, size)}`;
}

// The position after `moves` from the variant's start; stops at the first move that does not
// parse or is illegal and says which.
export function replay(v: Variant, moves: readonly string[]): { board: Board; played: Move[]; error?: string } {
  const board = Board.fromVariant(v);
  const played: Move[] = [];
  for (let i = 0; i < moves.length; ++i) {
    const m = parseMove(moves[i], board.size);
    if (!m || !board.play(m)) return { board, played, error: `move ${i + 1} "${moves[i]}" is not legal here` };
    played.push(m);
  }
  return { board, played };
}

// The position in the one-line text form (docs/POSITION_FORMAT.md), canonical as the C++
// amazons::to_text writes it: ranks from the top, runs of empty squares as numbers, then the
// side to move. The engine takes any position in this form.
export function positionText(board: Board): string {
  const ranks: string[] = [];
  for (let rank = board.size - 1; rank >= 0; --rank) {
    let text = "";
    let empty = 0;
    for (let file = 0; file < board.size; ++file) {
      const cell = board.at(board.square(file, rank));
      if (cell === Cell.Empty) {
        ++empty;
        continue;
      }
      if (empty > 0) text += String(empty);
      empty = 0;
      text += cell === Cell.White ? "W" : cell === Cell.Black ? "B" : "x";
    }
    if (empty > 0) text += String(empty);
    ranks.push(text);
  }
  return `${ranks.join("/")} ${board.toMove === "white" ? "w" : "b"}`;
}
