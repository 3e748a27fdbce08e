// The game screen's controller: one game of the server's, played or watched. The board (drawn by
// BoardView from `input`), the seats and clocks, the status, the actions, the move list with the
// earlier positions it opens, the typed move, the chat; premoves and moves waiting for Confirm.
// It reads the games from the store and asks the server through the App; the server decides.
import type { ClientMessage } from "@protocol";
import { BoardView } from "./board_view";
import { copyText, h, replaceChildren } from "./dom";
import { confirmButton, renderMoveList, renderResult, renderSeat, statusLine, typedMoveForm } from "./game_view";
import { t } from "./i18n";
import { MoveInput } from "./input";
import { premoveBoard } from "./premove";
import { Move, formatMove, other, replay, sameMove } from "./rules";
import { confirmMoves } from "./settings";
import { LOW_TIME_MS, Sounds } from "./sound";
import type { Pending, Store } from "./store";
import { territoryMap } from "./territory";

const TERRITORY_KEY = "amazons.territory";
const MAX_CHAT_BYTES = 500;

// What the game screen needs of the page around it.
export interface GameScreenHost {
  send(m: ClientMessage, what?: Pending): boolean;
  notify(text: string, error?: boolean): void;
  setScreen(name: string, ...children: HTMLElement[]): void;
  onGameScreen(): boolean;
  readonly sounds: Sounds;
}

export class GameScreen {
  private readonly input = new MoveInput();
  private readonly boardView: BoardView;
  private premoving = false; // `input` enters a premove (the opponent is to move)
  private confirming: Move | null = null; // a move entered, waiting for Confirm (settings)
  private territory = localStorage.getItem(TERRITORY_KEY) === "1";
  private parts: Record<string, HTMLElement> = {};
  private flipGame = false; // the game board turned from its usual side (yours at the bottom)
  private lookPly: number | null = null; // an earlier position of the game shown; null: the game now
  private readonly lowTimeWarned = new Set<string>(); // games whose low-time warning has sounded

  constructor(private readonly store: Store, private readonly app: GameScreenHost) {
    this.boardView = new BoardView(this.input, (m) => this.sendMove(m), () => this.render());
    // Right click and Esc take back a premove, or a move waiting for Confirm.
    this.boardView.beforeBack = () => this.cancelPremove() || (this.confirming !== null && (this.cancelConfirm(), true));
  }

  // The keys of the game screen: Esc takes back a premove or a stage of the move being entered;
  // the arrows step through the earlier positions.
  key(e: KeyboardEvent): void {
    if (e.key === "Escape" && !this.cancelPremove()) this.boardView.back();
    if (!(e.target instanceof HTMLInputElement) && (e.key === "ArrowLeft" || e.key === "ArrowRight")) this.lookBack(e.key === "ArrowLeft" ? -1 : 1);
  }

  // Whether the territory view is on (the replay shows it too).
  territoryShown(): boolean {
    return this.territory;
  }

  // Says what happened in the game to screen readers.
  announce(text: string): void {
    if (this.parts.announce) replaceChildren(this.parts.announce, text);
  }

  // The clocks run and the claim becomes possible; one low-time warning a game.
  tick(): void {
    const g = this.store.current ? this.store.games.get(this.store.current) : undefined;
    if (!g || g.status !== "active") return;
    const flipped = (g.color === "black") !== this.flipGame;
    const left = g.color ? g.remaining(g.color) : null;
    if (left !== null && left < LOW_TIME_MS && left > 0 && g.myTurn() && !this.lowTimeWarned.has(g.id)) {
      this.lowTimeWarned.add(g.id);
      this.app.sounds.play("low-time");
    }
    renderSeat(this.parts.top, g, flipped ? "white" : "black");
    renderSeat(this.parts.bottom, g, flipped ? "black" : "white");
    if (g.claimAt !== undefined && Math.abs(g.claimAt - performance.now()) < 100) this.render();
  }

