// The lobby's "Your turn" list: every correspondence game in which this account is to move, as
// the server's your_turn says (docs/PROTOCOL.md "your_turn, turns"). The server decides whose
// move it is; this keeps its last list and tells which games are new in it.
import type { TimeControl, TurnInfo } from "@protocol";
import { h } from "./dom";
import { rulesName, timeText } from "./game";
import { t } from "./i18n";

// A correspondence time control (docs/PROTOCOL.md "Correspondence"): a day or more a move.
export function isCorrespondence(t: TimeControl): boolean {
  if (t === null) return false;
  return "per_move" in t ? t.per_move >= 86400 : t.initial >= 86400;
}

// "3 d 4 h left", "5 h 12 min left", "42 min left", "under a minute left"; time the server
// counted from the given number of milliseconds. Rounded down: a day shown is a day there.
export function timeLeftText(ms: number | undefined): string {
  if (ms === undefined) return t("time.no_clock");
  const m = Math.max(0, Math.floor(ms / 60_000)); // whole minutes
  if (m === 0) return ms > 0 ? t("time.left.under_a_minute") : t("time.left.none");
  const d = Math.floor(m / 1440), hr = Math.floor((m % 1440) / 60), min = m % 60;
  if (d > 0) return hr > 0 ? t("time.left.days_hours", { d, h: hr }) : t("time.left.days", { d });
  if (hr > 0) return min > 0 ? t("time.left.hours_minutes", { h: hr, min }) : t("time.left.hours", { h: hr });
  return t("time.left.minutes", { min });
}

// One line of the list, without the button: "bob · standard · 1 d per move · move 4 · 23 h 59 min left".
export function turnLine(x: TurnInfo, leftMs: number | undefined): string {
  return [x.opponent, rulesName(x.rules), timeText(x.time), t("game.move_number", { n: x.plies + 1 }), timeLeftText(leftMs)].join(" · ");
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
    return this.games.map((x) => {
      const left = x.left_ms === undefined ? undefined : x.left_ms - (now - this.receivedAt);
      return h("div", { class: "item turn", "data-game": x.game },
        h("span", {}, turnLine(x, left)),
        h("a", { class: "button primary", href: `#/game/${encodeURIComponent(x.game)}`, id: `turn-${x.game}` }, t("game.typed.play")));
    });
  }
}
