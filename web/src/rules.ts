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

export function sameMove(a: Move | null | undefined, b: Move): boolean {
  return !!a && a.from === b.from && a.to === b.to && a.arrow === b.arrow;
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

// Reads a position text (docs/POSITION_FORMAT.md) as amazons::parse_position
// (common/position_text.cpp) does, with its messages: the board, or why not with the 1-based
// character where reading stopped. tests/web/analysis_check.ts compares the two.
export function parsePositionText(text: string): { board: Board } | { error: string } {
  const fail = (at: number, why: string) => ({ error: `at character ${at}: ${why}` });
  const space = text.indexOf(" ");
  if (space < 0) return fail(text.length + 1, "expected a space and the side to move (w or b)");
  const field = text.slice(0, space);
  const size = field.split("/").length;
  if (size < 6 || size > MAX_SIZE) return fail(1, `the board has ${size} ranks; a board has 6 to ${MAX_SIZE}`);
  const cells = new Uint8Array(size * size);
  const counts = { white: 0, black: 0 };
  let rank = size - 1, file = 0;
  for (let i = 0; i < field.length; ++i) {
    const c = field[i];
    const column = i + 1;
    if (c === "/") {
      if (file !== size) return fail(column, `rank ${rank + 1} has ${file} squares, expected ${size}`);
      --rank;
      file = 0;
      continue;
    }
    if (c >= "0" && c <= "9") {
      if (c === "0") return fail(column, "a run of empty squares cannot start with 0");
      let run = 0;
      while (i < field.length && field[i] >= "0" && field[i] <= "9" && run <= MAX_SIZE) run = run * 10 + Number(field[i++]);
      --i;
      file += run;
      if (file > size) return fail(column, `rank ${rank + 1} is longer than ${size} squares`);
      continue;
    }
    if (file >= size) return fail(column, `rank ${rank + 1} is longer than ${size} squares`);
    const cell = c === "W" ? Cell.White : c === "B" ? Cell.Black : c === "x" || c === "X" ? Cell.Arrow : null;
    if (cell === null) return fail(column, `expected W, B, x, a number or '/', found '${c}'`);
    cells[rank * size + file] = cell;
    if (cell === Cell.White) ++counts.white;
    if (cell === Cell.Black) ++counts.black;
    if (counts.white > 4 || counts.black > 4) return fail(column, "more than 4 queens of one side");
    ++file;
  }
  if (file !== size) return fail(field.length + 1, `rank 1 has ${file} squares, expected ${size}`);
  const side = text.slice(space + 1);
  if (!["w", "W", "b", "B"].includes(side)) return fail(space + 2, "expected the side to move, w or b, and nothing after it");
  const board = new Board(size, side.toLowerCase() === "w" ? "white" : "black");
  board.cells.set(cells);
  const problem = positionProblem(board);
  return problem ? { error: problem } : { board };
}

// Why a set-up board is not a position (amazons::Position::make's checks, with its messages), or
// null: each side 1 to 4 queens, as many as the other.
export function positionProblem(board: Board): string | null {
  const white = board.queens("white").length, black = board.queens("black").length;
  if (white !== black) return `unequal queen counts: ${white} white and ${black} black`;
  if (white < 1 || white > 4) return `each side needs 1 to 4 queens, got ${white}`;
  return null;
}

// Every legal move of the side to move, as text ("d1-d7/g7"), in board order.
export function legalMoveTexts(board: Board): string[] {
  const out: string[] = [];
  for (const q of board.queens(board.toMove))
    for (const to of board.destinations(q))
      for (const arrow of board.arrowTargets(q, to)) out.push(formatMove({ from: q, to, arrow }, board.size));
  return out;
}

// What a move typed so far can still become: the legal moves it begins, as the terminal client
// completes them. An exact legal move is its own only completion.
export function completeMove(board: Board, typed: string): string[] {
  const text = typed.trim().toLowerCase();
  const all = legalMoveTexts(board);
  if (all.includes(text)) return [text];
  return all.filter((m) => m.startsWith(text));
}