  show(id: string): void {
    const g = this.store.games.get(id);
    if (!this.app.onGameScreen() || this.parts.id?.dataset.game !== id) this.build(id);
    if (!g) return;
    if (g.myTurn() && !g.moveSent) {
      // The opponent's move is here: a premove goes out at once if it is still legal.
      const out = g.premove.resolve(g.board);
      if (out && out.notice === null) {
        this.premoving = false;
        this.input.disable();
        return this.sendMove(out.move);
      }
      if (out?.notice) this.app.notify(out.notice, true);
    }
    this.premoving = g.opponentThinking() && !g.premove.move;
    if (this.confirming && (!g.myTurn() || g.moveSent || !g.board.isLegal(this.confirming))) this.confirming = null;
    if (this.premoving) this.input.reset(premoveBoard(g.board, g.color!), true);
    else if (this.confirming) this.input.disable();
    else this.input.reset(g.board, g.myTurn() && !g.moveSent);
    this.render();
  }

  // Right click or Esc with a premove pending; false when there was none.
  cancelPremove(): boolean {
    const g = this.store.current ? this.store.games.get(this.store.current) : undefined;
    if (!this.app.onGameScreen() || !g || !g.premove.cancel()) return false;
    this.app.notify(t("game.premove_cancelled"));
    this.show(g.id);
    return true;
  }

  // Steps through the game's earlier positions (the board shows them; moves go on meanwhile);
  // past the last move it is the game now again.
  lookBack(step: number | "live"): void {
    const g = this.store.current ? this.store.games.get(this.store.current) : undefined;
    if (!g) return;
    const at = this.lookPly ?? g.moves.length;
    const next = step === "live" ? g.moves.length : Math.max(0, Math.min(g.moves.length, at + step));
    this.lookPly = next >= g.moves.length ? null : next;
    this.show(g.id);
  }

