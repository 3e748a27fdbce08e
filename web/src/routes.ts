// The page's addresses (#/...): which screen, and what it shows. The address is the page's state
// a reload keeps; every screen change goes through it (location.hash), so Back works.
export type Route =
  | { kind: "lobby" }
  | { kind: "game"; game: string }
  | { kind: "join"; game: string; invite: string }
  | { kind: "archive"; player?: string }
  | { kind: "replay"; game: string }
  | { kind: "tournament"; id: number }
  | { kind: "tournament-new" }
  | { kind: "leaderboard" }
  | { kind: "computer" }
  | { kind: "analysis"; input?: string; ply?: number }
  | { kind: "learn" }
  | { kind: "settings" };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "game" && parts[1]) return { kind: "game", game: parts[1] };
  if (parts[0] === "join" && parts[1] && parts[2]) return { kind: "join", game: parts[1], invite: parts[2] };
  if (parts[0] === "archive") return { kind: "archive", player: parts[1] || undefined };
  if (parts[0] === "replay" && parts[1]) return { kind: "replay", game: parts[1] };
  if (parts[0] === "computer") return { kind: "computer" };
  if (parts[0] === "learn") return { kind: "learn" };
  if (parts[0] === "settings") return { kind: "settings" };
  // #/analysis, or #/analysis/POSITION[/PLY]: a position text (with `moves ...`) or a move list,
  // URI-encoded, opened at PLY of its moves.
  if (parts[0] === "analysis") return { kind: "analysis", input: parts[1] || undefined, ply: /^\d{1,4}$/.test(parts[2] ?? "") ? Number(parts[2]) : undefined };
  if (parts[0] === "tournament" && /^\d{1,15}$/.test(parts[1] ?? "")) return { kind: "tournament", id: Number(parts[1]) };
  if (parts[0] === "tournaments" && parts[1] === "new") return { kind: "tournament-new" };
  if (parts[0] === "leaderboard") return { kind: "leaderboard" };
  return { kind: "lobby" };
}

// The screens that need neither the server nor a name.
export function isLocal(r: Route): r is Extract<Route, { kind: "computer" | "analysis" | "learn" | "settings" }> {
  return r.kind === "computer" || r.kind === "analysis" || r.kind === "learn" || r.kind === "settings";
}
