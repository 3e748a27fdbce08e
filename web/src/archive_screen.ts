// The archive (#/archive, #/archive/NAME): a player's page (rating graph, results by variant,
// profile.ts) above their finished games on the server, each with Replay and Export; on your own
// page also your games against the computer, which this browser keeps (computer_archive.ts).
import type { ArchiveEntry, ServerMessageOf } from "@protocol";
import { computerGameItem, finishedComputerGames } from "./computer_archive";
import { h } from "./dom";
import { playerText, rulesName, sideName } from "./game";
import { formatDate, t } from "./i18n";
import { ratingGraph, ratingHistory, resultsByVariant, variantTable } from "./profile";

// `history`: the server's last answer (null while asked); `now`: the player's rating now, when
// the page knows it; `exportRecord` asks the server for a game's text record.
export function archiveView(history: ServerMessageOf<"history"> | null, who: string, mine: boolean, now: number | null, exportRecord: (game: string) => void): HTMLElement {
  let body: HTMLElement[];
  if (!history || history.player !== who) body = [h("p", { class: "muted" }, t("archive.asking"))];
  else if (history.games.length === 0) body = [h("p", { class: "muted" }, t("archive.empty"))];
  else {
    const winnerName = (g: ArchiveEntry) => (g.winner === "white" ? g.white.name : g.winner === "black" ? g.black.name : null);
    const won = history.games.filter((g) => winnerName(g) === who).length;
    const lost = history.games.filter((g) => winnerName(g) !== null && winnerName(g) !== who).length;
    body = [
      h("p", { id: "archive-record" }, t("archive.summary", { count: history.games.length, won, lost })),
      h("div", { class: "profile" }, ratingGraph(ratingHistory(who, history.games, now)), variantTable(resultsByVariant(who, history.games))),
      h("h2", {}, t("leaderboard.games")),
      h("div", { class: "section" }, ...history.games.map((g) => archiveRow(g, exportRecord))),
    ];
  }
  // Your games against the computer never reach the server: this browser keeps them.
  const computer = mine ? finishedComputerGames() : [];
  return h("section", { class: "card" }, h("h1", {}, mine ? t("nav.my_games") : t("archive.games_of", { player: who })), ...body,
    computer.length ? h("section", { id: "archive-computer" }, h("h2", {}, t("archive.computer")),
      h("ul", { class: "list" }, ...computer.map((f, i) => computerGameItem(f, `archive-computer-${i}`)))) : null);
}

function archiveRow(g: ArchiveEntry, exportRecord: (game: string) => void): HTMLElement {
  const result = g.winner ? t("archive.side_won", { side: sideName(g.winner), reason: t(`archive.reason.${g.reason}`) }) : t("archive.aborted");
  const ended = new Date(g.ended_at);
  const when = isNaN(ended.getTime()) ? g.ended_at : formatDate(ended, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  return h("div", { class: "item" },
    h("span", {}, [t("game.players", { white: playerText(g.white), black: playerText(g.black) }), rulesName(g.rules), result, t("archive.plies", { count: g.plies }), when].join(" · ")),
    h("span", { class: "buttons" },
      h("a", { class: "button", href: `#/replay/${g.game}`, id: `replay-${g.game}` }, t("game.replay")),
      h("button", { class: "quiet", onclick: () => exportRecord(g.game) }, t("archive.export"))));
}
