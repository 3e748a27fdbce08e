// Game records written in the page, for games the server never saw (against the computer) and
// for reviews made in the page: our JSON and text records (docs/GAME_RECORD.md, as
// common/game_record.cpp writes them, analysis annotations included) and SGF (docs/
// RECORD_FORMATS.md, GM[18], with the annotations as comments). tests/web/record_check.ts has
// amazons-record read each of them back.
import type { Color, EndReason, GameRecordJson, TimeControl, Variant } from "@protocol";
import type { PlyReview } from "./review";
import { Cell, parsePositionText, squareName } from "./rules";

export interface RecordPlayer {
  name: string;
  bot?: boolean;
  rating?: number;
}

export interface LocalRecord {
  rules: Variant;
  white: RecordPlayer;
  black: RecordPlayer;
  time?: TimeControl; // none when absent
  start?: string; // a position text, when the game did not start from the variant's start
  moves: readonly string[];
  analysis?: readonly (PlyReview | null | undefined)[]; // per ply, from a review
  result: { winner?: Color; reason: EndReason } | null;
  started?: Date;
  ended?: Date;
}

// "2026-11-29T14:25:19Z", with milliseconds only when there are some (format_timestamp).
function timestamp(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, "Z");
}

function signedSquares(v: number): string {
  const negative = v < 0 || Object.is(v, -0);
  return `${negative ? "-" : "+"}${Math.abs(v).toFixed(2)}`;
}

function annotationText(a: PlyReview): string {
  let out = `before ${signedSquares(a.before)} after ${signedSquares(a.after)}`;
  if (a.best) out += ` best ${a.best}`;
  if (a.mark) out += ` ${a.mark}`;
  return out;
}

// As common/time_control.cpp's seconds_text: whole days as "1d", whole seconds, else decimals.
function secondsText(s: number): string {
  const ms = Math.round(s * 1000);
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 1000 === 0) return String(ms / 1000);
  return (ms / 1000).toFixed(6).replace(/0+$/, "");
}

export function timeControlText(t: TimeControl | undefined): string {
  if (!t) return "none";
  if ("per_move" in t) return `${secondsText(t.per_move)}/move`;
  return `${secondsText(t.initial)}+${secondsText(t.increment)}`;
}

// A server's record with a review made in the page: each reviewed move gets its analysis,
// everything else as the server wrote it.
export function annotatedJson(rec: GameRecordJson, analysis: readonly (PlyReview | null | undefined)[]): GameRecordJson {
  const moves = rec.moves.map((m, i) => {
    const a = analysis[i];
    const base = typeof m === "string" ? { move: m } : { ...m };
    return a ? { ...base, analysis: { before: a.before, after: a.after, ...(a.best ? { best: a.best } : {}), ...(a.mark ? { mark: a.mark } : {}) } } : m;
  });
  return { ...rec, moves };
}

// A server's record as a LocalRecord, to write as text or SGF.
export function fromServerRecord(rec: GameRecordJson, analysis?: readonly (PlyReview | null | undefined)[]): LocalRecord {
  const player = (p: GameRecordJson["white"], fallback: string) => ({ name: p?.name ?? fallback, bot: p?.bot, rating: p?.rating });
  const date = (t?: string) => (t && !Number.isNaN(new Date(t).getTime()) ? new Date(t) : undefined);
  return {
    rules: rec.rules,
    white: player(rec.white, "White"),
    black: player(rec.black, "Black"),
    time: rec.time_control ?? undefined,
    start: rec.start,
    moves: rec.moves.map((m) => (typeof m === "string" ? m : m.move)),
    analysis,
    result: rec.result ? { winner: rec.result.winner ?? undefined, reason: rec.result.reason } : null,
    started: date(rec.started_at),
    ended: date(rec.ended_at),
  };
}

export function recordJson(r: LocalRecord): object {
  const player = (p: RecordPlayer) => ({ name: p.name, ...(p.bot ? { bot: true } : {}), ...(p.rating !== undefined ? { rating: p.rating } : {}) });
  const moves = r.moves.map((move, i) => {
    const a = r.analysis?.[i];
    if (!a) return move;
    return { move, analysis: { before: a.before, after: a.after, ...(a.best ? { best: a.best } : {}), ...(a.mark ? { mark: a.mark } : {}) } };
  });
  return {
    format: "amazons-game/1",
    rules: r.rules,
    white: player(r.white),
    black: player(r.black),
    time_control: r.time ?? null,
    ...(r.start ? { start: r.start } : {}),
    moves,
    result: r.result ? { winner: r.result.winner ?? null, reason: r.result.reason } : null,
    ...(r.started ? { started_at: timestamp(r.started) } : {}),
    ...(r.ended ? { ended_at: timestamp(r.ended) } : {}),
  };
}

