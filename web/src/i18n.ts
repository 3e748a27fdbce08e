// The page's language: its catalogue of messages (i18n/LANG.json, ICU MessageFormat, gathered
// into @catalogues at build time), the locale for numbers and dates, and the choice kept in
// localStorage. English is the source: a key missing from a catalogue falls back to it. The
// pseudo-locale en-XA (pseudo.ts) is English made longer and marked, chosen in localStorage only.
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOGUES } from "@catalogues";
import { PSEUDO_LANGUAGE, pseudoMessage } from "./pseudo";

export type Values = Record<string, string | number>;

const LANGUAGE_KEY = "amazons.language";
export const SOURCE_LANGUAGE = "en";

// Chinese written in Traditional characters is not zh-CN: those readers get the source.
const TRADITIONAL_CHINESE = /^zh-(hant|tw|hk|mo)\b/i;

// The catalogue for one of the browser's preferred languages: the same tag, else the first
// catalogue of the same language (zh, zh-Hans, zh-SG -> zh-CN), else none.
function match(tag: string, available: readonly string[]): string | null {
  const lower = tag.toLowerCase();
  const exact = available.find((a) => a.toLowerCase() === lower);
  if (exact) return exact;
  if (TRADITIONAL_CHINESE.test(tag)) return null;
  const base = lower.split("-")[0];
  return available.find((a) => a.toLowerCase().split("-")[0] === base) ?? null;
}

// The first of `preferred` (navigator.languages, best first) that has a catalogue, else English.
export function pickLanguage(preferred: readonly string[], available: readonly string[] = languageCodes()): string {
  for (const tag of preferred) {
    const m = match(tag, available);
    if (m) return m;
  }
  return SOURCE_LANGUAGE;
}

export function languageCodes(): string[] {
  return Object.keys(CATALOGUES).sort();
}

// Each language by its own name ("English", "简体中文"), for the settings' switch.
export function languages(): { code: string; name: string }[] {
  return languageCodes().map((code) => ({ code, name: CATALOGUES[code]["language.name"] ?? code }));
}

function storedLanguage(): string | null {
  try {
    const v = typeof localStorage !== "undefined" ? localStorage.getItem(LANGUAGE_KEY) : null;
    return v && (CATALOGUES[v] || v === PSEUDO_LANGUAGE) ? v : null;
  } catch {
    return null;
  }
}

// A page's languages; none outside a page (node, where tests/web's checks run, has a navigator
// of its own from version 21 that follows the machine's locale).
function browserLanguages(): readonly string[] {
  if (typeof window === "undefined" || typeof navigator === "undefined") return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

let current = storedLanguage() ?? pickLanguage(browserLanguages());
const formats = new Map<string, IntlMessageFormat>();

function applyToDocument(): void {
  if (typeof document !== "undefined") document.documentElement.lang = current;
}
applyToDocument();

// The language the page speaks (a catalogue's code, also its BCP 47 locale).
export function language(): string {
  return current;
}

// Whether the person chose the language (else it follows the browser's).
export function languageChosen(): boolean {
  return storedLanguage() !== null;
}

// Keeps the choice (null: follow the browser again) and speaks it from now on. Screens built
// before keep their texts: the caller redraws them (or reloads the page).
export function setLanguage(code: string | null): void {
  try {
    if (code === null) localStorage.removeItem(LANGUAGE_KEY);
    else localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  current = code !== null && (CATALOGUES[code] || code === PSEUDO_LANGUAGE) ? code : pickLanguage(browserLanguages());
  formats.clear();
  applyToDocument();
}

export function has(key: string): boolean {
  return key in CATALOGUES[SOURCE_LANGUAGE];
}

// The message `key` in the page's language with its placeholders filled in. A key no catalogue
// has is shown as itself (the catalogue check in tests/web/i18n_check.mjs keeps that from
// happening).
export function t(key: string, values?: Values): string {
  const cacheKey = `${current}\u0000${key}`;
  let f = formats.get(cacheKey);
  if (!f && current === PSEUDO_LANGUAGE) {
    const english = CATALOGUES[SOURCE_LANGUAGE][key];
    if (english === undefined) return key;
    f = pseudoMessage(english);
    formats.set(cacheKey, f);
  }
  if (!f) {
    const own = CATALOGUES[current]?.[key];
    const text = own ?? CATALOGUES[SOURCE_LANGUAGE][key];
    if (text === undefined) return key;
    f = new IntlMessageFormat(text, own !== undefined ? current : SOURCE_LANGUAGE);
    formats.set(cacheKey, f);
  }
  return String(f.format(values));
}

// Numbers and dates as the page's language writes them (clocks are not: formatClock in dom.ts).
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(current, options).format(n);
}

// A change with its sign: "+12", "-8", "+0".
export function formatSigned(n: number): string {
  return (n >= 0 ? "+" : "") + formatNumber(n);
}

export function formatDate(d: Date | number, options?: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(current, options).format(d);
}
