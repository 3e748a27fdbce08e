// The lobby's Tournaments list and the tournament screen: standings, the pairings of the round
// being played (or the last one), Join and Withdraw (docs/PROTOCOL.md "Tournaments"). The
// server runs the tournament and says what it is; every name here is shown as text.
import type { ServerMessageOf, TournamentPairing, TournamentStanding, TournamentSummary } from "@protocol";
import { h } from "./dom";
import { ratedText, rulesName, timeText } from "./game";
import { t } from "./i18n";

export type TournamentInfo = ServerMessageOf<"tournament">;

const ARENA_PAIRINGS_SHOWN = 12;
const FINISHED_SHOWN = 5; // in the lobby

export function kindText(kind: string): string {
  return kind === "arena" ? t("tournament.kind.arena") : kind === "round_robin" ? t("tournament.kind.round_robin") : kind === "swiss" ? t("tournament.kind.swiss") : kind;
}

// What the tiebreak column holds for this kind of tournament (server/tournament.h).
export function tiebreakName(kind: string): string {
  return kind === "arena" ? t("tournament.wins") : kind === "round_robin" ? t("tournament.tiebreak.sb") : kind === "swiss" ? t("tournament.tiebreak.buchholz") : t("tournament.tiebreak");
}

// Points and tiebreaks are halves (draws, byes) or quarters (Sonneborn-Berger of draws): no
// trailing zeros, at most two decimals.
// What the tiebreak column means, for the line under the standings.
export function tiebreakNote(kind: string): string {
  return kind === "round_robin" ? t("tournament.tiebreak.sb.note") :
    kind === "swiss" ? t("tournament.tiebreak.buchholz.note") :
    kind === "arena" ? t("tournament.tiebreak.arena.note") : "";
}

// The heading over the pairings: an arena's games, or which round of how many.
export function pairingsTitle(kind: string, pairings: TournamentPairing[], rounds: number): string {
  if (kind === "arena") return t("leaderboard.games");
  const round = Math.max(0, ...pairings.map((p) => p.round));
  if (round === 0) return t("tournament.pairings");
  return kind === "swiss" && rounds > 0 ? t("tournament.round_of", { round, rounds }) : t("tournament.round", { round });
}

export function pointsText(n: number): string {
  return String(Math.round(n * 100) / 100);
}

// "2026-12-01 22:10 UTC", with "in 12 s" / "in 5 min" before it while it is to come.
export function startText(startAt: string, nowMs: number): string {
  const at = Date.parse(startAt);
  const shown = `${startAt.slice(0, 16).replace("T", " ")} UTC`;
  if (Number.isNaN(at) || at <= nowMs) return shown;
  const s = Math.ceil((at - nowMs) / 1000);
  const soon = s < 120 ? t("duration.seconds", { n: s }) : s < 7200 ? t("duration.minutes", { n: Math.round(s / 60) }) : s < 172_800 ? t("duration.hours", { n: Math.round(s / 3600) }) : t("duration.days", { n: Math.round(s / 86_400) });
  return t("tournament.in", { soon, at: shown });
}

// An arena's length: "8 s", "45 min", "2 h 30 min".
export function durationText(seconds: number): string {
  if (seconds < 120) return t("duration.seconds", { n: seconds });
  const min = Math.round(seconds / 60);
  if (min < 120) return t("duration.minutes", { n: min });
  return min % 60 ? t("duration.hours_minutes", { h: Math.floor(min / 60), min: min % 60 }) : t("duration.hours", { n: min / 60 });
}

// Which of Join and Withdraw the tournament's screen offers, as the desktop client does: Join to
// someone not playing in it while it takes players (before it starts, and during an arena),
// Withdraw to a player in it until it ends. A withdrawn player may join again where joining is
// open.
export function tournamentActions(t: TournamentSummary, mine: TournamentStanding | undefined): { join: boolean; withdraw: boolean } {
  const playing = mine !== undefined && !mine.withdrawn;
  const open = t.status === "created" || (t.status === "running" && t.kind === "arena");
  return { join: !playing && open, withdraw: playing && t.status !== "finished" };
}

export function statusText(x: TournamentSummary): string {
  if (x.status === "created") return t("tournament.status.created");
  if (x.status === "running") return x.kind === "arena" || x.round === 0 ? t("tournament.status.running") : t("tournament.status.running_round", { round: x.round });
  return x.status === "finished" ? t("tournament.status.finished") : x.status;
}