function quote(v: string): string {
  return `"${v.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

export function recordText(r: LocalRecord): string {
  const lines: string[] = [`[Rules ${quote(r.rules.name)}]`];
  if (r.rules.description) lines.push(`[RulesDescription ${quote(r.rules.description)}]`);
  lines.push(`[Board ${quote(String(r.rules.size))}]`, `[WhiteQueens ${quote(r.rules.white.join(" "))}]`,
    `[BlackQueens ${quote(r.rules.black.join(" "))}]`, `[First ${quote(r.rules.first)}]`);
  for (const [tag, p] of [["White", r.white], ["Black", r.black]] as const) {
    lines.push(`[${tag} ${quote(p.name)}]`);
    if (p.bot) lines.push(`[${tag}Bot "yes"]`);
    if (p.rating !== undefined) lines.push(`[${tag}Rating ${quote(String(p.rating))}]`);
  }
  lines.push(`[TimeControl ${quote(timeControlText(r.time))}]`);
  if (r.start) lines.push(`[Start ${quote(r.start)}]`);
  if (r.started) lines.push(`[Started ${quote(timestamp(r.started))}]`);
  if (r.ended) lines.push(`[Ended ${quote(timestamp(r.ended))}]`);
  if (r.result) lines.push(`[Result ${quote(r.result.winner ?? "none")}]`, `[Reason ${quote(r.result.reason)}]`);
  let body = "";
  r.moves.forEach((m, i) => {
    if (i % 2 === 0) body += `${i === 0 ? "" : "\n"}${i / 2 + 1}.`;
    body += ` ${m}`;
    const a = r.analysis?.[i];
    if (a) body += ` {${annotationText(a)}}`;
  });
  return `${lines.join("\n")}\n\n${body}${r.moves.length ? "\n" : ""}`;
}

// SGF: points are the column from the left and the row from the top; the game's first mover is
// SGF's "B" (as amazons-record writes it). The setup is always written.
export function recordSgf(r: LocalRecord): string {
  const n = r.rules.size;
  const start = r.start ? parsePositionText(r.start) : null;
  const firstMover: Color = start && "board" in start ? start.board.toMove : r.rules.first;
  const point = (sq: string) => {
    const file = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1)) - 1;
    return String.fromCharCode(97 + file) + String.fromCharCode(97 + (n - 1 - rank));
  };
  const text = (v: string) => v.replace(/[\\\]]/g, (c) => `\\${c}`);
  const sgfColour = (c: Color): "B" | "W" => (c === firstMover ? "B" : "W");
  const queens = (c: Color) => (c === "white" ? r.rules.white : r.rules.black).map((s) => `[${point(s)}]`).join("");
  let root = `FF[4]GM[18]CA[UTF-8]AP[amazons-web]SZ[${n}]RU[${text(r.rules.name)}]`;
  root += `P${sgfColour("white")}[${text(r.white.name)}]P${sgfColour("black")}[${text(r.black.name)}]`;
  if (r.started) root += `DT[${timestamp(r.started).slice(0, 10)}]`;
  if (r.result) {
    const how: Record<EndReason, string> = { no_moves: "", resign: "R", time: "T", abandon: "F", illegal_move: "F", aborted: "", adjudicated: "F" };
    root += `RE[${r.result.winner ? `${sgfColour(r.result.winner)}+${how[r.result.reason]}` : "Void"}]`;
  }
  let mover: Color = firstMover;
  if (start && "board" in start) {
    // The setup is the start position: its queens, its arrows, its side to move.
    const b = start.board;
    const at = (cell: number) => [...b.cells.keys()].filter((s) => b.cells[s] === cell).map((s) => `[${point(squareName(s, n))}]`).join("");
    root += `A${sgfColour("white")}${at(Cell.White)}A${sgfColour("black")}${at(Cell.Black)}${at(Cell.Arrow) ? `AA${at(Cell.Arrow)}` : ""}`;
  } else {
    root += `A${sgfColour("white")}${queens("white")}A${sgfColour("black")}${queens("black")}`;
  }
  let nodes = "";
  r.moves.forEach((m, i) => {
    const [from, rest] = m.split("-");
    const [to, arrow] = rest.split("/");
    const a = r.analysis?.[i];
    nodes += `;${sgfColour(mover)}[${point(from)}${point(to)}${point(arrow)}]${a ? `C[${text(annotationText(a))}]` : ""}`;
    mover = mover === "white" ? "black" : "white";
  });
  return `(;${root}${nodes})\n`;
}
