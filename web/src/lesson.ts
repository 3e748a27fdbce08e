// "Learn to play" (#/learn): the rules in short steps, each a small position to solve on the board
// with feedback, progress kept in the browser. The steps are pure data and checks
// (tests/web/lesson_check.ts solves each); the screen is LessonScreen below.
import { BoardView } from "./board_view";
import { h, replaceChildren } from "./dom";
import { icon } from "./icons";
import { MoveInput } from "./input";
import { Board, type Move, type Square, formatMove, parsePositionText, parseSquare, squareName } from "./rules";

export interface LessonStep {
  title: string;
  text: string; // what to do
  position: string; // a position text, White to move
  target?: string; // a square to mark
  // Whether the move played solves the step; the board is the position before it. Otherwise the
  // hint to show.
  check(before: Board, m: Move): string | null;
  done: string; // said when solved
}

export const LESSON: readonly LessonStep[] = [
  {
    title: "The queen moves",
    text: "Each side has queens. A queen moves like a chess queen: any number of squares in a straight line or diagonally, never through another queen or an arrow. Move the white queen to the marked square d4 (then shoot its arrow anywhere: the next step explains).",
    position: "5B/6/6/6/6/W5 w",
    target: "d4",
    check: (b, m) => (squareName(m.to, b.size) === "d4" ? null : "Not there: the queen must land on d4, the marked square."),
    done: "Right: a1 to d4 is a diagonal.",
  },
  {
    title: "The arrow",
    text: "After moving, the same queen shoots an arrow, which flies like a queen moves, from where the queen landed (it may fly back over the square the queen left). The square it lands on is burned for the rest of the game. Move the queen, then shoot the arrow onto the marked square c5.",
    position: "5B/6/6/6/6/W5 w",
    target: "c5",
    check: (b, m) => (squareName(m.arrow, b.size) === "c5" ? null : "The arrow did not land on c5. From where the queen lands, c5 must be in a straight line or diagonal."),
    done: "Right: that square is burned now; nobody can move onto it or through it.",
  },
  {
    title: "Blocking",
    text: "Queens and arrows block the way: nothing moves or flies through them. The black queen on f6 can run down the long diagonal to a1, into the open corner. Block it: move your queen and shoot the arrow so that the black queen can no longer reach a1 in one move.",
    position: "W4B/6/6/6/6/6 w",
    target: "a1",
    check: (b, m) => {
      const after = b.clone();
      after.play(m);
      const black = after.queens("black")[0];
      return after.destinations(black).includes(parseSquare("a1", b.size)!) ? "The black queen still reaches a1: put your queen or your arrow on the diagonal between f6 and a1 (e5, d4, c3 or b2)." : null;
    },
    done: "Blocked: a queen or an arrow on the diagonal stops the black queen on its way.",
  },
  {
    title: "Shut a queen in",
    text: "A side that cannot move on its turn loses. The black queen in the corner has one way out, b6. Move your queen and shoot the arrow so that Black cannot move.",
    position: "B5/xx4/6/3W2/6/6 w",
    target: "b6",
    check: (b, m) => {
      const after = b.clone();
      after.play(m);
      return after.hasMove("black") ? "Black can still move: its only way out is b6. Shoot the arrow there." : null;
    },
    done: "Black has no move on its turn: White wins.",
  },
  {
    title: "Territory",
    text: "Most games end with the board cut into parts, each queen walled in with its own squares to fill one move at a time; whoever has more room lasts longer. The black queen (f1) can still get out through f2. Cut it off: move and shoot so that it is left with fewer squares than your queen.",
    position: "W5/6/6/6/xxxxx1/5B w",
    target: "f2",
    check: (b, m) => {
      const after = b.clone();
      after.play(m);
      const black = reachable(after, after.queens("black")[0]), white = reachable(after, after.queens("white")[0]);
      return black < white ? null : `Black can still reach ${black} squares and White ${white}: close the gap at f2 with your arrow.`;
    },
    done: "The board is cut: Black will run out of moves first.",
  },
  {
    title: "Filling in",
    text: "At the end each queen is walled in with its own squares, and the game is a count: each move burns one square of your area. White has five squares (a1, b1, d1, e1, f1), Black four; fill in without waste and White makes the last move. Move so that your queen can still reach every square of its area but the one your arrow burns.",
    position: "B4x/xxxxxx/xxxxxx/xxxxxx/xxxxxx/2W3 w",
    check: (b, m) => {
      const before = reachable(b, b.queens("white")[0]);
      const after = b.clone();
      after.play(m);
      const left = reachable(after, after.queens("white")[0]);
      return left === before - 1 ? null : `Your queen can reach ${left} squares now, ${before - 1 - left} fewer than it could: the move cut off part of its own area. Move towards one end and burn the square behind you.`;
    },
    done: "No waste: White has four moves left and Black four, and Black, to move now, runs out first.",
  },
];

