// The lobby (#/): quick pairing by time-control tiles, a new game's form, joining a private game
// by its invite, and the lists (your turn, your games, challenges, open games, games in progress,
// tournaments, players online, the leaderboard's top), each folded away when empty unless it says
// what to do. The screen keeps its form between visits; the page sends what it asks for.
import type { ColorChoice, GameSummary, LeaderboardEntry, OnlinePlayer, ServerMessageOf, TimeControl } from "@protocol";
import { h, replaceChildren } from "./dom";
import { TIME_CHOICES, playerText, ratedText, rulesName, sideName, timeChoiceText, timeText } from "./game";
import { formatNumber, t } from "./i18n";

const RULES = ["standard", "botzone8"];
const LOBBY_LEADERS = 10; // the lobby shows the top of the leaderboard, its page more

// The lobby's quick pairing tiles, as lichess's: rated games at the usual speeds.
const TILES: { id: string; label: () => string; rules: string; time: TimeControl }[] = [
  { id: "3+2", label: () => "3 + 2", rules: "standard", time: { initial: 180, increment: 2 } },
  { id: "5+5", label: () => "5 + 5", rules: "standard", time: { initial: 300, increment: 5 } },
  { id: "10+10", label: () => "10 + 10", rules: "standard", time: { initial: 600, increment: 10 } },
  { id: "30", label: () => t("lobby.tile.minutes", { minutes: 30 }), rules: "standard", time: { initial: 1800, increment: 0 } },
  { id: "8x8-3+2", label: () => "3 + 2", rules: "botzone8", time: { initial: 180, increment: 2 } },
  { id: "1d", label: () => t("lobby.tile.days", { days: 1 }), rules: "standard", time: { per_move: 86400 } },
];

export interface GameSettings {
  rules: string;
  time: TimeControl;
  color: ColorChoice;
  rated: boolean;
}

// What the lobby asks the page to do.
export interface LobbyActions {
  create(s: GameSettings, isPrivate: boolean): void;
  seek(rules: string, time: TimeControl, rated: boolean): void; // a seek under way is replaced
  unseek(): void;
  join(game: string): void;
  leave(game: string): void;
  accept(challenge: string): void;
  decline(challenge: string): void;
  challenge(player: string, s: GameSettings): void;
  notify(text: string, error?: boolean): void;
}

// What the lists show, read from the page's state when it changes.
export interface LobbyData {
  me: string | null;
  openGames: readonly GameSummary[];
  players: readonly OnlinePlayer[];
  leaderboard: readonly LeaderboardEntry[];
  challenges: readonly ServerMessageOf<"challenge">[];
  seeking: ServerMessageOf<"seeking"> | null;
  myGames: readonly { id: string; text: string }[]; // "Game 3 against bob · your move"
  yourTurns: HTMLElement[];
  tournaments: HTMLElement[];
}

// The leaderboard's first `count` players, each linked to their page.
export function leaderTable(leaderboard: readonly LeaderboardEntry[], count: number): HTMLElement {
  const rows = leaderboard.slice(0, count).map((x, i) =>
    h("tr", { "data-name": x.name }, h("td", {}, String(i + 1)), h("td", {}, h("a", { href: `#/archive/${encodeURIComponent(x.name)}` }, x.bot ? t("player.bot", { name: x.name }) : x.name)), h("td", {}, formatNumber(x.rating)), h("td", {}, formatNumber(x.games))),
  );
  return rows.length ? h("table", { class: "leaders" }, h("tr", {}, ...["#", t("leaderboard.player"), t("leaderboard.rating"), t("leaderboard.games")].map((x) => h("th", { scope: "col" }, x))), ...rows) : h("p", { class: "muted" }, t("leaderboard.empty"));
}

export class LobbyScreen {
  private parts: Record<string, HTMLElement> = {};
  private seeking = false;
  private readonly form = {
    rules: h("select", { id: "rules" }, ...RULES.map((r) => h("option", { value: r }, rulesName(r)))),
    time: h("select", { id: "time" }, ...TIME_CHOICES.map((c, i) => h("option", { value: String(i) }, timeChoiceText(c.time)))),
    color: h("select", { id: "color" }, h("option", { value: "random" }, t("lobby.color.random")), h("option", { value: "white" }, sideName("white")), h("option", { value: "black" }, sideName("black"))),
    rated: h("input", { type: "checkbox", id: "rated" }),
    private: h("input", { type: "checkbox", id: "private" }),
    invite: h("input", { id: "invite", placeholder: t("lobby.invite.placeholder") }),
  };

