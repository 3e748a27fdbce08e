// The lobby (#/): quick pairing by time-control tiles, a new game's form, joining a private game
// by its invite, and the lists (your turn, your games, challenges, open games, games in progress,
// tournaments, players online, the leaderboard's top), each folded away when empty unless it says
// what to do. The screen keeps its form between visits; the page sends what it asks for.
import type { ColorChoice, GameSummary, LeaderboardEntry, OnlinePlayer, ServerMessageOf, TimeControl } from "@protocol";
import { h, replaceChildren } from "./dom";
import { TIME_CHOICES, playerText, timeText } from "./game";

const RULES = ["standard", "botzone8"];
const LOBBY_LEADERS = 10; // the lobby shows the top of the leaderboard, its page more

// The lobby's quick pairing tiles, as lichess's: rated games at the usual speeds.
const TILES: { id: string; label: string; rules: string; time: TimeControl }[] = [
  { id: "3+2", label: "3 + 2", rules: "standard", time: { initial: 180, increment: 2 } },
  { id: "5+5", label: "5 + 5", rules: "standard", time: { initial: 300, increment: 5 } },
  { id: "10+10", label: "10 + 10", rules: "standard", time: { initial: 600, increment: 10 } },
  { id: "30", label: "30 min", rules: "standard", time: { initial: 1800, increment: 0 } },
  { id: "8x8-3+2", label: "3 + 2", rules: "botzone8", time: { initial: 180, increment: 2 } },
  { id: "1d", label: "1 day", rules: "standard", time: { per_move: 86400 } },
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
    h("tr", { "data-name": x.name }, h("td", {}, String(i + 1)), h("td", {}, h("a", { href: `#/archive/${encodeURIComponent(x.name)}` }, x.name + (x.bot ? " (bot)" : ""))), h("td", {}, String(x.rating)), h("td", {}, String(x.games))),
  );
  return rows.length ? h("table", { class: "leaders" }, h("tr", {}, ...["#", "Player", "Rating", "Games"].map((t) => h("th", { scope: "col" }, t))), ...rows) : h("p", { class: "muted" }, "No rated games yet.");
}

