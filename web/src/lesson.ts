// "Learn to play" (#/learn): the rules in short steps, each a small position to solve on the board
// with feedback, progress kept in the browser. The steps are pure data and checks
// (tests/web/lesson_check.ts solves each); the screen is LessonScreen below.
import { BoardView } from "./board_view";
import { h, replaceChildren } from "./dom";
import { t } from "./i18n";
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

// A step whose words are the catalogue's lesson.ID.title, .text and .done.
function step(id: string, s: Omit<LessonStep, "title" | "text" | "done">): LessonStep {
  return {
    ...s,
    get title() { return t(`lesson.${id}.title`); },
    get text() { return t(`lesson.${id}.text`); },
    get done() { return t(`lesson.${id}.done`); },
  };
}

export const LESSON: readonly LessonStep[] = [
  step("queen", {
    position: "5B/6/6/6/6/W5 w",
    target: "d4",
    check: (b, m) => (squareName(m.to, b.size) === "d4" ? null : t("lesson.queen.wrong")),
  }),
  step("arrow", {
    position: "5B/6/6/6/6/W5 w",
    target: "c5",
    check: (b, m) => (squareName(m.arrow, b.size) === "c5" ? null : t("lesson.arrow.wrong")),
  }),
  step("block", {
    position: "W4B/6/6/6/6/6 w",
    target: "a1",
    check: (b, m) => {
      const after = b.clone();
      after.play(m);
      const black = after.queens("black")[0];
      return after.destinations(black).includes(parseSquare("a1", b.size)!) ? t("lesson.block.wrong") : null;
    },
  }),
  step("shut_in", {
    position: "B5/xx4/6/3W2/6/6 w",
    target: "b6",
    check: (b, m) => {
      const after = b.clone();
      after.play(m);
      return after.hasMove("black") ? t("lesson.shut_in.wrong") : null;
    },
  }),
  step("territory", {
    position: "W5/6/6/6/xxxxx1/5B w",
    target: "f2",
    check: (b, m) => {
      const after = b.clone();
      after.play(m);
      const black = reachable(after, after.queens("black")[0]), white = reachable(after, after.queens("white")[0]);
      return black < white ? null : t("lesson.territory.wrong", { black, white });
    },
  }),
  step("fill", {
    position: "B4x/xxxxxx/xxxxxx/xxxxxx/xxxxxx/2W3 w",
    check: (b, m) => {
      const before = reachable(b, b.queens("white")[0]);
      const after = b.clone();
      after.play(m);
      const left = reachable(after, after.queens("white")[0]);
      return left === before - 1 ? null : t("lesson.fill.wrong", { left, lost: before - 1 - left });
    },
  }),
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
      h("h1", { class: "panel-title" }, t("home.learn")),
      h("ol", { class: "steps" }, ...LESSON.map((x, i) => h("li", { class: `${i === this.step ? "current" : ""}${this.solved[i] ? " solved" : ""}` },
        h("button", { type: "button", id: `lesson-step-${i + 1}`, onclick: () => this.goTo(i) }, x.title, this.solved[i] ? h("span", { class: "solved-mark", "aria-label": t("lesson.solved") }, icon("done")) : null)))),
      h("h2", { id: "lesson-step-title" }, t("lesson.step", { n: this.step + 1, count: LESSON.length, title: s.title })),
      h("p", { id: "lesson-text" }, s.text),
      h("div", { class: solvedNow ? "result" : "status", id: "lesson-feedback", "aria-live": "polite", "data-solved": solvedNow ? "yes" : "no" }, this.feedback),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "lesson-again", onclick: () => this.goTo(this.step) }, t("lesson.again")),
        this.step + 1 < LESSON.length ? h("button", { type: "button", class: solvedNow ? "primary" : "", id: "lesson-next", onclick: () => this.goTo(this.step + 1) }, t("lesson.next")) : null),
      allDone ? h("p", { id: "lesson-done" }, t("lesson.done.before") + " ", h("a", { href: "#/computer" }, t("lesson.done.link")), t("lesson.done.after")) : null);
  }
}