// The pairings worth showing: the current (or last) round; in an arena, which has no rounds,
// the games being played and then the latest finished ones.
export function shownPairings(kind: string, pairings: TournamentPairing[]): TournamentPairing[] {
  if (kind === "arena" || pairings.every((p) => p.round === 0)) {
    const playing = pairings.filter((p) => p.state === "playing" || p.state === "pending");
    const rest = pairings.filter((p) => p.state !== "playing" && p.state !== "pending").reverse();
    return [...playing, ...rest].slice(0, ARENA_PAIRINGS_SHOWN);
  }
  const last = Math.max(0, ...pairings.map((p) => p.round));
  return pairings.filter((p) => p.round === last);
}

export function pairingText(p: TournamentPairing): string {
  if (p.state === "bye" || p.black === "") return t("tournament.pairing.bye", { player: p.white });
  const winner = p.result === "white" ? p.white : p.black;
  const result =
    p.state === "playing" ? t("tournament.pairing.playing") :
    p.state === "pending" ? t("tournament.pairing.pending") :
    p.state === "void" ? t("tournament.pairing.void") :
    p.result === "draw" ? t("tournament.pairing.draw") :
    p.result === "white" || p.result === "black" ? (p.state === "forfeit" ? t("tournament.pairing.won_forfeit", { player: winner }) : t("tournament.pairing.won", { player: winner })) :
    p.state;
  return `${t("game.players", { white: p.white, black: p.black })} · ${result}`;
}

export function lobbyList(list: TournamentSummary[]): TournamentSummary[] {
  const finished = list.filter((t) => t.status === "finished");
  return [...list.filter((t) => t.status !== "finished"), ...finished.slice(0, FINISHED_SHOWN)];
}

export interface TournamentActions {
  join(id: number): void;
  withdraw(id: number): void;
}

export class Tournaments {
  list: TournamentSummary[] = [];
  private details = new Map<number, TournamentInfo>();
  // The last refusal of a join or withdrawal, by tournament: the server's reason.
  private problems = new Map<number, string>();

  setList(list: TournamentSummary[]): void {
    this.list = list;
  }

  setDetail(m: TournamentInfo): void {
    this.details.set(m.tournament.id, m);
    const i = this.list.findIndex((t) => t.id === m.tournament.id);
    if (i >= 0) this.list[i] = m.tournament;
  }

  detail(id: number): TournamentInfo | undefined {
    return this.details.get(id);
  }

  setProblem(id: number, text: string | null): void {
    if (text === null) this.problems.delete(id);
    else this.problems.set(id, text);
  }

  // The lobby's rows, each opening the tournament's screen: the running and coming ones, then
  // the newest finished ones (the server keeps them all).
  rows(nowMs: number): HTMLElement[] {
    return lobbyList(this.list).map((x) =>
      h("div", { class: "item tournament", "data-tournament": String(x.id) },
        h("span", {}, [x.name, kindText(x.kind), statusText(x), t("tournament.players", { count: x.players }),
          t(x.status === "created" ? "tournament.starts_lower" : "tournament.started_lower", { when: startText(x.start_at, nowMs) })].join(" · ")),
        h("a", { class: "button", href: `#/tournament/${x.id}`, id: `tournament-${x.id}` }, t("lobby.open"))));
  }