// The empty squares a queen on `from` can ever reach, moving again and again (king steps over
// empty squares give the same set).
export function reachable(b: Board, from: Square): number {
  const seen = new Set<Square>([from]);
  const todo = [from];
  while (todo.length > 0) {
    const s = todo.pop()!;
    for (const t of b.reach(s))
      if (!seen.has(t)) {
        seen.add(t);
        todo.push(t);
      }
  }
  return seen.size - 1;
}

export function stepBoard(step: LessonStep): Board {
  const read = parsePositionText(step.position);
  if ("error" in read) throw new Error(`lesson "${step.title}": ${read.error}`);
  return read.board;
}

const PROGRESS_KEY = "amazons.lesson";

export class LessonScreen {
  readonly el = h("div", { class: "game lesson", id: "lesson" });
  private step = 0;
  private solved: boolean[];
  private board: Board;
  private feedback = "";
  private lastMove: Move | null = null;
  private readonly input = new MoveInput();
  private readonly view = new BoardView(this.input, (m) => this.played(m), () => undefined);
  private readonly panel = h("aside", { class: "panel card" });

  constructor() {
    let kept: unknown = null;
    try {
      kept = JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? "null");
    } catch {
      /* no progress */
    }
    this.solved = LESSON.map((_, i) => Array.isArray(kept) && kept[i] === true);
    this.step = Math.max(0, this.solved.findIndex((s) => !s));
    this.board = stepBoard(LESSON[this.step]);
    replaceChildren(this.el, h("div", { class: "board-col" }, this.view.el), this.panel);
  }

  show(): void {
    this.render();
  }

  private goTo(i: number): void {
    this.step = i;
    this.board = stepBoard(LESSON[i]);
    this.feedback = "";
    this.lastMove = null;
    this.render();
  }

  private played(m: Move): void {
    const s = LESSON[this.step];
    const wrong = s.check(this.board, m);
    this.lastMove = m;
    const before = this.board.clone();
    this.board.play(m);
    if (wrong) {
      this.feedback = `${formatMove(m, before.size)}: ${wrong}`;
      this.board = before; // try again from the same position
      this.lastMove = null;
    } else {
      this.feedback = s.done;
      this.solved[this.step] = true;
      localStorage.setItem(PROGRESS_KEY, JSON.stringify(this.solved));
    }
    this.render();
  }

  private render(): void {
    const s = LESSON[this.step];
    const solvedNow = this.solved[this.step] && this.lastMove !== null;
    this.input.reset(this.board, !solvedNow);
    this.view.show({ board: this.board, lastMove: this.lastMove, flipped: false, territory: null, hint: s.target ? parseSquare(s.target, this.board.size) : null });
    const allDone = this.solved.every(Boolean);
    replaceChildren(this.panel,
      h("h1", { class: "panel-title" }, "Learn to play"),
      h("ol", { class: "steps" }, ...LESSON.map((x, i) => h("li", { class: `${i === this.step ? "current" : ""}${this.solved[i] ? " solved" : ""}` },
        h("button", { type: "button", id: `lesson-step-${i + 1}`, onclick: () => this.goTo(i) }, x.title, this.solved[i] ? h("span", { class: "solved-mark", "aria-label": ", solved" }, icon("done")) : null)))),
      h("h2", { id: "lesson-step-title" }, `Step ${this.step + 1} of ${LESSON.length}: ${s.title}`),
      h("p", { id: "lesson-text" }, s.text),
      h("div", { class: solvedNow ? "result" : "status", id: "lesson-feedback", "aria-live": "polite", "data-solved": solvedNow ? "yes" : "no" }, this.feedback),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "lesson-again", onclick: () => this.goTo(this.step) }, "Start the step again"),
        this.step + 1 < LESSON.length ? h("button", { type: "button", class: solvedNow ? "primary" : "", id: "lesson-next", onclick: () => this.goTo(this.step + 1) }, "Next step") : null),
      allDone ? h("p", { id: "lesson-done" }, "You know the rules. ", h("a", { href: "#/computer" }, "Play the computer"), " to try them.") : null);
  }
}
