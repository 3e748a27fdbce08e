// Premoves: the desktop client's client/premove.h for the browser. A whole move entered while
// the opponent thinks, checked against the board as it stands (the opponent's queens and arrows
// where they are now), sent the moment the opponent's move arrives if it is still legal there,
// and dropped with a notice that says why if not. One at a time.
import type { Color } from "@protocol";
import { Board, Cell, Move, formatMove, squareName } from "./rules";
import { t } from "./i18n";

// The board with `me` to move and nothing else changed: where a premove is entered.
export function premoveBoard(b: Board, me: Color): Board {
  const c = b.clone();
  c.toMove = me;
  return c;
}

// Why `m`, legal when it was entered, is not legal on `b` now; null when it still is.
export function dropReason(b: Board, m: Move): string | null {
  if (b.isLegal(m)) return null;
  const name = (s: number) => squareName(s, b.size);
  if (!b.hasMove(b.toMove)) return t("premove.why.no_moves");
  if (b.at(m.to) !== Cell.Empty) return t("premove.why.square", { square: name(m.to) });
  if (!b.destinations(m.from).includes(m.to)) return t("premove.why.queen_way", { square: name(m.to) });
  if (m.arrow !== m.from && b.at(m.arrow) !== Cell.Empty) return t("premove.why.arrow_square", { square: name(m.arrow) });
  return t("premove.why.arrow_way", { square: name(m.arrow) });
}

export interface Outcome {
  move: Move;
  // null: still legal, send it; else the notice for the person.
  notice: string | null;
}

export class Premove {
  move: Move | null = null;

  // False, and nothing changes, when one is pending or `m` is not legal for `me` on `b` as it stands.
  set(b: Board, me: Color, m: Move): boolean {
    if (this.move || !premoveBoard(b, me).isLegal(m)) return false;
    this.move = m;
    return true;
  }

  cancel(): boolean {
    const had = this.move !== null;
    this.move = null;
    return had;
  }

  // The opponent moved and `b` has the premove's side to move: takes it out, says what to do.
  resolve(b: Board): Outcome | null {
    const m = this.move;
    if (!m) return null;
    this.move = null;
    const why = dropReason(b, m);
    return { move: m, notice: why === null ? null : t("premove.dropped", { move: formatMove(m, b.size), why }) };
  }

  panelLine(size: number): string {
    return this.move ? t("premove.line", { move: formatMove(this.move, size) }) : "";
  }
}
