// The lobby's controller (#/ signed in) and the leaderboard's page (#/leaderboard): what the
// lobby's buttons ask of the server, the lists kept fresh while the lobby is shown, and each list
// drawn from the store (lobby_screen.ts draws them).
import type { ClientMessage } from "@protocol";
import { h } from "./dom";
import { t } from "./i18n";
import { LobbyScreen, leaderTable } from "./lobby_screen";
import { other } from "./rules";
import type { Pending, Store } from "./store";

const REFRESH_MS = 5000;
const LEADERBOARD_REFRESH_MS = 30_000;
const LOBBY_LEADERS = 20;
export const LEADERBOARD_PAGE = 100;

// What the lobby needs of the page.
export interface LobbyHost {
  send(m: ClientMessage, what?: Pending): boolean;
  notify(text: string, error?: boolean): void;
  isOpen(): boolean; // connected
  shown(): boolean; // the lobby is the screen
}

export class LobbyPage {
  private lastRefresh = 0;
  private lastLeaderboard = 0;
  private readonly screen: LobbyScreen;

  constructor(private readonly store: Store, private readonly host: LobbyHost) {
    const unseek = () => host.send({ type: "unseek" }, { kind: "other", what: "unseek" });
    this.screen = new LobbyScreen({
      create: (s, priv) => host.send({ type: "create", rules: s.rules, time: s.time, color: s.color, rated: s.rated, private: priv }),
      seek: (rules, time, rated) => {
        if (store.seeking) unseek();
        host.send({ type: "seek", rules, time, rated });
      },
      unseek,
      join: (game) => host.send({ type: "join", game }, { kind: "join", game }),
      leave: (game) => host.send({ type: "leave", game }),
      accept: (challenge) => {
        store.challenges.delete(challenge);
        host.send({ type: "accept", challenge });
      },
      decline: (challenge) => {
        store.challenges.delete(challenge);
        host.send({ type: "decline", challenge });
        this.renderLists();
      },
      challenge: (player, s) => host.send({ type: "challenge", player, rules: s.rules, time: s.time, color: s.color, rated: s.rated }),
      notify: (text, error) => host.notify(text, error),
    });
  }

  // The lobby's screen, its lists drawn from the store.
  view(): HTMLElement {
    const el = this.screen.build();
    this.draw();
    return el;
  }

  // Asks the server for the lists again: all of them, or those that change often (the leaderboard
  // at most every 30 s).
  refresh(all: boolean): void {
    if (!this.host.isOpen() || !this.store.me) return;
    this.lastRefresh = performance.now();
    this.host.send({ type: "list" });
    this.host.send({ type: "players" });
    this.host.send({ type: "turns" });
    this.host.send({ type: "tournaments" });
    if (all || performance.now() - this.lastLeaderboard > LEADERBOARD_REFRESH_MS) {
      this.lastLeaderboard = performance.now();
      this.host.send({ type: "leaderboard", limit: LOBBY_LEADERS });
    }
  }

  // Every 100 ms while the lobby is shown: the lists every 5 s.
  tick(): void {
    if (this.host.shown() && performance.now() - this.lastRefresh > REFRESH_MS) this.refresh(false);
  }

  // The lists from the store, when the lobby is the screen.
  renderLists(): void {
    if (this.host.shown()) this.draw();
  }

  private draw(): void {
    const s = this.store;
    this.screen.renderLists({
      me: s.me,
      openGames: s.openGames,
      players: s.players,
      leaderboard: s.leaderboard,
      challenges: [...s.challenges.values()],
      seeking: s.seeking,
      myGames: [...s.myGames].map((id) => ({ id, text: this.myGameText(id) })),
      yourTurns: s.yourTurns.rows(performance.now()),
      tournaments: s.tournaments.rows(Date.now()),
    });
  }

  // "Game 3 against bob · your move", from what the page knows of the game.
  private myGameText(id: string): string {
    const g = this.store.games.get(id);
    if (!g || g.color === undefined) return t("game.title", { game: id });
    const opponent = g.player(other(g.color))?.name;
    if (g.status === "open") return t("lobby.my_game.waiting", { game: id });
    const title = opponent ? t("lobby.my_game.against", { game: id, opponent }) : t("game.title", { game: id });
    return `${title} · ${g.myTurn() ? t("lobby.my_game.your_move") : opponent ? t("lobby.my_game.to_move", { player: opponent }) : t("lobby.my_game.their_move")}`;
  }
}

// The leaderboard's own page.
export function leaderboardView(store: Store): HTMLElement {
  return h("section", { class: "card", id: "leaderboard-page" }, h("h1", {}, t("leaderboard.title")),
    h("p", { class: "muted" }, t("leaderboard.explain")),
    leaderTable(store.leaderboard, LEADERBOARD_PAGE), h("a", { class: "button quiet", href: "#/" }, t("nav.lobby")));
}
