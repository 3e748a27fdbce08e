// How presses, releases and "back" on board squares become one legal move: the desktop
// client's input state machine (client/move_input.h), step for step. A click is a press and a
// release on the same square; a drag is a press on a queen and a release elsewhere. Only
// highlighted squares are accepted, so an illegal move cannot be entered.
import { Board, Move, Square } from "./rules";

export type Stage = "disabled" | "queen" | "destination" | "arrow";
export type Effect = "none" | "changed" | "move";

export class MoveInput {
  stage: Stage = "disabled";
  queen: Square = -1;
  destination: Square = -1;
  targets: Set<Square> = new Set();
  dragFrom: Square | null = null;
  ready: Move | null = null;
  private board: Board | null = null;
  private pressReselected = false;

  reset(board: Board | null, enabled: boolean): void {
    this.board = board;
    this.stage = enabled && board !== null && board.hasMove(board.toMove) ? "queen" : "disabled";
    this.queen = this.destination = -1;
    this.targets = new Set();
    this.dragFrom = null;
    this.pressReselected = false;
    this.ready = null;
  }

  disable(): void {
    this.stage = "disabled";
    this.queen = this.destination = -1;
    this.targets = new Set();
    this.dragFrom = null;
  }

  private selectable(s: Square): boolean {
    const b = this.board;
    return b !== null && s >= 0 && s < b.cells.length && b.destinations(s).length > 0;
  }

  // Whether pressing `s` now would do something (hover feedback).
  accepts(s: Square): boolean {
    if (this.stage === "disabled") return false;
    if (this.targets.has(s)) return true;
    if (this.stage === "arrow" && s === this.destination) return true;
    return this.selectable(s) && !(this.stage === "arrow" && s === this.queen);
  }

  private select(q: Square): void {
    this.stage = "destination";
    this.queen = q;
    this.destination = -1;
    this.targets = new Set(this.board!.destinations(q));
  }

  private chooseDestination(to: Square): void {
    this.stage = "arrow";
    this.destination = to;
    this.targets = new Set(this.board!.arrowTargets(this.queen, to));
  }

  press(s: Square): Effect {
    if (this.stage === "disabled" || this.board === null || s < 0) return "none";
    this.pressReselected = false;
    // In the arrow stage the queen's old square is empty and always a target: targets first.
    if (this.stage === "arrow" && this.targets.has(s)) {
      this.ready = { from: this.queen, to: this.destination, arrow: s };
      this.disable();
      return "move";
    }
    if (this.stage === "destination" && this.targets.has(s)) {
      this.chooseDestination(s);
      return "changed";
    }
    if (this.stage === "arrow" && s === this.destination) {
      this.dragFrom = s; // the moved queen may be dragged on to another destination
      return "changed";
    }
    if (this.selectable(s)) {
      this.pressReselected = this.stage === "destination" && s === this.queen;
      this.select(s);
      this.dragFrom = s;
      return "changed";
    }
    return "none";
  }

  release(s: Square): Effect {
    if (this.dragFrom === null) return "none";
    const from = this.dragFrom;
    this.dragFrom = null;
    if (s === from) {
      if (!this.pressReselected) return "changed";
      // A click on the queen that was already selected puts it down again.
      this.pressReselected = false;
      this.stage = "queen";
      this.queen = -1;
      this.targets = new Set();
      return "changed";
    }
    if (s < 0) return "changed";
    if (this.stage === "destination" && this.targets.has(s)) {
      this.chooseDestination(s);
      return "changed";
    }
    if (this.stage === "arrow" && from === this.destination && this.board!.destinations(this.queen).includes(s)) {
      this.chooseDestination(s);
      return "changed";
    }
    return "changed"; // an illegal drop: the queen goes back, the selection stays
  }

  // Right click or Esc: arrow -> destination -> queen; also ends a drag.
  back(): Effect {
    this.dragFrom = null;
    if (this.stage === "arrow") {
      this.select(this.queen);
      return "changed";
    }
    if (this.stage === "destination") {
      this.stage = "queen";
      this.queen = -1;
      this.targets = new Set();
      return "changed";
    }
    return "none";
  }

  take(): Move | null {
    const m = this.ready;
    this.ready = null;
    return m;
  }
}
