// node pseudo_check.js: the pseudo-locale (web/src/pseudo.ts) over every English message of the
// catalogue. Each, formatted with a number for every placeholder, comes out in brackets with no
// plain ASCII letter left, with each number the English one shows (placeholders, plurals and
// selects kept), and at least 40% longer in its text. Exits non-zero with the first problems.
// The page's own copy of the formatter (web/node_modules), as the bundle has it.
import { IntlMessageFormat } from "../../web/node_modules/intl-messageformat";
import { CATALOGUES } from "@catalogues";
import { accent, pseudoMessage } from "../../web/src/pseudo";

declare const process: { exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };

const problems: string[] = [];
const english = CATALOGUES.en;
if (accent("Play the computer") !== "Þĺáý ţĥé çóɱþúţéŕ") problems.push(`accent: ${accent("Play the computer")}`);
// Every placeholder a message names, given 7 (a number fits plurals, and selects take "other").
function names(text: string): string[] {
  const out: string[] = [];
  const re = /\{\s*([A-Za-z_]\w*)\s*[,}]/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1]);
  return out;
}
let checked = 0;
for (const [key, text] of Object.entries(english)) {
  const values: Record<string, number> = {};
  for (const n of names(text)) values[n] = 7;
  const plain = String(new IntlMessageFormat(text, "en").format(values));
  const pseudo = String(pseudoMessage(text).format(values));
  const sevens = (s: string) => (s.match(/7/g) ?? []).length;
  if (!pseudo.startsWith("[") || !pseudo.endsWith("]")) problems.push(`${key}: not in brackets: ${pseudo}`);
  if (/[A-Za-z]/.test(pseudo)) problems.push(`${key}: plain letters left: ${pseudo}`);
  if (sevens(pseudo) !== sevens(plain)) problems.push(`${key}: placeholders lost: ${plain} -> ${pseudo}`);
  const textLength = plain.replace(/7/g, "").length;
  const padded = (pseudo.match(/~/g) ?? []).length - (plain.match(/~/g) ?? []).length;
  if (padded < Math.floor(textLength * 0.4)) problems.push(`${key}: lengthened by ${padded} for ${textLength}: ${pseudo}`);
  ++checked;
}
if (checked < 700) problems.push(`only ${checked} messages checked`);

if (problems.length) {
  for (const p of problems.slice(0, 20)) console.error(p);
  process.exit(1);
}
console.log(`pseudo_check: ${checked} messages ok`);
