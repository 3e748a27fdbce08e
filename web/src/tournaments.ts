// The lobby's Tournaments list and the tournament screen: standings, the pairings of the round
// being played (or the last one), Join and Withdraw (docs/PROTOCOL.md "Tournaments"). The
// server runs the tournament and says what it is; every name here is shown as text.
import type { ServerMessageOf, TournamentPairing, TournamentStanding, TournamentSummary } from "@protocol";
import { h } from "./dom";
import { timeText } from "./game";

export type TournamentInfo = ServerMessageOf<"tournament">;

const ARENA_PAIRINGS_SHOWN = 12;
const FINISHED_SHOWN = 5; // in the lobby

export function kindText(kind: string): string {
  return kind === "arena" ? "Arena" : kind === "round_robin" ? "Round robin" : kind === "swiss" ? "Swiss" : kind;
}

// What the tiebreak column holds for this kind of tournament (server/tournament.h).
export function tiebreakName(kind: string): string {
  return kind === "arena" ? "Wins" : kind === "round_robin" ? "SB" : kind === "swiss" ? "Buchholz" : "Tiebreak";
}

// Points and tiebreaks are halves (draws, byes) or quarters (Sonneborn-Berger of draws): no
// trailing zeros, at most two decimals.
// What the tiebreak column means, for the line under the standings.
export function tiebreakNote(kind: string): string {
  return kind === "round_robin" ? "SB (Sonneborn-Berger) breaks ties: the points of the players you beat, plus half the points of those you drew with." :
    kind === "swiss" ? "Buchholz breaks ties: the sum of your opponents' points." :
    kind === "arena" ? "A win scores 2 and a draw 1; after two wins in a row a player is on fire and scores double until a game is not won. Ties are broken by wins." : "";
}