  constructor(private readonly act: LobbyActions) {}

  private settings(): GameSettings {
    return {
      rules: this.form.rules.value,
      time: TIME_CHOICES[Number(this.form.time.value)]?.time ?? null,
      color: this.form.color.value as ColorChoice,
      rated: this.form.rated.checked,
    };
  }

  // The screen anew (the lists empty until renderLists).
  build(): HTMLElement {
    const f = this.form;
    const create = h("button", { class: "primary", id: "create", onclick: () => this.act.create(this.settings(), f.private.checked) }, t("lobby.create"));
    const quick = h("button", { id: "quick", onclick: () => {
      const s = this.settings();
      if (this.seeking) this.act.unseek();
      else this.act.seek(s.rules, s.time, s.rated);
    } }, t("lobby.quick"));
    const joinPrivate = h("button", { id: "join-private", onclick: () => {
      const text = f.invite.value.trim();
      const link = /#\/join\/([^/]+)\/([^/\s]+)/.exec(text);
      const plain = /^(\S+)[\s,]+(\S+)$/.exec(text);
      const m = link ?? plain;
      if (!m) return this.act.notify(t("lobby.invite.bad"), true);
      location.hash = `#/join/${m[1]}/${m[2]}`;
    } }, t("lobby.join"));
    this.parts = {
      turns: h("div", { class: "section", id: "your-turn" }),
      mine: h("div", { class: "section", id: "my-games" }),
      tournaments: h("div", { class: "section", id: "tournaments" }),
      open: h("div", { class: "section", id: "open-games" }),
      live: h("div", { class: "section", id: "live-games" }),
      challenges: h("div", { class: "section", id: "challenges" }),
      players: h("div", { class: "section", id: "players" }),
      leaders: h("div", { class: "section", id: "leaderboard" }),
      waiting: h("div", { class: "waiting", id: "waiting" }),
      quick,
    };
    const p = this.parts;
    return h("div", { class: "lobby" },
      h("div", { class: "lists card" }, h("h1", {}, t("nav.lobby")), p.turns, p.mine, p.challenges, p.open, p.live, p.tournaments, p.players, p.leaders),
      h("div", { class: "new card" },
        h("h2", {}, t("lobby.quick")),
        h("p", { class: "muted" }, t("lobby.quick.explain")),
        h("div", { class: "tiles", id: "tiles" }, ...TILES.map((tile) => h("button", { class: "tile", id: `tile-${tile.id}`, "aria-label": t("lobby.tile.label", { rules: rulesName(tile.rules), time: timeText(tile.time) }), onclick: () => this.act.seek(tile.rules, tile.time, true) },
          h("strong", {}, tile.label()), h("span", { class: "muted" }, rulesName(tile.rules))))),
        h("h2", {}, t("lobby.new_game")),
        h("label", {}, t("lobby.rules"), f.rules),
        h("label", {}, t("lobby.time_control"), f.time),
        h("label", {}, t("lobby.your_colour"), f.color),
        h("label", { class: "check" }, f.rated, t("lobby.rated")),
        h("label", { class: "check" }, f.private, t("lobby.private")),
        h("div", { class: "row" }, create, quick),
        p.waiting,
        h("h2", {}, t("lobby.private_game")),
        h("div", { class: "row" }, f.invite, joinPrivate),
        h("h2", {}, t("lobby.practice")),
        h("a", { class: "button", href: "#/computer", id: "play-computer" }, t("home.play_computer")),
        h("a", { class: "button", href: "#/analysis", id: "open-analysis" }, t("home.analysis_board"))));
  }

  // A lobby list; an empty one is folded away unless `empty` says what to do about it.
  private section(el: HTMLElement | undefined, title: string, empty: string | null, rows: HTMLElement[]): void {
    if (!el) return;
    el.hidden = rows.length === 0 && empty === null;
    replaceChildren(el, h("h2", {}, title), ...(rows.length ? rows : empty ? [h("p", { class: "muted" }, empty)] : []));
  }

