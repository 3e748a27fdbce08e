// The game screen's parts drawn from the game's state (game.ts's GameModel): the seats with their
// clocks, the status line, the result, the move list, the typed-move form and the two-click
// button. game_screen.ts keeps what the screen does (moves sent, premoves, looking back); these only
// draw what it hands them.
import type { Color } from "@protocol";
import { formatClock, h, replaceChildren } from "./dom";
import { type GameModel, playerText, resultReason, resultTitle, sideName } from "./game";
import { formatSigned, t } from "./i18n";
import { icon } from "./icons";
import type { Stage } from "./input";
import { type Board, type Move, completeMove, formatMove, parseMove } from "./rules";
import { LOW_TIME_MS } from "./sound";

// A seat's player: the rating the game started with, and after a rated game's end the new one
// with the change ("alice (1338, -162)"), as the header shows it.
export function seatText(g: GameModel, c: Color): string {
  const p = g.player(c);
  const r = g.ratings[c];
  if (!p || !r) return playerText(p);
  return t(p.bot ? "player.bot_with_rating_change" : "player.with_rating_change", { name: p.name, rating: r.rating, change: formatSigned(r.change) });
}

export function renderSeat(el: HTMLElement, g: GameModel, c: Color): void {
  const ms = g.remaining(c);
  const running = g.status === "active" && g.board.toMove === c;
  const low = ms !== null && ms < LOW_TIME_MS && g.status === "active";

  const offline = g.offline.includes(c);
  replaceChildren(el,
    h("span", { class: `token ${c}` }, icon("queen")),
    h("span", { class: "name" }, seatText(g, c), offline ? h("span", { class: "offline" }, ` ${t("game.seat.offline")}`) : null, g.color === c ? h("span", { class: "you" }, ` ${t("game.seat.you")}`) : null),
    ms !== null ? h("span", { class: `clock${running ? " running" : ""}${low ? " low" : ""}`, id: `clock-${c}` }, formatClock(ms)) : null);
  el.classList.toggle("to-move", running);
}

// What the status line says: whose move, what the input waits for, a premove or a move waiting
// for Confirm.
export function statusLine(g: GameModel, now: { connected: boolean; confirming: Move | null; premoving: boolean; stage: Stage }): string {
  if (!now.connected) return t("connection.reconnecting");
  if (g.status === "open") return t("game.status.waiting_for_opponent");
  if (g.status === "finished") return t("game.status.over");
  if (g.color === undefined) return t("game.status.watching", { side: sideName(g.board.toMove) });
  if (g.moveSent) return t("game.status.sending");
  if (now.confirming) return t("game.status.confirm", { move: formatMove(now.confirming, g.board.size) });
  if (g.premove.move) return g.premove.panelLine(g.board.size);
  if (now.premoving && now.stage === "destination") return t("game.status.premove_destination");
  if (now.premoving && now.stage === "arrow") return t("game.status.premove_arrow");
  if (g.myTurn()) return now.stage === "arrow" ? t("game.status.your_move_arrow") : now.stage === "destination" ? t("game.status.your_move_destination") : t("game.status.your_move_queen");
  return now.premoving ? t("game.status.waiting_for_side_premove", { side: sideName(g.board.toMove) }) : t("game.status.waiting_for_side", { side: sideName(g.board.toMove) });
}

// The result in the player's words, why, and the rating changes; hidden while the game is on.
export function renderResult(el: HTMLElement, g: GameModel): void {
  if (!g.result) {
    el.hidden = true;
    return;
  }
  const rating = (c: Color) => {
    const r = g.ratings[c];
    return r ? t("game.result.rating", { side: sideName(c), rating: r.rating, change: formatSigned(r.change) }) : null;
  };
  const ratings = [rating("white"), rating("black")].filter(Boolean).join(" · ");
  replaceChildren(el, h("strong", { id: "result-title" }, resultTitle(g.result, g.color)), h("div", { id: "result-reason" }, resultReason(g.result)), ratings ? h("div", { class: "muted" }, ratings) : null);
  el.hidden = false;
}

// The moves, two to a row; each shows the position after it when clicked (`look`), the one
// shown marked. `looking`: the ply shown when it is not the game now.
export function renderMoveList(el: HTMLElement, moves: readonly string[], looking: number | null, look: (ply: number) => void): void {
  const shown = looking ?? moves.length;
  const cell = (k: number) => k < moves.length
    ? h("button", { class: `mv${k + 1 === shown ? " current" : ""}`, type: "button", "data-ply": k + 1, "aria-label": t("game.moves.show_after", { ply: k + 1, move: moves[k] }), onclick: () => look(k + 1) }, moves[k])
    : null;
  const rows: HTMLElement[] = [];
  for (let i = 0; i < moves.length; i += 2) rows.push(h("li", {}, cell(i), cell(i + 1)));
  replaceChildren(el, ...rows);
  el.dataset.plies = String(moves.length);
  if (looking === null) el.scrollTop = el.scrollHeight;
}

// A button that asks again ("Really resign?") before it acts; the question lapses after 4 s.
export function confirmButton(id: string, label: string, confirm: string, act: () => void): HTMLButtonElement {
  const b = h("button", { id, class: "danger" }, label);
  let armed = false;
  b.addEventListener("click", () => {
    if (armed) return act();
    armed = true;
    b.textContent = confirm;
    window.setTimeout(() => {
      armed = false;
      b.textContent = label;
    }, 4000);
  });
  return b;
}

// Moves typed in the notation (d1-d7/g7), as in the terminal client: the legal moves that
// what is typed begins are counted as one types, Tab completes as far as they agree, Enter
// plays the one move meant. `board`: the position a move is typed for, null when none may be.
export function typedMoveForm(board: () => Board | null, play: (m: Move) => void): HTMLElement[] {
  const field = h("input", { id: "move-input", autocomplete: "off", spellcheck: "false", placeholder: t("game.typed.placeholder"), "aria-label": t("game.typed.label"), "aria-describedby": "move-hint" });
  const hint = h("div", { class: "muted", id: "move-hint", "aria-live": "polite" });
  const form = h("form", { class: "row" }, field, h("button", { type: "submit", id: "move-submit" }, t("game.typed.play")));
  const explain = () => {
    const b = board();
    const typed = field.value.trim();
    if (!b) return replaceChildren(hint, typed ? t("game.typed.not_your_move") : "");
    if (!typed) return replaceChildren(hint);
    const options = completeMove(b, typed);
    replaceChildren(hint, options.length === 0 ? t("game.typed.none", { typed }) : options.length === 1 ? t("game.typed.one", { move: options[0] }) : t("game.typed.many", { count: options.length }));
  };
  field.addEventListener("input", explain);
  field.addEventListener("keydown", (e) => {
    const b = board();
    if (e.key !== "Tab" || !b || !field.value.trim()) return;
    const options = completeMove(b, field.value);
    if (options.length === 0) return;
    e.preventDefault();
    let common = options[0];
    for (const o of options) while (!o.startsWith(common)) common = common.slice(0, -1);
    field.value = common;
    explain();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const b = board();
    if (!b) return explain();
    const options = completeMove(b, field.value);
    const m = options.length === 1 ? parseMove(options[0], b.size) : null;
    if (!m) return explain();
    field.value = "";
    replaceChildren(hint);
    play(m);
  });
  return [form, hint];
}