// The heading over the pairings: an arena's games, or which round of how many.
export function pairingsTitle(kind: string, pairings: TournamentPairing[], rounds: number): string {
  if (kind === "arena") return "Games";
  const round = Math.max(0, ...pairings.map((p) => p.round));
  if (round === 0) return "Pairings";
  return kind === "swiss" && rounds > 0 ? `Round ${round} of ${rounds}` : `Round ${round}`;
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
  const soon = s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : s < 172_800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} d`;
  return `in ${soon} (${shown})`;
}

// An arena's length: "8 s", "45 min", "2 h 30 min".
export function durationText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const min = Math.round(seconds / 60);
  if (min < 120) return `${min} min`;
  return min % 60 ? `${Math.floor(min / 60)} h ${min % 60} min` : `${min / 60} h`;
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

export function statusText(t: TournamentSummary): string {
  if (t.status === "created") return "not started";
  if (t.status === "running") return t.kind === "arena" || t.round === 0 ? "running" : `running, round ${t.round}`;
  return t.status;
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
  if (p.state === "bye" || p.black === "") return `${p.white}: bye`;
  const result =
    p.state === "playing" ? "playing" :
    p.state === "pending" ? "about to start" :
    p.state === "void" ? "void (still playing at the end)" :
    p.result === "draw" ? "draw" :
    p.result === "white" || p.result === "black" ? `${p.result === "white" ? p.white : p.black} won${p.state === "forfeit" ? " by forfeit" : ""}` :
    p.state;
  return `${p.white} vs ${p.black} · ${result}`;
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
    return lobbyList(this.list).map((t) =>
      h("div", { class: "item tournament", "data-tournament": String(t.id) },
        h("span", {}, `${t.name} · ${kindText(t.kind)} · ${statusText(t)} · ${t.players} ${t.players === 1 ? "player" : "players"} · ${t.status === "created" ? "starts " : "started "}${startText(t.start_at, nowMs)}`),
        h("a", { class: "button", href: `#/tournament/${t.id}`, id: `tournament-${t.id}` }, "Open")));
  }

  // The tournament's screen.
  view(id: number, me: string | null, nowMs: number, act: TournamentActions): HTMLElement {
    const info = this.details.get(id);
    const back = h("a", { class: "button quiet", href: "#/", id: "back-lobby" }, "Lobby");
    if (!info) return h("section", { class: "card" }, h("h1", {}, `Tournament ${id}`), h("p", { class: "muted" }, "Asking the server..."), back);
    const t = info.tournament;
    const facts = [kindText(t.kind), t.rules, timeText(t.time), t.rated ? "rated" : "casual", statusText(t)];
    if (t.kind === "arena" && info.duration > 0) facts.push(durationText(info.duration));
    if (t.kind === "swiss" && info.rounds > 0) facts.push(`${info.rounds} rounds`);
    if (info.max_players > 0) facts.push(`at most ${info.max_players} players`);
    if (!info.bots_allowed) facts.push("no bots");
    const when = t.status === "created" ? `Starts ${startText(t.start_at, nowMs)}` :
      t.status === "running" && info.ends_at ? `Ends ${startText(info.ends_at, nowMs)}` : `Started ${startText(t.start_at, nowMs)}`;
    const mine = info.standings.find((s) => s.name === me);
    const standing = mine ? (mine.withdrawn ? "You withdrew." : "You play in it.") : "You do not play in it.";
    const offer = tournamentActions(t, mine);
    const problem = this.problems.get(id);
    return h("section", { class: "card tournament-view", id: "tournament", "data-tournament": String(t.id), "data-status": t.status },
      h("h1", { id: "tournament-name" }, t.name),
      h("p", { id: "tournament-facts" }, facts.join(" · ")),
      h("p", { class: "muted", id: "tournament-when" }, when),
      h("div", { class: "actions" },
        offer.join ? h("button", { class: "primary", id: "tournament-join", onclick: () => act.join(t.id) }, "Join") : null,
        offer.withdraw ? h("button", { id: "tournament-withdraw", onclick: () => act.withdraw(t.id) }, "Withdraw") : null,
        back),
      h("p", { id: "tournament-me" }, standing),
      problem ? h("p", { class: "error", id: "tournament-problem", role: "alert" }, problem) : null,
      h("h2", {}, "Standings"),
      this.standings(t.kind, info.standings),
      h("p", { class: "muted", id: "tiebreak-note" }, tiebreakNote(t.kind)),
      h("h2", { id: "pairings-title" }, pairingsTitle(t.kind, info.pairings, info.rounds)),
      this.pairings(t.kind, info.pairings));
  }

  private standings(kind: string, rows: TournamentStanding[]): HTMLElement {
    if (rows.length === 0) return h("p", { class: "muted", id: "standings" }, "Nobody has joined yet.");
    // An arena breaks ties by wins, which the W column already shows.
    const tiebreak = kind !== "arena";
    const titles: Record<string, string> = { "#": "Rank", W: "Wins", L: "Losses", D: "Draws", [tiebreakName(kind)]: tiebreakNote(kind) };
    const head = h("tr", {}, ...["#", "Player", "Points", ...(tiebreak ? [tiebreakName(kind)] : []), "Games", "W", "L", "D"].map((x) => h("th", titles[x] ? { title: titles[x], scope: "col" } : { scope: "col" }, x)));
    return h("table", { class: "standings", id: "standings" }, head,
      ...rows.map((s) =>
        h("tr", { "data-name": s.name, class: s.withdrawn ? "withdrawn" : "" },
          h("td", {}, String(s.rank)),
          h("td", {}, s.name, s.on_fire ? h("span", { class: "on-fire", title: "the next win scores double" }, "on fire") : null,
            s.withdrawn ? h("span", { class: "muted" }, " withdrawn") : null),
          h("td", {}, pointsText(s.points)),
          tiebreak ? h("td", {}, pointsText(s.tiebreak)) : null,
          h("td", {}, String(s.games)),
          h("td", {}, String(s.wins)),
          h("td", {}, String(s.losses)),
          h("td", {}, String(s.draws)))));
  }

  private pairings(kind: string, all: TournamentPairing[]): HTMLElement {
    const shown = shownPairings(kind, all);
    if (shown.length === 0) return h("p", { class: "muted", id: "pairings" }, "No games yet.");
    return h("div", { class: "section", id: "pairings" },
      ...shown.map((p) =>
        h("div", { class: "item", "data-state": p.state, "data-game": p.game ?? "" },
          h("span", {}, pairingText(p)),
          // A void game was still on when the arena ended: it may be on still.
          (p.state === "playing" || p.state === "void") && p.game
            ? h("a", { class: "button", href: `#/game/${encodeURIComponent(p.game)}`, id: `watch-pairing-${p.game}` }, "Watch")
            : p.state === "finished" && p.game
              ? h("a", { class: "button", href: `#/replay/${encodeURIComponent(p.game)}`, id: `replay-pairing-${p.game}` }, "Replay")
              : null)));
  }
}
