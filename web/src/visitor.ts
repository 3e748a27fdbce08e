// What a visitor who has not signed in sees of the server (the server answers `list` and `watch`
// before hello, docs/PROTOCOL.md): the games being played now, and an invite's game with who
// invites them to what. Views only; main.ts asks the server, signin_screen.ts draws the form.
import type { GameSummary } from "@protocol";
import { h } from "./dom";
import { GameModel, playerText, rulesName, timeText } from "./game";
import { t } from "./i18n";

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
    h("h2", {}, t("visitor.live.title")),
    h("ul", { class: "compact-list" }, ...live.map((g) =>
      h("li", {},
        h("a", { href: `#/game/${encodeURIComponent(g.game)}`, class: "live-game", "data-game": g.game },
          t("visitor.live.players", { white: playerText(g.white), black: playerText(g.black) })),
        h("span", { class: "muted" }, " · " + t("visitor.live.details", { rules: rulesName(g.rules), time: timeText(g.time), move: (g.plies ?? 0) + 1, watching: g.spectators ?? 0 }))))),
    h("p", { class: "muted" }, t("visitor.live.explain")));
}

// What an invite link opens to: who invites, to which game, and the seat it offers. `problem` is
// the server's answer when the game cannot be shown (a wrong code, or gone); null `game` while
// the server has not answered.
export function inviteView(gameId: string, game: GameModel | undefined, problem: string | null): HTMLElement {
  if (problem)
    return h("section", { class: "card invite-card", id: "invite-card" },
      h("h2", {}, t("visitor.invite.unusable")),
      h("p", { id: "invite-problem" }, t("visitor.invite.problem", { game: gameId, problem })));
  if (!game) return h("section", { class: "card invite-card", id: "invite-card" }, h("p", { class: "muted" }, t("visitor.invite.looking")));
  const host = game.white ?? game.black;
  const free = game.white ? "black" : "white";
  const what = t("visitor.invite.what", { rules: rulesName(game.rules), time: timeText(game.time), rated: game.rated ? "yes" : "no" });
  if (game.status !== "open")
    return h("section", { class: "card invite-card", id: "invite-card" },
      h("h2", {}, t("visitor.invite.started")),
      h("p", { id: "invite-text" }, t("visitor.invite.started_text", { white: playerText(game.white), black: playerText(game.black), what })),
      h("a", { class: "button", href: `#/game/${encodeURIComponent(gameId)}`, id: "invite-watch" }, t("visitor.invite.watch")));
  return h("section", { class: "card invite-card", id: "invite-card" },
    h("h2", { id: "invite-title" }, t("visitor.invite.title", { host: host?.name ?? "?" })),
    h("p", { id: "invite-text" }, t("visitor.invite.text", { host: playerText(host), what, side: free })),
    h("p", { class: "muted" }, t("visitor.invite.explain")));
}
