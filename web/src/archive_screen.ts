// The archive (#/archive, #/archive/NAME): a player's page (rating graph, results by variant,
// profile.ts) above their finished games on the server, each with Replay and Export; on your own
// page also your games against the computer, which this browser keeps (computer_archive.ts).
import type { ArchiveEntry, ServerMessageOf } from "@protocol";
import { computerGameItem, finishedComputerGames } from "./computer_archive";
import { h } from "./dom";
import { playerText, sideName } from "./game";
import { ratingGraph, ratingHistory, resultsByVariant, variantTable } from "./profile";

// `history`: the server's last answer (null while asked); `now`: the player's rating now, when
// the page knows it; `exportRecord` asks the server for a game's text record.
export function archiveView(history: ServerMessageOf<"history"> | null, who: string, mine: boolean, now: number | null, exportRecord: (game: string) => void): HTMLElement {
  let body: HTMLElement[];
  if (!history || history.player !== who) body = [h("p", { class: "muted" }, "Asking the server...")];
  else if (history.games.length === 0) body = [h("p", { class: "muted" }, "No finished games on this server yet.")];
  else {
    const winnerName = (g: ArchiveEntry) => (g.winner === "white" ? g.white.name : g.winner === "black" ? g.black.name : null);
    const won = history.games.filter((g) => winnerName(g) === who).length;
    const lost = history.games.filter((g) => winnerName(g) !== null && winnerName(g) !== who).length;
    body = [
      h("p", { id: "archive-record" }, `${history.games.length} finished ${history.games.length === 1 ? "game" : "games"}, newest first: ${won} won, ${lost} lost.`),
      h("div", { class: "profile" }, ratingGraph(ratingHistory(who, history.games, now)), variantTable(resultsByVariant(who, history.games))),
      h("h2", {}, "Games"),
      h("div", { class: "section" }, ...history.games.map((g) => archiveRow(g, exportRecord))),
    ];
  }
  // Your games against the computer never reach the server: this browser keeps them.
  const computer = mine ? finishedComputerGames() : [];
  return h("section", { class: "card" }, h("h1", {}, mine ? "My games" : `Games of ${who}`), ...body,
    computer.length ? h("section", { id: "archive-computer" }, h("h2", {}, "Against the computer, in this browser"),
      h("ul", { class: "list" }, ...computer.map((f, i) => computerGameItem(f, `archive-computer-${i}`)))) : null);
}

function archiveRow(g: ArchiveEntry, exportRecord: (game: string) => void): HTMLElement {
  const result = g.winner ? `${sideName(g.winner)} won` : "aborted";
  return h("div", { class: "item" },
    h("span", {}, `${playerText(g.white)} vs ${playerText(g.black)} · ${result} (${g.reason}) · ${g.plies} moves · ${g.ended_at.slice(0, 16).replace("T", " ")}`),
    h("span", { class: "buttons" },
      h("a", { class: "button", href: `#/replay/${g.game}`, id: `replay-${g.game}` }, "Replay"),
      h("button", { class: "quiet", onclick: () => exportRecord(g.game) }, "Export")));
}
