// The "Play the computer" screen: a game against the engine running in this page (engine.ts),
// open to anyone, signed in or not. The screen keeps its own board view and move input; the
// App only shows it and hides it.
import { BoardView } from "./board_view";
import { analysisLink } from "./analysis_tree";
import { CLOCKS, ComputerGame, ComputerSettings, LEVELS, parseSettings } from "./computer_game";
import { computerExportButtons, computerGameItem, finishedComputerGames, keepFinishedComputerGame } from "./computer_archive";
import { renderMoves, renderSeats, resultWords, statusText } from "./computer_view";
import { h, replaceChildren } from "./dom";
import { type BrowserEngine, engineUnavailable } from "./engine";
import { rulesName, sideName, timeChoiceText } from "./game";
import { t } from "./i18n";
import { MoveInput } from "./input";
import { Premove, premoveBoard } from "./premove";
import { ReviewView } from "./review_view";
import { territoryMap } from "./territory";
import { type Board, type Move, type Square, formatMove, parseMove } from "./rules";
import { LOW_TIME_MS, type Sounds, moveSounds } from "./sound";
import { BUILTIN_VARIANTS } from "@protocol";

const SETTINGS_KEY = "amazons.computer";
const GAME_KEY = "amazons.computer.game"; // the game under way, resumed after a reload
const HINT_LEVEL = "hard"; // a hint is the move this level would play
const TERRITORY_KEY = "amazons.computer.territory";

export class ComputerScreen {
  readonly el = h("div", { class: "game computer", id: "computer" });
  private engine: BrowserEngine | null = null;
  private settings: ComputerSettings = parseSettings(localStorage.getItem(SETTINGS_KEY));
  private game: ComputerGame | null = null;
  private generation = 0; // a new game makes an earlier game's pending engine answer stale
  private thinking = false;
  private problem = "";
  private hint: Square | null = null; // the queen the hint says to move
  private hinting = false;
  private territory = localStorage.getItem(TERRITORY_KEY) === "1";
  private readonly review = new ReviewView(() => this.pageEngine(), () => this.render(), (ply) => {
    if (this.game) location.hash = analysisLink(this.game.variant, this.game.moves, ply);
  });
  private readonly finished = h("div", { class: "finished", id: "computer-finished" });
  private readonly input = new MoveInput();
  private inputGame: ComputerGame | null = null; // the game and position the input was set up for
  private inputPosition = "";
  private readonly premove = new Premove(); // your move entered while the computer thinks
  private premoving = false; // the input enters a premove
  private note = ""; // what became of a premove, until the next move
  private heard: { game: ComputerGame; plies: number; board: Board; over: boolean } | null = null; // the game as last sounded
  private lowTimeWarned: ComputerGame | null = null;
  private readonly boardView = new BoardView(this.input, (m) => this.yourMove(m), () => this.render());
  private readonly parts = {
    top: h("div", { class: "seat top" }),
    bottom: h("div", { class: "seat bottom" }),
    status: h("div", { class: "status", id: "computer-status", "aria-live": "polite" }),
    result: h("div", { class: "result", id: "computer-result" }),
    actions: h("div", { class: "actions" }),
    moves: h("ol", { class: "moves", id: "computer-moves" }),
    rules: h("select", { id: "computer-rules" }, ...BUILTIN_VARIANTS.map((v) => h("option", { value: v.name }, rulesName(v.name)))),
    level: h("select", { id: "computer-level" }, ...LEVELS.map((l) => h("option", { value: l.name }, t(`computer.level.${l.name}`)))),
    clock: h("select", { id: "computer-clock" }, ...CLOCKS.map((c) => h("option", { value: c.name }, timeChoiceText(c.initialMs === 0 ? null : { initial: c.initialMs / 1000, increment: c.incrementMs / 1000 })))),
    color: h("select", { id: "computer-color" }, h("option", { value: "white" }, sideName("white")), h("option", { value: "black" }, sideName("black")), h("option", { value: "random" }, t("lobby.color.random"))),
  };