  private build(id: string): void {
    this.lookPly = null;
    const chatInput = h("input", { id: "chat-input", maxlength: MAX_CHAT_BYTES, placeholder: t("game.chat.placeholder"), "aria-label": t("game.chat.placeholder") });
    const chatForm = h("form", { class: "chat-form" }, chatInput, h("button", { type: "submit" }, t("game.chat.send")));
    chatForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      if (new TextEncoder().encode(text).length > MAX_CHAT_BYTES) return this.app.notify(t("game.chat.too_long", { max: MAX_CHAT_BYTES }), true);
      if (this.app.send({ type: "chat", game: id, text })) chatInput.value = "";
    });
    const territory = h("input", { type: "checkbox", id: "territory", checked: this.territory });
    territory.addEventListener("change", () => {
      this.territory = territory.checked;
      localStorage.setItem(TERRITORY_KEY, this.territory ? "1" : "0");
      this.render();
    });
    this.parts = {
      id: h("div", { class: "game", "data-game": id }),
      top: h("div", { class: "seat top" }),
      bottom: h("div", { class: "seat bottom" }),
      status: h("div", { class: "status", id: "status" }),
      result: h("div", { class: "result", id: "result" }),
      invite: h("div", { class: "invite", id: "invite-box" }),
      actions: h("div", { class: "actions", id: "actions" }),
      moves: h("ol", { class: "moves", id: "moves" }),
      chat: h("div", { class: "chat-log", id: "chat-log" }),
      // What happens in the game, for screen readers (visually hidden).
      announce: h("div", { class: "sr-only", id: "announce", "aria-live": "polite" }),
      typed: h("div", { class: "typed-move" }),
    };
    const p = this.parts;
    p.result.hidden = p.invite.hidden = true;
    append(p.id,
      h("div", { class: "board-col" }, p.top, this.boardView.el, p.bottom),
      h("aside", { class: "panel card" },
        h("h1", { class: "panel-title" }, t("game.title", { game: id })), p.status, p.announce, p.result, p.invite, p.actions, p.typed,
        h("label", { class: "check" }, territory, t("game.territory")),
        h("h2", {}, t("game.moves")), p.moves,
        h("h2", {}, t("game.chat")), p.chat,
        this.store.me ? chatForm : h("p", { class: "muted", id: "visitor-note" }, t("visitor.watching.before"), h("a", { href: "#/", id: "visitor-signin" }, t("visitor.watching.link")), t("visitor.watching.after"))));
    replaceChildren(p.typed, ...typedMoveForm(() => {
      const g = this.store.current ? this.store.games.get(this.store.current) : undefined;
      return g && g.myTurn() && !g.moveSent && this.lookPly === null ? g.board : null;
    }, (m) => this.sendMove(m)));
    this.app.setScreen("game", p.id);
  }

  render(): void {
    if (!this.app.onGameScreen() || !this.store.current) return;
    const g = this.store.games.get(this.store.current);
    const p = this.parts;
    this.boardView.el.hidden = !g;
    if (!g) {
      replaceChildren(p.status, this.store.linkState === "open" ? t("game.asking") : t("connection.reconnecting"));
      return;
    }
    const flipped = (g.color === "black") !== this.flipGame;
    renderSeat(p.top, g, flipped ? "white" : "black");
    renderSeat(p.bottom, g, flipped ? "black" : "white");
    const looking = this.lookPly !== null && this.lookPly < g.moves.length ? this.lookPly : null;
    if (looking === null) {
      this.boardView.show({ board: g.board, lastMove: g.lastMove(), flipped, territory: this.territory ? territoryMap(g.board) : null, premove: g.premove.move ?? this.confirming });
    } else {
      const then = replay(g.variant, g.moves.slice(0, looking));
      this.input.disable();
      this.boardView.show({ board: then.board, lastMove: then.played[looking - 1] ?? null, flipped, territory: this.territory ? territoryMap(then.board) : null });
    }
    this.boardView.el.classList.toggle("looking-back", looking !== null);

    const status = statusLine(g, { connected: this.store.linkState === "open", confirming: this.confirming, premoving: this.premoving, stage: this.input.stage });
    const confirm = this.confirming && looking === null ? h("div", { class: "actions confirm-move" },
      h("button", { class: "primary", id: "confirm-move", onclick: () => { if (this.confirming) this.sendMove(this.confirming); } }, t("game.confirm_move")),
      h("button", { id: "cancel-move", onclick: () => this.cancelConfirm() }, t("common.cancel"))) : null;
    replaceChildren(p.status, h("span", g.premove.move ? { class: "premove-line" } : {}, status), confirm, g.spectators > 0 ? h("span", { class: "muted" }, ` · ${t("game.spectators", { count: g.spectators })}`) : null,
      g.problem ? h("div", { class: "error" }, g.problem) : null,
      looking !== null ? h("div", { class: "looking", id: "looking" }, t("game.looking", { ply: looking, plies: g.moves.length }) + " ",
        h("button", { id: "back-live", onclick: () => this.lookBack("live") }, t("game.back_live"))) : null);
    p.status.dataset.state = g.status;
    p.status.dataset.premove = g.premove.move ? formatMove(g.premove.move, g.board.size) : "";

    renderResult(p.result, g);
    p.typed.hidden = g.color === undefined || g.status !== "active"; // only a player types moves

    const invite = g.invite ?? this.store.invites.get(g.id);
    if (invite && g.status === "open" && g.color !== undefined) {
      const url = `${location.origin}/#/join/${g.id}/${invite}`;
      const copy = h("button", { id: "copy-invite" }, t("common.copy"));
      copy.addEventListener("click", async () => {
        copy.textContent = (await copyText(url)) ? t("common.copied") : t("common.copy_failed");
      });
      replaceChildren(p.invite, h("div", {}, t("game.invite.explain")), h("div", { class: "row" }, h("input", { id: "invite-link", readonly: true, value: url, "aria-label": t("game.invite.link") }), copy));
      p.invite.hidden = false;
    } else {
      p.invite.hidden = true;
    }

    const actions: HTMLElement[] = [];
    const player = g.color !== undefined;
    if (player && g.status === "active") {
      if (g.moves.length < 2) actions.push(h("button", { id: "abort", onclick: () => this.app.send({ type: "abort", game: g.id }) }, t("game.abort")));
      else actions.push(confirmButton("resign", t("game.resign"), t("game.resign.confirm"), () => this.app.send({ type: "resign", game: g.id })));
      const opponent = other(g.color!);
      if (g.offline.includes(opponent)) {
        const wait = g.claimAt !== undefined ? Math.max(0, g.claimAt - performance.now()) : 0;
        actions.push(h("button", { id: "claim", disabled: wait > 0, onclick: () => this.app.send({ type: "claim", game: g.id }) }, wait > 0 ? t("game.claim.in", { seconds: Math.ceil(wait / 1000) }) : t("game.claim")));
      }
    }
    if (player && g.status === "open") actions.push(h("button", { id: "cancel-game", onclick: () => { this.app.send({ type: "leave", game: g.id }); this.store.waiting = null; this.store.myGames.delete(g.id); location.hash = "#/"; } }, t("game.cancel_game")));
    if (player && g.status === "finished" && g.result?.reason !== "aborted") {
      const label = g.rematchSent ? t("game.rematch.sent") : g.rematchFrom ? t("game.rematch.accept", { player: g.rematchFrom }) : t("game.rematch");
      actions.push(h("button", { id: "rematch", class: g.rematchFrom ? "primary" : "", disabled: g.rematchSent, onclick: () => {
        if (this.app.send({ type: "rematch", game: g.id })) g.rematchSent = true;
        this.render();
      } }, label));
    }
    if (g.status === "finished") actions.push(h("a", { class: "button", href: `#/replay/${g.id}`, id: "replay-link" }, t("game.replay")));
    actions.push(h("button", { id: "flip", title: t("game.flip.title"), onclick: () => { this.flipGame = !this.flipGame; this.render(); } }, t("game.flip")));
    actions.push(h("a", { class: "button quiet", href: "#/", id: "back-lobby" }, t("nav.lobby")));
    replaceChildren(p.actions, ...actions);

    renderMoveList(p.moves, g.moves, looking, (ply) => {
      this.lookPly = ply;
      this.lookBack(0);
    });
    this.renderChat();
  }

  renderChat(): void {
    if (!this.app.onGameScreen() || !this.store.current) return;
    const g = this.store.games.get(this.store.current);
    const el = this.parts.chat;
    if (!g || !el) return;
    replaceChildren(el, ...g.chat.map((c) => h("div", { class: "line" }, h("b", {}, c.from + ": "), c.text)));
    el.scrollTop = el.scrollHeight;
  }

  private sendMove(m: Move): void {
    const g = this.store.current ? this.store.games.get(this.store.current) : undefined;
    if (!g) return;
    if (this.premoving) {
      this.premoving = g.premove.set(g.board, g.color!, m);
      if (!this.premoving) this.show(g.id); // the board changed under it: enter it again
      else this.render();
      return;
    }
    if (confirmMoves() && !sameMove(this.confirming, m)) {
      // The move waits on the board (drawn as a premove is) for Confirm or Cancel.
      this.confirming = m;
      this.input.disable();
      this.render();
      return;
    }
    this.confirming = null;
    if (this.app.send({ type: "move", game: g.id, move: formatMove(m, g.board.size) }, { kind: "move", game: g.id })) g.moveSent = true;
    else this.input.reset(g.board, g.myTurn());
    this.render();
  }

  private cancelConfirm(): void {
    const g = this.store.current ? this.store.games.get(this.store.current) : undefined;
    this.confirming = null;
    if (g) this.input.reset(g.board, g.myTurn() && !g.moveSent);
    this.render();
  }
}

function append(el: HTMLElement, ...children: HTMLElement[]): void {
  for (const c of children) el.appendChild(c);
}
