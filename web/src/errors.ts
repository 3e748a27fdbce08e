// The page's own words for the server's refusals. The server speaks no language: its error has a
// code (docs/PROTOCOL.md, Errors), for an illegal move the rules' reason, and a message in English
// for logs, which the page writes to the console (server_errors.ts) and never shows.
import { has, t } from "./i18n";

// Codes whose `reason` a moderator wrote: shown as written.
const PERSONS_REASON = new Set(["banned", "muted", "kicked"]);

export function errorText(e: { code: string; reason?: string }): string {
  if (e.code === "illegal_move" && e.reason && has(`error.illegal_move.${e.reason}`)) return t(`error.illegal_move.${e.reason}`);
  if (PERSONS_REASON.has(e.code) && e.reason) return t(`error.${e.code}.with_reason`, { reason: e.reason });
  if (has(`error.${e.code}`)) return t(`error.${e.code}`);
  return t("error.unknown", { code: e.code });
}
