// What a visitor who has not signed in sees of the server (the server answers `list` and `watch`
// before hello, docs/PROTOCOL.md): the games being played now, and an invite's game with who
// invites them to what. Views only; main.ts asks the server and signs in.
import type { GameSummary } from "@protocol";
import { h } from "./dom";
import { GameModel, playerText, sideName, timeText } from "./game";

// How many live games the first screen lists.
export const LIVE_GAMES_SHOWN = 8;

// "Games being played now": the active games of the list, most watched first, each a link that
// opens it to watch. Nothing when none is being played.
export function liveGamesView(games: GameSummary[]): HTMLElement | null {
  const live = games
    .filter((g) => g.status === "active")
    .sort((a, b) => (b.spectators ?? 0) - (a.spectators ?? 0) || (b.plies ?? 0) - (a.plies ?? 0))
    .slice(0, LIVE_GAMES_SHOWN);
  if (live.length === 0) return null;
  return h("section", { class: "card", id: "live-games" },
    h("h2", {}, "Being played now"),
    h("ul", { class: "compact-list" }, ...live.map((g) =>
      h("li", {},
        h("a", { href: `#/game/${encodeURIComponent(g.game)}`, class: "live-game", "data-game": g.game },
          `${playerText(g.white)} vs ${playerText(g.black)}`),
        h("span", { class: "muted" }, ` · ${g.rules}, ${timeText(g.time)}, move ${(g.plies ?? 0) + 1}${(g.spectators ?? 0) > 0 ? `, ${g.spectators} watching` : ""}`)))),
    h("p", { class: "muted" }, "Open one to watch; no sign-in needed."));
}

// What an invite link opens to: who invites, to which game, and the seat it offers. `problem` is
// the server's answer when the game cannot be shown (a wrong code, or gone); null `game` while
// the server has not answered.
export function inviteView(gameId: string, game: GameModel | undefined, problem: string | null): HTMLElement {
  if (problem)
    return h("section", { class: "card invite-card", id: "invite-card" },
      h("h2", {}, "This invite cannot be used"),
      h("p", { id: "invite-problem" }, `Game ${gameId}: ${problem}. It may have been cancelled, or the link is incomplete.`));
  if (!game) return h("section", { class: "card invite-card", id: "invite-card" }, h("p", { class: "muted" }, "Looking up the invite..."));
  const host = game.white ?? game.black;
  const free = game.white ? "black" : "white";
  const what = `${game.rules}, ${timeText(game.time)}, ${game.rated ? "rated" : "casual"}`;
  if (game.status !== "open")
    return h("section", { class: "card invite-card", id: "invite-card" },
      h("h2", {}, "This game has started"),
      h("p", { id: "invite-text" }, `${playerText(game.white)} plays ${playerText(game.black)} (${what}).`),
      h("a", { class: "button", href: `#/game/${encodeURIComponent(gameId)}`, id: "invite-watch" }, "Watch it"));
  return h("section", { class: "card invite-card", id: "invite-card" },
    h("h2", { id: "invite-title" }, `${host?.name ?? "Someone"} invites you to a game`),
    h("p", { id: "invite-text" }, `${playerText(host)} · ${what}. You play ${sideName(free)}${free === "white" ? " and move first" : ""}.`),
    h("p", { class: "muted" }, "Take the guest name below or choose one, then accept: the game starts at once."));
}
