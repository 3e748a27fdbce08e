// The board on the page: a grid of squares with the desktop client's colours, queens on round
// tokens, burned squares, the last move, the staged highlights and the territory markers. Mouse,
// pen and touch all arrive as pointer events: press and release on squares, a drag in between.
// The keyboard reaches it too: Tab enters the board (one stop), the arrow keys move between
// squares, Enter or Space presses the square (as a click does) and Escape steps back. Each
// square is read out by name and content ("d1, white queen", "g7, arrow") and what pressing it
// would do ("move here", "shoot here").
import type { Color } from "@protocol";
import { h } from "./dom";
import { icon } from "./icons";
import { MoveInput } from "./input";
import { Board, Cell, Move, Square, formatMove, sameMove, squareName } from "./rules";
import { moveAnimationMs } from "./settings";
import { TerritoryMap, owner } from "./territory";
import { t } from "./i18n";

export interface Scene {
  board: Board;
  lastMove: Move | null;
  flipped: boolean;
  territory: TerritoryMap | null;
  premove?: Move | null; // a premove waiting for the opponent's move
  hint?: Square | null; // a queen the engine suggests moving
}

const DRAG_THRESHOLD_PX = 4;

export class BoardView {
  readonly el: HTMLDivElement;
  private squares: HTMLDivElement[] = [];
  private size = 0;
  private flipped = false;
  private scene: Scene | null = null;
  private ghost: HTMLDivElement | null = null;
  private pressX = 0;
  private pressY = 0;
  private dragging = false;
  private cursor = -1; // the square the keyboard is on (the board's one Tab stop)
  private entered: Move | null = null; // the move last entered here, shown without a slide
  private shown: { board: Board; lastMove: Move | null } | null = null; // the last scene's position
  // Right click and Esc ask this first; true means it took the press (a premove cancelled).
  beforeBack: () => boolean = () => false;
  // A press on a square is offered here first (the analysis board's editor); true takes it.
  onSquare: ((s: Square) => boolean) | null = null;