export class LobbyScreen {
  private parts: Record<string, HTMLElement> = {};
  private seeking = false;
  private readonly form = {
    rules: h("select", { id: "rules" }, ...RULES.map((r) => h("option", { value: r }, r))),
    time: h("select", { id: "time" }, ...TIME_CHOICES.map((t, i) => h("option", { value: String(i) }, t.label))),
    color: h("select", { id: "color" }, h("option", { value: "random" }, "Random"), h("option", { value: "white" }, "White"), h("option", { value: "black" }, "Black")),
    rated: h("input", { type: "checkbox", id: "rated" }),
    private: h("input", { type: "checkbox", id: "private" }),
    invite: h("input", { id: "invite", placeholder: "17 ABCDEFGHJK, or the invite link" }),
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
    const create = h("button", { class: "primary", id: "create", onclick: () => this.act.create(this.settings(), f.private.checked) }, "Create game");
    const quick = h("button", { id: "quick", onclick: () => {
      const s = this.settings();
      if (this.seeking) this.act.unseek();
      else this.act.seek(s.rules, s.time, s.rated);
    } }, "Quick pairing");
    const joinPrivate = h("button", { id: "join-private", onclick: () => {
      const text = f.invite.value.trim();
      const link = /#\/join\/([^/]+)\/([^/\s]+)/.exec(text);
      const plain = /^(\S+)[\s,]+(\S+)$/.exec(text);
      const m = link ?? plain;
      if (!m) return this.act.notify("Type the game number and its invite code, e.g. \"17 ABCDEFGHJK\", or paste the invite link.", true);
      location.hash = `#/join/${m[1]}/${m[2]}`;
    } }, "Join");
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
      h("div", { class: "lists card" }, h("h1", {}, "Lobby"), p.turns, p.mine, p.challenges, p.open, p.live, p.tournaments, p.players, p.leaders),
      h("div", { class: "new card" },
        h("h2", {}, "Quick pairing"),
        h("p", { class: "muted" }, "Pick a time: you are paired with the next player who wants the same game."),
        h("div", { class: "tiles", id: "tiles" }, ...TILES.map((t) => h("button", { class: "tile", id: `tile-${t.id}`, "aria-label": `Quick pairing: ${t.rules}, ${timeText(t.time)}`, onclick: () => this.act.seek(t.rules, t.time, true) },
          h("strong", {}, t.label), h("span", { class: "muted" }, t.rules)))),
        h("h2", {}, "New game"),
        h("label", {}, "Rules", f.rules),
        h("label", {}, "Time control", f.time),
        h("label", {}, "Your colour", f.color),
        h("label", { class: "check" }, f.rated, "Rated"),
        h("label", { class: "check" }, f.private, "Private (join by invite link)"),
        h("div", { class: "row" }, create, quick),
        p.waiting,
        h("h2", {}, "Private game"),
        h("div", { class: "row" }, f.invite, joinPrivate),
        h("h2", {}, "Practice"),
        h("a", { class: "button", href: "#/computer", id: "play-computer" }, "Play the computer"),
        h("a", { class: "button", href: "#/analysis", id: "open-analysis" }, "Analysis board")));
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
    this.section(p.turns, "Your turn", null, d.yourTurns);
    this.section(p.mine, "Your games", null, d.myGames.map((g) =>
      h("div", { class: "item" }, h("span", {}, g.text), h("a", { class: "button primary", href: `#/game/${g.id}`, id: `resume-${g.id}` }, "Open"))));
    this.section(p.tournaments, "Tournaments", null, [...d.tournaments,
      h("div", { class: "item" }, h("a", { class: "button quiet", href: "#/tournaments/new", id: "create-tournament" }, "Create a tournament"))]);
    this.section(p.open, "Open games", "No open games: create one.", d.openGames.filter((g) => g.status === "open").map((g) => {
      const host = g.white ?? g.black;
      const yours = host?.name === me;
      const label = `${playerText(host)} · ${g.rules} · ${timeText(g.time)} · ${g.rated ? "rated" : "casual"} · ${g.white ? "you play black" : "you play white"}`;
      return h("div", { class: "item" },
        h("span", {}, yours ? `Your game ${g.game} · waiting` : label),
        yours
          ? h("button", { class: "quiet", onclick: () => this.act.leave(g.game) }, "Cancel")
          : h("button", { class: "primary", id: `join-${g.game}`, onclick: () => this.act.join(g.game) }, "Join"));
    }));
    this.section(p.live, "Games in progress", null, d.openGames.filter((g) => g.status === "active").map((g) =>
      h("div", { class: "item" }, h("span", {}, `${playerText(g.white)} vs ${playerText(g.black)} · ${g.rules} · ${timeText(g.time)} · move ${g.plies + 1}`),
        h("a", { class: "button", href: `#/game/${g.game}`, id: `watch-${g.game}` }, "Watch"))));
    this.section(p.challenges, "Challenges to you", null, d.challenges.map((c) =>
      h("div", { class: "item" },
        h("span", {}, `${playerText(c.from)} · ${c.rules} · ${timeText(c.time)} · ${c.rated ? "rated" : "casual"} · they play ${c.color}`),
        h("span", { class: "buttons" },
          h("button", { class: "primary", id: `accept-${c.challenge}`, onclick: () => this.act.accept(c.challenge) }, "Accept"),
          h("button", { class: "quiet", id: `decline-${c.challenge}`, onclick: () => this.act.decline(c.challenge) }, "Decline")))));
    this.section(p.players, "Players online", "Nobody else is online.", d.players.filter((x) => x.name !== me).map((x) =>
      h("div", { class: "item" }, h("span", {}, `${x.name} (${x.rating}${x.bot ? ", bot" : ""}) · ${x.games} ${x.games === 1 ? "game" : "games"}`),
        h("button", { id: `challenge-${x.name}`, onclick: () => this.act.challenge(x.name, this.settings()) }, "Challenge"))));
    if (p.leaders) {
      replaceChildren(p.leaders, h("h2", {}, "Leaderboard"), leaderTable(d.leaderboard, LOBBY_LEADERS),
        d.leaderboard.length > 0 ? h("a", { class: "button quiet", href: "#/leaderboard", id: "all-leaders" }, "The whole leaderboard") : null);
    }
    if (p.quick) p.quick.textContent = d.seeking ? "Stop pairing" : "Quick pairing";
    if (p.waiting) {
      replaceChildren(p.waiting, d.seeking ? h("p", { class: "seeking" }, `Looking for an opponent: ${d.seeking.rules}, ${timeText(d.seeking.time)}... You are paired with the next player who asks for the same.`,
        h("button", { id: "cancel-seek", class: "quiet", onclick: () => this.act.unseek() }, "Cancel")) : null);
    }
  }
}
