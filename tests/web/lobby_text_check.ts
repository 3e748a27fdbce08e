// node lobby_text_check.js: the text the lobby's Your turn list and the tournament screen make of
// the server's numbers (web/src/your_turn.ts, web/src/tournaments.ts). Exits non-zero with the
// first differences.
import { durationText, kindText, lobbyList, pairingText, pairingsTitle, pointsText, shownPairings, startText, statusText, tiebreakName, tournamentActions } from "../../web/src/tournaments";
import { durationSeconds, readForm } from "../../web/src/tournament_form";
import { ratingHistory, resultsByVariant } from "../../web/src/profile";
import { TIME_CHOICES } from "../../web/src/game";
import { isCorrespondence, timeLeftText, turnLine } from "../../web/src/your_turn";
import { timeText } from "../../web/src/game";
import type { TournamentPairing, TournamentStanding, TournamentSummary } from "@protocol";

declare const process: { exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };

const problems: string[] = [];
function same(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const MIN = 60_000, HOUR = 60 * MIN, DAY = 24 * HOUR;
same("untimed", timeLeftText(undefined), "no clock");
same("none left", timeLeftText(0), "time is up");
same("negative", timeLeftText(-5), "time is up");
same("seconds", timeLeftText(59_999), "under a minute left");
same("a minute", timeLeftText(MIN), "1 min left");
same("rounded down", timeLeftText(DAY - 1000), "23 h 59 min left");
same("whole hours", timeLeftText(5 * HOUR), "5 h left");
same("a day", timeLeftText(DAY), "1 d left");
same("days and hours", timeLeftText(3 * DAY + 4 * HOUR + 59 * MIN), "3 d 4 h left");
same("per move in days", timeText({ per_move: 86400 }), "1 d per move");
same("three days", timeText({ per_move: 3 * 86400 }), "3 d per move");
same("per move in seconds", timeText({ per_move: 30 }), "30 s per move");
same("not whole days", timeText({ per_move: 90000 }), "90000 s per move");
same("turn line", turnLine({ game: "17", opponent: "bob", rules: "standard", time: { per_move: 86400 }, plies: 3, left_ms: 86391000 }, 86391000),
  "bob · standard · 1 d per move · move 4 · 23 h 59 min left");

same("correspondence", [null, { per_move: 30 }, { per_move: 86400 }, { initial: 86399, increment: 0 }, { initial: 86400, increment: 3600 }].map(isCorrespondence),
  [false, false, true, false, true]);

same("durations", [8, 119, 120, 3600, 7199, 7200, 9000].map(durationText), ["8 s", "119 s", "2 min", "60 min", "2 h", "2 h", "2 h 30 min"]);
same("kinds", ["arena", "round_robin", "swiss", "new"].map(kindText), ["Arena", "Round robin", "Swiss", "new"]);
same("tiebreaks", ["arena", "round_robin", "swiss"].map(tiebreakName), ["Wins", "SB", "Buchholz"]);
same("points", [0, 1, 1.5, 2.25, 1 / 3].map(pointsText), ["0", "1", "1.5", "2.25", "0.33"]);
const now = Date.parse("2026-12-01T22:00:00.000Z");
same("started", startText("2026-12-01T21:59:00.000Z", now), "2026-12-01 21:59 UTC");
same("soon", startText("2026-12-01T22:00:12.000Z", now), "in 12 s (2026-12-01 22:00 UTC)");
same("minutes", startText("2026-12-01T22:10:00.000Z", now), "in 10 min (2026-12-01 22:10 UTC)");
same("hours", startText("2026-12-02T04:00:00.000Z", now), "in 6 h (2026-12-02 04:00 UTC)");
same("days", startText("2026-12-08T22:00:00.000Z", now), "in 7 d (2026-12-08 22:00 UTC)");
same("not a time", startText("soon", now), "soon UTC");
const summary = (status: string, kind: string, round: number): TournamentSummary =>
  ({ id: 1, name: "x", kind, status, rules: "standard", time: null, rated: false, players: 2, round, start_at: "" });
same("statuses", [summary("created", "swiss", 0), summary("running", "swiss", 2), summary("running", "arena", 0), summary("finished", "swiss", 3)].map(statusText),
  ["not started", "running, round 2", "running", "finished"]);

// Join and Withdraw, as the desktop client offers them (client/ui/tournament_screen.cpp).
const me = (withdrawn: boolean): TournamentStanding =>
  ({ rank: 1, name: "me", rating: 1500, points: 0, tiebreak: 0, games: 0, wins: 0, losses: 0, draws: 0, withdrawn, on_fire: false });
const offers = (t: TournamentSummary, mine?: TournamentStanding) => {
  const a = tournamentActions(t, mine);
  return (a.join ? "J" : "-") + (a.withdraw ? "W" : "-");
};
for (const kind of ["swiss", "round_robin", "arena"])
  same(`not in a coming ${kind}`, offers(summary("created", kind, 0)), "J-");
same("in a coming one", offers(summary("created", "swiss", 0), me(false)), "-W");
same("withdrawn from a coming one", offers(summary("created", "swiss", 0), me(true)), "J-");
same("not in a running swiss", offers(summary("running", "swiss", 2)), "--");
same("in a running swiss", offers(summary("running", "swiss", 2), me(false)), "-W");
same("withdrawn from a running round robin", offers(summary("running", "round_robin", 1), me(true)), "--");
same("not in a running arena", offers(summary("running", "arena", 0)), "J-");
same("withdrawn from a running arena", offers(summary("running", "arena", 0), me(true)), "J-");
same("in a running arena", offers(summary("running", "arena", 0), me(false)), "-W");
for (const mine of [undefined, me(false), me(true)])
  same(`a finished one (${mine ? (mine.withdrawn ? "withdrawn" : "in it") : "not in it"})`, offers(summary("finished", "arena", 0), mine), "--");

const many = [summary("running", "arena", 0), ...Array.from({ length: 8 }, (_, i) => ({ ...summary("finished", "swiss", 3), id: 10 + i })), summary("created", "swiss", 0)];
same("the lobby: every coming one, five finished", lobbyList(many).map((t) => t.id === 1 ? t.status : t.id), ["running", "created", 10, 11, 12, 13, 14]);

const p = (round: number, white: string, black: string, state: string, result?: string, game?: string): TournamentPairing =>
  ({ round, white, black, state, result, game });
same("pairing lines",
  [p(1, "a", "b", "playing", undefined, "5"), p(1, "a", "b", "finished", "black", "5"), p(1, "a", "b", "finished", "draw"), p(1, "c", "", "bye"),
   p(2, "a", "b", "forfeit", "white"), p(0, "a", "b", "void"), p(1, "a", "b", "pending")].map(pairingText),
  ["a vs b · playing", "a vs b · b won", "a vs b · draw", "c: bye", "a vs b · a won by forfeit", "a vs b · void (still playing at the end)", "a vs b · about to start"]);
const rounds = [p(1, "a", "b", "finished", "white"), p(1, "c", "d", "finished", "black"), p(2, "a", "c", "playing"), p(2, "b", "d", "finished", "white")];
same("the last round", shownPairings("swiss", rounds).map((x) => x.white), ["a", "b"]);
const arena = [p(0, "a", "b", "finished", "white"), p(0, "c", "d", "playing"), p(0, "a", "c", "finished", "black")];
same("an arena: playing first, then the newest", shownPairings("arena", arena).map((x) => x.white + x.black), ["cd", "ac", "ab"]);
same("an arena shows at most 12", shownPairings("arena", Array.from({ length: 20 }, () => p(0, "a", "b", "finished", "white"))).length, 12);
same("no pairings", shownPairings("round_robin", []), []);

// The heading over the pairings: never "Round 0".
same("pairings before the start", pairingsTitle("round_robin", [], 0), "Pairings");
same("a Swiss round of its count", pairingsTitle("swiss", [p(2, "a", "b", "playing")], 5), "Round 2 of 5");
same("a round robin's round", pairingsTitle("round_robin", [p(1, "a", "b", "finished", "white"), p(3, "a", "c", "playing")], 0), "Round 3");
same("an arena's games", pairingsTitle("arena", [p(0, "a", "b", "playing")], 0), "Games");

// The create form: what it sends, and what it refuses with a reason.
const clock = TIME_CHOICES.findIndex((c) => c.time !== null && timeText(c.time) === "3 min + 2 s");
const form = { name: " Sunday arena ", kind: "arena", rules: "standard", time: clock, rated: true, startIn: "10", lasts: "45 min", rounds: "", maxPlayers: "0", botsAllowed: false };
same("an arena", readForm(form), { name: "Sunday arena", kind: "arena", rules: "standard", time: { initial: 180, increment: 2 }, rated: true, start_in: 600, duration: 2700, rounds: 0, max_players: 0, bots_allowed: false });
same("a Swiss", readForm({ ...form, kind: "swiss", rounds: "7", startIn: "1 h 30 s", maxPlayers: "16" }),
  { name: "Sunday arena", kind: "swiss", rules: "standard", time: { initial: 180, increment: 2 }, rated: true, start_in: 3630, duration: 0, rounds: 7, max_players: 16, bots_allowed: false });
same("no name", readForm({ ...form, name: "  " }), { error: "Name: 1 to 64 characters" });
same("no clock", readForm({ ...form, time: TIME_CHOICES.findIndex((t) => t.time === null) }), { error: "Clock: a tournament's games need a clock" });
same("rounds out of range", readForm({ ...form, kind: "swiss", rounds: "31" }), { error: "Rounds: from 1 to 30" });
same("not a time", readForm({ ...form, lasts: "1.5 h" }), { error: "Lasts: a time like 90 s, 5 min or 1 h 30 min" });
same("an arena too short", readForm({ ...form, lasts: "4 s" }), { error: "Lasts: from 5 s to 7 days" });
same("starts now", readForm({ ...form, startIn: "0 s" }), { error: "Starts in: from 1 s to 30 days" });
same("durations typed", ["90 s", "5 min", "1 h 30 min", "2", "1 d", "5 mins", "", "h"].map(durationSeconds), [90, 300, 5400, 120, 86400, null, null, null]);

// A player's page: the rating before each rated game, oldest first, then now; results by variant.
const entry = (game: string, rules: string, white: [string, number], black: [string, number], winner: "white" | "black" | null, rated = true) =>
  ({ game, rules, time: null, white: { name: white[0], rating: white[1], bot: false }, black: { name: black[0], rating: black[1], bot: false }, rated,
    winner: winner ?? undefined, reason: winner ? "no_moves" : "aborted", plies: 40, ended_at: `2026-12-0${game}T10:00:00Z` }) as never;
const history = [entry("4", "standard", ["bob", 1530], ["ann", 1488], "black"), entry("3", "botzone8", ["ann", 1500], ["bot", 1400], null, false),
  entry("2", "botzone8", ["ann", 1470], ["bob", 1540], "white"), entry("1", "standard", ["cat", 1600], ["ann", 1500], "white")];
same("rating history", ratingHistory("ann", history, 1510).map((p) => p.rating), [1500, 1470, 1488, 1510]);
same("no rated games, no graph", ratingHistory("ann", [history[1]], 1500), []);
same("results by variant", resultsByVariant("ann", history), [{ rules: "botzone8", won: 1, lost: 0, other: 1 }, { rules: "standard", won: 1, lost: 1, other: 0 }]);

if (problems.length) {
  for (const x of problems) console.error(x);
  process.exit(1);
}
console.log("ok: lobby texts");