  // The tournament's screen.
  view(id: number, me: string | null, nowMs: number, act: TournamentActions): HTMLElement {
    const info = this.details.get(id);
    const back = h("a", { class: "button quiet", href: "#/", id: "back-lobby" }, t("nav.lobby"));
    if (!info) return h("section", { class: "card" }, h("h1", {}, t("tournament.title", { id })), h("p", { class: "muted" }, t("archive.asking")), back);
    const x = info.tournament;
    const facts = [kindText(x.kind), rulesName(x.rules), timeText(x.time), ratedText(x.rated), statusText(x)];
    if (x.kind === "arena" && info.duration > 0) facts.push(durationText(info.duration));
    if (x.kind === "swiss" && info.rounds > 0) facts.push(t("tournament.rounds", { count: info.rounds }));
    if (info.max_players > 0) facts.push(t("tournament.max_players", { count: info.max_players }));
    if (!info.bots_allowed) facts.push(t("tournament.no_bots"));
    const when = x.status === "created" ? t("tournament.starts", { when: startText(x.start_at, nowMs) }) :
      x.status === "running" && info.ends_at ? t("tournament.ends", { when: startText(info.ends_at, nowMs) }) : t("tournament.started", { when: startText(x.start_at, nowMs) });
    const mine = info.standings.find((s) => s.name === me);
    const standing = mine ? (mine.withdrawn ? t("tournament.me.withdrawn") : t("tournament.me.playing")) : t("tournament.me.not_playing");
    const offer = tournamentActions(x, mine);
    const problem = this.problems.get(id);
    return h("section", { class: "card tournament-view", id: "tournament", "data-tournament": String(x.id), "data-status": x.status },
      h("h1", { id: "tournament-name" }, x.name),
      h("p", { id: "tournament-facts" }, facts.join(" · ")),
      h("p", { class: "muted", id: "tournament-when" }, when),
      h("div", { class: "actions" },
        offer.join ? h("button", { class: "primary", id: "tournament-join", onclick: () => act.join(x.id) }, t("lobby.join")) : null,
        offer.withdraw ? h("button", { id: "tournament-withdraw", onclick: () => act.withdraw(x.id) }, t("tournament.withdraw")) : null,
        back),
      h("p", { id: "tournament-me" }, standing),
      problem ? h("p", { class: "error", id: "tournament-problem", role: "alert" }, problem) : null,
      h("h2", {}, t("tournament.standings")),
      this.standings(x.kind, info.standings),
      h("p", { class: "muted", id: "tiebreak-note" }, tiebreakNote(x.kind)),
      h("h2", { id: "pairings-title" }, pairingsTitle(x.kind, info.pairings, info.rounds)),
      this.pairings(x.kind, info.pairings));
  }

  private standings(kind: string, rows: TournamentStanding[]): HTMLElement {
    if (rows.length === 0) return h("p", { class: "muted", id: "standings" }, t("tournament.standings.empty"));
    // An arena breaks ties by wins, which the W column already shows.
    const tiebreak = kind !== "arena";
    const columns: [string, string?][] = [["#", t("tournament.rank")], [t("leaderboard.player")], [t("tournament.points")], ...(tiebreak ? [[tiebreakName(kind), tiebreakNote(kind)] as [string, string]] : []),
      [t("leaderboard.games")], [t("tournament.w"), t("tournament.wins")], [t("tournament.l"), t("tournament.losses")], [t("tournament.d"), t("tournament.draws")]];
    const head = h("tr", {}, ...columns.map(([x, title]) => h("th", title ? { title, scope: "col" } : { scope: "col" }, x)));
    return h("table", { class: "standings", id: "standings" }, head,
      ...rows.map((s) =>
        h("tr", { "data-name": s.name, class: s.withdrawn ? "withdrawn" : "" },
          h("td", {}, String(s.rank)),
          h("td", {}, s.name, s.on_fire ? h("span", { class: "on-fire", title: t("tournament.on_fire.title") }, t("tournament.on_fire")) : null,
            s.withdrawn ? h("span", { class: "muted" }, ` ${t("tournament.withdrawn")}`) : null),
          h("td", {}, pointsText(s.points)),
          tiebreak ? h("td", {}, pointsText(s.tiebreak)) : null,
          h("td", {}, String(s.games)),
          h("td", {}, String(s.wins)),
          h("td", {}, String(s.losses)),
          h("td", {}, String(s.draws)))));
  }

  private pairings(kind: string, all: TournamentPairing[]): HTMLElement {
    const shown = shownPairings(kind, all);
    if (shown.length === 0) return h("p", { class: "muted", id: "pairings" }, t("tournament.pairings.empty"));
    return h("div", { class: "section", id: "pairings" },
      ...shown.map((p) =>
        h("div", { class: "item", "data-state": p.state, "data-game": p.game ?? "" },
          h("span", {}, pairingText(p)),
          // A void game was still on when the arena ended: it may be on still.
          (p.state === "playing" || p.state === "void") && p.game
            ? h("a", { class: "button", href: `#/game/${encodeURIComponent(p.game)}`, id: `watch-pairing-${p.game}` }, t("lobby.watch"))
            : p.state === "finished" && p.game
              ? h("a", { class: "button", href: `#/replay/${encodeURIComponent(p.game)}`, id: `replay-pairing-${p.game}` }, t("game.replay"))
              : null)));
  }
}
