// The pseudo-locale, en-XA (the tag Android and Chromium give theirs): every English message with
// its letters accented, 40% longer and in brackets, "[Þĺáý ţĥé çóɱþúţéŕ~~~~~ ~~]". A text on the
// page that is plain English did not come through the catalogue, and layouts are seen with texts
// longer than English's (as German's and Russian's are). For developers and the browser tests
// (docs/I18N.md); the settings do not offer it.
import { IntlMessageFormat } from "intl-messageformat";

export const PSEUDO_LANGUAGE = "en-XA";

type Ast = ReturnType<IntlMessageFormat["getAst"]>;
// The element kinds of @formatjs/icu-messageformat-parser's TYPE that hold text.
const LITERAL = 0;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;
interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

const PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ACCENTED = Array.from("áƀçďéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ");
const LONGER = 0.4;

// Each ASCII letter as an accented one; everything else as it is.
export function accent(text: string): string {
  let out = "";
  for (const c of text) {
    const i = PLAIN.indexOf(c);
    out += i >= 0 ? ACCENTED[i] : c;
  }
  return out;
}

// Accents the text of `elements` in place (placeholders, plurals' and selects' syntax kept) and
// returns how many characters of text they hold (the longest option of a plural or select).
function accentAll(elements: Element[]): number {
  let length = 0;
  for (const e of elements) {
    if (e.type === LITERAL && typeof e.value === "string") {
      const text = accent(e.value);
      e.value = text;
      length += text.length;
    } else if ((e.type === SELECT || e.type === PLURAL) && e.options) {
      length += Math.max(0, ...Object.values(e.options).map((o) => accentAll(o.value)));
    } else if (e.type === TAG && e.children) {
      length += accentAll(e.children);
    }
  }
  return length;
}

// The pseudo-localised message of an English one.
export function pseudoMessage(english: string): IntlMessageFormat {
  const ast = new IntlMessageFormat(english, "en").getAst() as unknown as Element[];
  // In words of up to five, as a longer language's text wraps: one unbroken run of tildes would
  // be a word no language has.
  const pad = "~".repeat(Math.ceil(accentAll(ast) * LONGER)).replace(/(~{5})(?=~)/g, "$1 ");
  const framed = [{ type: LITERAL, value: "[" }, ...ast, { type: LITERAL, value: `${pad}]` }];
  return new IntlMessageFormat(framed as unknown as Ast, "en");
}