  // `signedIn`: whether the way back leads to the lobby or to signing in; `pageEngine`: the
  // page's engine, started on first use; `sounds`: the page's sounds.
  constructor(private readonly signedIn: () => boolean, private readonly pageEngine: () => BrowserEngine, private readonly sounds: Sounds) {
    const p = this.parts;
    this.boardView.beforeBack = () => this.cancelPremove();
    p.rules.value = this.settings.rules;
    p.level.value = this.settings.level;
    p.color.value = this.settings.color;
    p.clock.value = this.settings.clock ?? "none";
    const start = h("button", { class: "primary", id: "computer-new", type: "submit" }, t("lobby.new_game"));
    const form = h("form", { class: "computer-setup" },
      h("label", {}, t("computer.level"), p.level), h("label", {}, t("lobby.rules"), p.rules), h("label", {}, t("computer.you_play"), p.color), h("label", {}, t("tournament.form.clock"), p.clock), start);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.newGame();
    });
    replaceChildren(this.el,
      h("div", { class: "board-col" }, p.top, this.boardView.el, p.bottom),
      h("aside", { class: "panel card" },
        h("h1", { class: "panel-title" }, t("home.play_computer")),
        h("p", { class: "muted" }, t("computer.explain")),
        form, p.status, p.result, p.actions, this.territorySwitch(), this.review.el,
        h("h2", {}, t("game.moves")), p.moves, this.finished));
  }

  private territorySwitch(): HTMLElement {
    const box = h("input", { type: "checkbox", id: "computer-territory", checked: this.territory });
    box.addEventListener("change", () => {
      this.territory = box.checked;
      localStorage.setItem(TERRITORY_KEY, this.territory ? "1" : "0");
      this.render();
    });
    return h("label", { class: "check" }, box, t("game.territory"));
  }

  // The screen is left: a review in progress stops.
  hide(): void {
    this.review.cancel();
  }

  // Text, JSON and SGF of `g`, with its review's annotations when it has one.
  private exportButtons(g: ComputerGame, ended: Date | undefined, idPrefix: string): HTMLElement {
    return computerExportButtons(g, ended, idPrefix, this.review.reviewOf(this.reviewId(g)));
  }

  private reviewId(g: ComputerGame): string {
    return `computer-${g.started.toISOString()}`;
  }

  private renderFinished(): void {
    const rows = finishedComputerGames().map((f, i) => computerGameItem(f, `finished-${i}`, (g) => this.review.reviewOf(this.reviewId(g))));
    replaceChildren(this.finished, rows.length ? h("h2", {}, t("computer.finished")) : null, rows.length ? h("ul", { class: "list" }, ...rows) : null);
  }

  // Called when the screen is shown: starts the engine the first time, and a game if none.
  show(): void {
    const unavailable = engineUnavailable();
    if (unavailable) {
      this.problem = unavailable;
    } else {
      this.engine = this.pageEngine();
    }
    this.game ??= ComputerGame.restore(localStorage.getItem(GAME_KEY));
    if (!this.game) this.newGame();
    else this.next();
  }

  private newGame(): void {
    const p = this.parts;
    this.settings = parseSettings(JSON.stringify({ rules: p.rules.value, level: p.level.value, color: p.color.value, clock: p.clock.value }));
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(this.settings));
    this.engine?.stop();
    this.review.cancel();
    this.generation += 1;
    this.thinking = false;
    this.premove.cancel();
    this.note = "";
    this.game = new ComputerGame(this.settings);
    this.sounds.play("start");
    if (!engineUnavailable()) this.problem = "";
    this.next();
  }

  private yourMove(m: Move): void {
    const g = this.game;
    if (g && this.premoving && !g.yourTurn && !g.over) {
      // One premove at a time; the input rests until it is played or cancelled.
      this.premove.set(g.board, g.you, m);
      this.note = "";
      return this.next();
    }
    if (!g || !g.yourTurn || !g.play(m)) return this.render();
    this.note = "";
    this.next();
  }

  // Right click or Esc with a premove pending; false when there was none.
  private cancelPremove(): boolean {
    if (!this.premove.cancel()) return false;
    this.note = t("game.premove_cancelled");
    this.next();
    return true;
  }

  // After every move: the game is kept, the engine's turn asks the engine, yours opens the input.
  private next(): void {
    const g = this.game!;
    if (g.yourTurn && !g.over) {
      // The computer has moved: a premove is played at once if it is still legal.
      const out = this.premove.resolve(g.board);
      if (out && out.notice === null && g.play(out.move)) return this.next();
      if (out?.notice) this.note = out.notice;
    }
    localStorage.setItem(GAME_KEY, JSON.stringify(g.saved()));
    this.sound(g);
    this.hint = null;
    if (!g.over && !g.yourTurn && this.engine && !this.thinking) {
      this.thinking = true;
      const asked = this.generation;
      const clock = g.timed ? { white: g.remaining("white")!, black: g.remaining("black")!, increment: g.clock.incrementMs } : undefined;
      this.engine.bestMove({ rules: g.variant.name, moves: g.moves, level: g.level, clock }).then(
        (move) => {
          if (asked !== this.generation) return;
          this.thinking = false;
          const wrong = g.playEngine(move);
          if (wrong) this.problem = t("computer.wrong", { error: wrong });
          this.next();
        },
        (reason: Error) => {
          if (asked !== this.generation) return;
          this.thinking = false;
          console.error("engine failed:", reason);
          this.problem = t("computer.engine_failed", { error: reason.message });
          this.render();
        },
      );
    }
    // Only a new position resets the input: show() runs next() again when the engine has loaded,
    // which must not drop a queen the player has just picked up.
    // While the computer thinks, a move entered is a premove, checked against the board as it is.
    this.premoving = !g.over && !g.yourTurn && this.engine !== null && !this.premove.move;
    const position = `${g.moves.length} ${g.yourTurn} ${this.premoving}`;
    if (this.inputGame !== g || this.inputPosition !== position) {
      if (this.premoving) this.input.reset(premoveBoard(g.board, g.you), true);
      else this.input.reset(g.board, g.yourTurn);
    }
    this.inputGame = g;
    this.inputPosition = position;
    this.render();
  }

  // The sounds of what changed since the game was last heard: one new move, the end.
  private sound(g: ComputerGame): void {
    const heard = this.heard?.game === g ? this.heard : null;
    if (heard && g.moves.length === heard.plies + 1 && g.lastMove) this.sounds.playAll(moveSounds(heard.board, g.lastMove, g.yourTurn && !g.over));
    if (heard && g.over && !heard.over) this.sounds.play("end");
    this.heard = { game: g, plies: g.moves.length, board: g.board.clone(), over: g.over };
  }

  // Your last move and the engine's answer taken back (a search for its answer is abandoned).
  private takeBack(): void {
    const g = this.game;
    if (!g || !g.canTakeBack) return;
    if (this.thinking) {
      this.generation += 1;
      this.thinking = false;
      this.engine?.stop();
    }
    this.premove.cancel();
    this.note = "";
    g.takeBack();
    this.next();
  }

  // The queen the engine at HINT_LEVEL would move, marked on the board.
  private askHint(): void {
    const g = this.game;
    if (!g || !g.yourTurn || !this.engine || this.hinting) return;
    this.hinting = true;
    const asked = this.generation;
    const plies = g.moves.length;
    this.render();
    this.engine.bestMove({ rules: g.variant.name, moves: g.moves, level: HINT_LEVEL }).then(
      (move) => {
        this.hinting = false;
        if (asked === this.generation && g.moves.length === plies && move) this.hint = parseMove(move, g.board.size)?.from ?? null;
        this.render();
      },
      () => {
        this.hinting = false;
        this.render();
      },
    );
  }

  private render(): void {
    const g = this.game;
    const p = this.parts;
    if (!g) return;
    renderSeats(p.top, p.bottom, g);
    this.boardView.show({ board: g.board, lastMove: g.lastMove, flipped: g.you === "black", territory: this.territory ? territoryMap(g.board) : null, hint: this.hint, premove: this.premove.move });
    const status = statusText(g, { problem: this.problem !== "", loading: this.engine?.state === "loading", premove: this.premove.move ? this.premove.panelLine(g.board.size) : null,
      premoving: this.premoving, stage: this.input.stage, thinking: this.thinking });
    replaceChildren(p.status, status, this.note && !g.over ? h("div", { class: "note", id: "computer-note" }, this.note) : null,
      this.problem ? h("div", { class: "error", id: "computer-problem" }, this.problem) : null);
    p.status.dataset.premove = this.premove.move ? formatMove(this.premove.move, g.board.size) : "";
    p.status.dataset.state = g.over ? "over" : this.thinking ? "thinking" : g.yourTurn ? "your-move" : "waiting";

    p.result.hidden = this.review.el.hidden = !g.over;
    if (g.over) {
      const { title, why } = resultWords(g);
      // A rematch: the same level, rules and clock, colours exchanged.
      const rematch = h("button", { class: "primary", id: "computer-rematch", onclick: () => {
        p.rules.value = g.variant.name;
        p.level.value = g.level;
        p.clock.value = g.clock.name;
        p.color.value = g.you === "white" ? "black" : "white";
        this.newGame();
      } }, t("game.rematch"));
      replaceChildren(p.result, h("strong", { id: "computer-result-title" }, title), h("div", {}, why), rematch, this.exportButtons(g, undefined, "computer-export"));
      keepFinishedComputerGame(g);
      this.review.render({ game: this.reviewId(g), variant: g.variant, moves: g.moves, ply: g.moves.length });
    }
    this.renderFinished();

    const actions: HTMLElement[] = [];
    if (this.thinking && this.engine?.canStop) actions.push(h("button", { id: "computer-move-now", onclick: () => this.engine?.stop() }, t("computer.move_now")));
    if (g.yourTurn && this.engine) actions.push(h("button", { id: "computer-hint", disabled: this.hinting, onclick: () => this.askHint() }, this.hinting ? t("computer.hint.thinking") : t("computer.hint")));
    if (g.canTakeBack) actions.push(h("button", { id: "computer-takeback", onclick: () => this.takeBack() }, t("computer.take_back")));
    if (!g.over && g.moves.length > 0) actions.push(h("button", { id: "computer-resign", onclick: () => this.halt(g, () => g.resign()) }, t("game.resign")));
    if (g.moves.length > 0) actions.push(h("a", { class: "button", id: "computer-analyse", href: analysisLink(g.variant, g.moves, g.moves.length) }, t("home.analysis_board")));
    actions.push(h("a", { class: "button", href: "#/" }, this.signedIn() ? t("common.back_to_lobby") : t("computer.sign_in")));
    replaceChildren(p.actions, ...actions);
    renderMoves(p.moves, g, (ply) => this.review.markOf(this.reviewId(g), ply));
  }

  // The game ended by `end` (a resignation, a flag): the engine stops, the input closes, the end
  // is kept and heard.
  private halt(g: ComputerGame, end: () => unknown): void {
    this.generation += 1;
    this.thinking = false;
    this.engine?.stop();
    this.premove.cancel();
    end();
    this.input.disable();
    localStorage.setItem(GAME_KEY, JSON.stringify(g.saved()));
    this.sound(g);
    this.render();
  }

  // Once a second or so: the running clock, and a flag when it falls.
  tick(): void {
    const g = this.game;
    if (!g || !g.timed || !this.el.isConnected) return;
    if (g.checkFlag()) return this.halt(g, () => undefined);
    const left = g.remaining(g.you);
    if (!g.over && g.yourTurn && left !== null && left < LOW_TIME_MS && this.lowTimeWarned !== g) {
      this.lowTimeWarned = g;
      this.sounds.play("low-time");
    }
    renderSeats(this.parts.top, this.parts.bottom, g);
  }
}
