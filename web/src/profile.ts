// A player's page, above their finished games (#/archive/NAME): the rating over their recent
// rated games as a graph, results by variant, from the server's history (each game with the
// rating each player had when it started) and the player's rating now when the page knows it.
import type { ArchiveEntry } from "@protocol";
import { h, svg } from "./dom";
import { formatNumber, formatSigned, t } from "./i18n";
import { rulesName } from "./game";

export interface RatingPoint {
  ended: string; // the game's end (ISO), or "" for "now"
  rating: number;
}

// The player's rating before each rated game, oldest first, then `now` when known. `games` is
// newest first, as the server sends it.
export function ratingHistory(player: string, games: readonly ArchiveEntry[], now: number | null): RatingPoint[] {
  const points: RatingPoint[] = [];
  for (const g of [...games].reverse()) {
    if (!g.rated) continue;
    const me = g.white.name === player ? g.white : g.black.name === player ? g.black : null;
    if (me?.rating !== undefined && me.rating !== null) points.push({ ended: g.ended_at, rating: me.rating });
  }
  if (now !== null && points.length > 0) points.push({ ended: "", rating: now });
  return points;
}

export interface VariantResults {
  rules: string;
  won: number;
  lost: number;
  other: number; // aborted, or no winner
}

// Wins and losses by variant, the most played first.
export function resultsByVariant(player: string, games: readonly ArchiveEntry[]): VariantResults[] {
  const by = new Map<string, VariantResults>();
  for (const g of games) {
    const r = by.get(g.rules) ?? { rules: g.rules, won: 0, lost: 0, other: 0 };
    const winner = g.winner === "white" ? g.white.name : g.winner === "black" ? g.black.name : null;
    if (winner === null) r.other += 1;
    else if (winner === player) r.won += 1;
    else r.lost += 1;
    by.set(g.rules, r);
  }
  return [...by.values()].sort((a, b) => b.won + b.lost + b.other - (a.won + a.lost + a.other) || a.rules.localeCompare(b.rules));
}

// The rating graph: a line through the points, the lowest and highest marked, described in
// words for screen readers.
export function ratingGraph(points: readonly RatingPoint[]): HTMLElement {
  if (points.length < 2) return h("p", { class: "muted", id: "rating-graph" }, t("profile.graph.empty"));
  const W = 320, H = 120, PAD = 8;
  const low = Math.min(...points.map((p) => p.rating)), high = Math.max(...points.map((p) => p.rating));
  const span = Math.max(20, high - low);
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / (points.length - 1);
  const y = (r: number) => H - PAD - ((r - low) * (H - 2 * PAD)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const first = points[0].rating, last = points[points.length - 1].rating;
  const words = t("profile.graph.words", { count: points.length - 1, first, last, low, high });
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-graph", role: "img", "aria-label": words },
    svg("polyline", { points: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5, "data-rating": p.rating })));
  const figure = h("figure", { class: "rating", id: "rating-graph", "data-points": points.map((p) => p.rating).join(" ") },
    h("figcaption", {}, t("profile.graph.caption", { last, change: formatSigned(last - first), count: points.length - 1, low, high })));
  figure.appendChild(graph);
  return figure;
}

export function variantTable(rows: readonly VariantResults[]): HTMLElement | null {
  if (rows.length === 0) return null;
  return h("table", { class: "by-variant", id: "results-by-variant" },
    h("tr", {}, ...[t("lobby.rules"), t("profile.won"), t("profile.lost"), t("profile.other")].map((x) => h("th", { scope: "col" }, x))),
    ...rows.map((r) => h("tr", { "data-rules": r.rules }, h("td", {}, rulesName(r.rules)), h("td", {}, formatNumber(r.won)), h("td", {}, formatNumber(r.lost)), h("td", {}, formatNumber(r.other)))));
}
