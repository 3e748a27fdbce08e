// The lobby's "Your turn" list: every correspondence game in which this account is to move, as
// the server's your_turn says (docs/PROTOCOL.md "your_turn, turns"). The server decides whose
// move it is; this keeps its last list and tells which games are new in it.
import type { TimeControl, TurnInfo } from "@protocol";
import { h } from "./dom";
import { timeText } from "./game";

// A correspondence time control (docs/PROTOCOL.md "Correspondence"): a day or more a move.
export function isCorrespondence(t: TimeControl): boolean {
  if (t === null) return false;
  return "per_move" in t ? t.per_move >= 86400 : t.initial >= 86400;
}

// "3 d 4 h left", "5 h 12 min left", "42 min left", "under a minute left"; time the server
// counted from the given number of milliseconds. Rounded down: a day shown is a day there.
export function timeLeftText(ms: number | undefined): string {
  if (ms === undefined) return "no clock";
  const t = Math.max(0, Math.floor(ms / 60_000)); // whole minutes
  if (t === 0) return ms > 0 ? "under a minute left" : "time is up";
  const d = Math.floor(t / 1440), hr = Math.floor((t % 1440) / 60), min = t % 60;
  if (d > 0) return hr > 0 ? `${d} d ${hr} h left` : `${d} d left`;
  if (hr > 0) return min > 0 ? `${hr} h ${min} min left` : `${hr} h left`;
  return `${min} min left`;
}

// One line of the list, without the button: "bob · standard · 1 d per move · move 4 · 23 h 59 min left".
export function turnLine(t: TurnInfo, leftMs: number | undefined): string {
  return `${t.opponent} · ${t.rules} · ${timeText(t.time)} · move ${t.plies + 1} · ${timeLeftText(leftMs)}`;
}

export class YourTurns {
  private games: TurnInfo[] = [];
  private receivedAt = 0; // performance.now() when the list came
  private known = new Set<string>();

  // Takes the server's list; returns the games that were not in the previous one.
  update(games: TurnInfo[], now: number): TurnInfo[] {
    const fresh = games.filter((g) => !this.known.has(g.game));
    this.games = games.slice();
    this.receivedAt = now;
    this.known = new Set(games.map((g) => g.game));
    return fresh;
  }

  // A game this page saw become the opponent's move (or end) leaves the list at once.
  drop(game: string): boolean {
    const before = this.games.length;
    this.games = this.games.filter((g) => g.game !== game);
    this.known.delete(game);
    return this.games.length !== before;
  }

  clear(): void {
    this.games = [];
    this.known.clear();
  }

  has(game: string): boolean {
    return this.known.has(game);
  }

  // The list's rows, each opening its game the way "Your games" does (#/game/ID).
  rows(now: number): HTMLElement[] {
    return this.games.map((t) => {
      const left = t.left_ms === undefined ? undefined : t.left_ms - (now - this.receivedAt);
      return h("div", { class: "item turn", "data-game": t.game },
        h("span", {}, turnLine(t, left)),
        h("a", { class: "button primary", href: `#/game/${encodeURIComponent(t.game)}`, id: `turn-${t.game}` }, "Play"));
    });
  }
}