  // `onMove` gets each move entered, `onStage` hears of every other change of the input's stage;
  // `input` is shared with the owner, who resets it.
  constructor(
    readonly input: MoveInput,
    private readonly onMove: (m: Move) => void,
    private readonly onStage: () => void = () => undefined,
  ) {
    this.el = h("div", { class: "board", role: "group", "aria-label": t("board.label") });
    this.el.addEventListener("keydown", (e) => this.key(e));
    this.el.addEventListener("pointerdown", (e) => this.down(e));
    this.el.addEventListener("pointermove", (e) => this.moveTo(e));
    this.el.addEventListener("pointerup", (e) => this.up(e));
    this.el.addEventListener("pointercancel", () => this.endDrag());
    this.el.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      this.back();
    });
  }

  back(): void {
    if (this.beforeBack()) return;
    if (this.input.back() !== "none") {
      this.endDrag();
      this.render();
      this.onStage();
    }
  }

  show(scene: Scene): void {
    // A copy: the owner's board is often changed in place by the next move.
    const before = this.shown;
    this.shown = { board: scene.board.clone(), lastMove: scene.lastMove };
    this.scene = scene;
    this.render();
    this.animate(before, scene);
  }

  // A move that arrived since the last scene slides its queen from where it stood and fades its
  // arrow in (settings.ts's speed; none when off). Only a move made from the position shown
  // before, and not the one entered on this board, whose queen is already where it goes.
  private animate(before: { board: Board; lastMove: Move | null } | null, scene: Scene): void {
    const m = scene.lastMove;
    if (!m || !before || sameMove(before.lastMove, m)) return; // no new move (the one entered may be on its way)
    const entered = this.entered;
    this.entered = null;
    const ms = moveAnimationMs();
    if (ms === 0 || before.board.size !== scene.board.size || sameMove(entered, m)) return;
    const piece = before.board.at(m.from);
    if ((piece !== Cell.White && piece !== Cell.Black) || scene.board.at(m.to) !== piece || scene.board.at(m.arrow) !== Cell.Arrow) return;
    const from = this.squares[m.from].getBoundingClientRect(), to = this.squares[m.to].getBoundingClientRect();
    const queen = this.squares[m.to].querySelector<HTMLElement>(".queen");
    if (typeof queen?.animate !== "function") return;
    queen.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }], { duration: ms, easing: "ease-out" });
    this.squares[m.arrow].animate([{ opacity: 0.35 }, { opacity: 1 }], { duration: ms / 2, delay: ms, fill: "backwards" });
    this.el.dataset.animated = formatMove(m, scene.board.size);
  }

  private build(size: number, flipped: boolean): void {
    this.size = size;
    this.flipped = flipped;
    this.el.style.setProperty("--n", String(size));
    this.el.replaceChildren();
    this.squares = new Array(size * size);
    for (let row = 0; row < size; ++row)
      for (let col = 0; col < size; ++col) {
        const file = flipped ? size - 1 - col : col;
        const rank = flipped ? row : size - 1 - row;
        const s = rank * size + file;
        const el = h("div", { class: `sq ${(file + rank) % 2 === 0 ? "dark" : "light"}`, "data-sq": squareName(s, size), role: "button", tabindex: -1 });
        el.addEventListener("focus", () => (this.cursor = s));
        if (col === 0) el.appendChild(h("span", { class: "coord rank", "aria-hidden": "true" }, String(rank + 1)));
        if (row === size - 1) el.appendChild(h("span", { class: "coord file", "aria-hidden": "true" }, "abcdefghijkl"[file]));
        this.squares[s] = el;
        this.el.appendChild(el);
      }
    if (this.cursor < 0 || this.cursor >= size * size) this.cursor = 0;
  }

  // The keyboard on the board: arrows move the focus as the board is drawn (Up is up on the
  // screen, also when turned), Enter and Space press, Escape steps back.
  private key(e: KeyboardEvent): void {
    if (this.size === 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    const steps: Record<string, [number, number]> = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const step = steps[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation();
      const sign = this.flipped ? -1 : 1;
      const file = Math.min(this.size - 1, Math.max(0, (this.cursor % this.size) + sign * step[0]));
      const rank = Math.min(this.size - 1, Math.max(0, Math.floor(this.cursor / this.size) + sign * step[1]));
      this.focusSquare(rank * this.size + file);
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      const s = this.cursor;
      if (this.onSquare?.(s)) return;
      const effect = this.input.press(s);
      if (effect === "move") return this.finish();
      const released = this.input.release(s);
      if (effect !== "none" || released !== "none") {
        this.render();
        this.onStage();
      }
      return;
    }
    if (e.key === "Escape") {
      e.stopPropagation();
      this.back();
    }
  }

  private focusSquare(s: Square): void {
    this.squares[this.cursor]?.setAttribute("tabindex", "-1");
    this.cursor = s;
    const el = this.squares[s];
    el.setAttribute("tabindex", "0");
    el.focus();
  }

  render(): void {
    const scene = this.scene;
    if (!scene) return;
    const b = scene.board;
    if (b.size !== this.size || scene.flipped !== this.flipped) this.build(b.size, scene.flipped);
    const inp = this.input;
    const moving = inp.stage === "arrow";
    for (let s = 0; s < b.cells.length; ++s) {
      const el = this.squares[s];
      let cell = b.at(s);
      if (moving && s === inp.queen) cell = Cell.Empty;
      if (moving && s === inp.destination) cell = b.at(inp.queen);
      const cls: string[] = [];
      if (cell === Cell.Arrow) cls.push("arrow");
      if (scene.lastMove && (s === scene.lastMove.from || s === scene.lastMove.to)) cls.push("last");
      if (scene.lastMove && s === scene.lastMove.arrow) cls.push("last-arrow");
      if (s === inp.queen && inp.stage !== "disabled") cls.push("selected");
      if (inp.targets.has(s)) cls.push(moving ? "target-arrow" : "target");
      if (inp.accepts(s)) cls.push("accepts");
      const pre = scene.premove;
      if (pre && (s === pre.from || s === pre.to)) cls.push("premove");
      if (pre && s === pre.arrow) cls.push("premove-arrow");
      if (scene.hint === s) cls.push("hint");
      if (scene.territory && cell === Cell.Empty) {
        const o = owner(scene.territory, s);
        if (o) cls.push(`terr-${o}`);
      }
      const queen = cell === Cell.White ? "white" : cell === Cell.Black ? "black" : null;
      el.tabIndex = s === this.cursor ? 0 : -1;
      const content = queen ? t(`board.square.${queen}_queen`) : cell === Cell.Arrow ? t("board.square.arrow") : t("board.square.empty");
      const offer = inp.targets.has(s) ? (moving ? t("board.square.shoot_here") : t("board.square.move_here")) : s === inp.queen && inp.stage !== "disabled" ? t("board.square.selected") : "";
      el.setAttribute("aria-label", offer ? t("board.square.with_offer", { square: squareName(s, b.size), content, offer }) : t("board.square", { square: squareName(s, b.size), content }));
      el.dataset.piece = queen ?? (cell === Cell.Arrow ? "arrow" : "");
      const base = el.classList.contains("dark") ? "dark" : "light";
      el.className = ["sq", base, ...cls].join(" ");
      // The premove's queen shows faintly on its destination, the real one stays where it is.
      const ghost = pre && s === pre.to && cell === Cell.Empty && !queen ? b.at(pre.from) : Cell.Empty;
      const ghostColor = ghost === Cell.White ? "white" : ghost === Cell.Black ? "black" : null;
      this.setQueen(el, queen ?? ghostColor, this.dragging && inp.dragFrom === s, ghostColor !== null && !queen);
    }
  }

  private setQueen(el: HTMLDivElement, c: Color | null, lifted: boolean, pending = false): void {
    let q = el.querySelector<HTMLDivElement>(".queen");
    if (!c) {
      q?.remove();
      return;
    }
    if (!q) {
      q = h("div", { class: "queen", "aria-hidden": "true" }, icon("queen"));
      el.appendChild(q);
    }
    q.className = `queen ${c}${lifted ? " lifted" : ""}${pending ? " pending" : ""}`;
  }

  private squareAt(x: number, y: number): Square {
    const r = this.el.getBoundingClientRect();
    if (x < r.left || y < r.top || x >= r.right || y >= r.bottom || this.size === 0) return -1;
    const col = Math.floor(((x - r.left) / r.width) * this.size);
    const row = Math.floor(((y - r.top) / r.height) * this.size);
    const file = this.flipped ? this.size - 1 - col : col;
    const rank = this.flipped ? row : this.size - 1 - row;
    return rank * this.size + file;
  }

  private down(e: PointerEvent): void {
    if (e.button !== 0) return;
    e.preventDefault();
    const s = this.squareAt(e.clientX, e.clientY);
    if (s >= 0 && this.onSquare?.(s)) return;
    const effect = this.input.press(s);
    if (effect === "move") return this.finish();
    if (this.input.dragFrom !== null) {
      this.pressX = e.clientX;
      this.pressY = e.clientY;
      this.dragging = false;
      try {
        this.el.setPointerCapture(e.pointerId);
      } catch {
        /* capture is a nicety */
      }
    }
    if (effect !== "none") {
      this.render();
      this.onStage();
    }
  }

  private moveTo(e: PointerEvent): void {
    if (this.input.dragFrom === null || !this.scene) return;
    if (!this.dragging && Math.hypot(e.clientX - this.pressX, e.clientY - this.pressY) < DRAG_THRESHOLD_PX) return;
    if (!this.dragging) {
      this.dragging = true;
      const from = this.input.dragFrom;
      const b = this.scene.board;
      const cell = this.input.stage === "arrow" && from === this.input.destination ? b.at(this.input.queen) : b.at(from);
      const side = this.el.getBoundingClientRect().width / this.size;
      this.ghost = h("div", { class: `queen ghost ${cell === Cell.Black ? "black" : "white"}` }, icon("queen"));
      this.ghost.style.width = this.ghost.style.height = `${side}px`;
      this.ghost.style.fontSize = `${side * 0.56}px`;
      document.body.appendChild(this.ghost);
      this.render();
    }
    const g = this.ghost!;
    const side = parseFloat(g.style.width);
    g.style.left = `${e.clientX - side / 2}px`;
    g.style.top = `${e.clientY - side / 2}px`;
  }

  private up(e: PointerEvent): void {
    if (e.button !== 0) return;
    const s = this.squareAt(e.clientX, e.clientY);
    const effect = this.input.release(s);
    this.endDrag();
    if (effect !== "none") {
      this.render();
      this.onStage();
    }
  }

  private endDrag(): void {
    this.dragging = false;
    this.ghost?.remove();
    this.ghost = null;
  }

  private finish(): void {
    this.endDrag();
    const m = this.input.take();
    this.entered = m;
    this.render();
    if (m) this.onMove(m);
  }
}