  renderLists(d: LobbyData): void {
    const p = this.parts;
    const me = d.me;
    this.seeking = d.seeking !== null;
    this.section(p.turns, t("lobby.your_turn"), null, d.yourTurns);
    this.section(p.mine, t("lobby.your_games"), null, d.myGames.map((g) =>
      h("div", { class: "item" }, h("span", {}, g.text), h("a", { class: "button primary", href: `#/game/${g.id}`, id: `resume-${g.id}` }, t("lobby.open")))));
    this.section(p.tournaments, t("lobby.tournaments"), null, [...d.tournaments,
      h("div", { class: "item" }, h("a", { class: "button quiet", href: "#/tournaments/new", id: "create-tournament" }, t("lobby.create_tournament")))]);
    this.section(p.open, t("lobby.open_games"), t("lobby.open_games.empty"), d.openGames.filter((g) => g.status === "open").map((g) => {
      const host = g.white ?? g.black;
      const yours = host?.name === me;
      const label = [playerText(host), rulesName(g.rules), timeText(g.time), ratedText(g.rated), g.white ? t("lobby.you_play_black") : t("lobby.you_play_white")].join(" · ");
      return h("div", { class: "item" },
        h("span", {}, yours ? t("lobby.your_game_waiting", { game: g.game }) : label),
        yours
          ? h("button", { class: "quiet", onclick: () => this.act.leave(g.game) }, t("common.cancel"))
          : h("button", { class: "primary", id: `join-${g.game}`, onclick: () => this.act.join(g.game) }, t("lobby.join")));
    }));
    this.section(p.live, t("lobby.live_games"), null, d.openGames.filter((g) => g.status === "active").map((g) =>
      h("div", { class: "item" }, h("span", {}, [t("game.players", { white: playerText(g.white), black: playerText(g.black) }), rulesName(g.rules), timeText(g.time), t("game.move_number", { n: g.plies + 1 })].join(" · ")),
        h("a", { class: "button", href: `#/game/${g.game}`, id: `watch-${g.game}` }, t("lobby.watch")))));
    this.section(p.challenges, t("lobby.challenges"), null, d.challenges.map((c) =>
      h("div", { class: "item" },
        h("span", {}, [playerText(c.from), rulesName(c.rules), timeText(c.time), ratedText(c.rated), c.color === "random" ? t("lobby.they_play_random") : t("lobby.they_play", { side: sideName(c.color) })].join(" · ")),
        h("span", { class: "buttons" },
          h("button", { class: "primary", id: `accept-${c.challenge}`, onclick: () => this.act.accept(c.challenge) }, t("lobby.accept")),
          h("button", { class: "quiet", id: `decline-${c.challenge}`, onclick: () => this.act.decline(c.challenge) }, t("lobby.decline"))))));
    this.section(p.players, t("lobby.players"), t("lobby.players.empty"), d.players.filter((x) => x.name !== me).map((x) =>
      h("div", { class: "item" }, h("span", {}, `${playerText(x)} · ${t("lobby.player_games", { count: x.games })}`),
        h("button", { id: `challenge-${x.name}`, onclick: () => this.act.challenge(x.name, this.settings()) }, t("lobby.challenge")))));
    if (p.leaders) {
      replaceChildren(p.leaders, h("h2", {}, t("leaderboard.title")), leaderTable(d.leaderboard, LOBBY_LEADERS),
        d.leaderboard.length > 0 ? h("a", { class: "button quiet", href: "#/leaderboard", id: "all-leaders" }, t("leaderboard.all")) : null);
    }
    if (p.quick) p.quick.textContent = d.seeking ? t("lobby.stop_pairing") : t("lobby.quick");
    if (p.waiting) {
      replaceChildren(p.waiting, d.seeking ? h("p", { class: "seeking" }, t("lobby.seeking", { rules: rulesName(d.seeking.rules), time: timeText(d.seeking.time) }),
        h("button", { id: "cancel-seek", class: "quiet", onclick: () => this.act.unseek() }, t("common.cancel"))) : null);
    }
  }
}
