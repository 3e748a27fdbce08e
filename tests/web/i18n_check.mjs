// The catalogues of messages (i18n/LANG.json, ICU MessageFormat) against each other and against
// the code that uses them. Fails when:
// - a language lacks a key of the source (en.json) or has one the source does not;
// - a message does not parse, or names other placeholders than the source's message;
// - the code names a key (t("a.b")) that the source lacks;
// - the source has a key that no code names: in a call t("a.b"), as a dotted literal chosen before
//   the call, or under a prefix the code builds keys from (t(`error.${code}`) covers error.*).
// The code is the web client's TypeScript and the native clients' C++ (client/, tui/: .cpp and .h,
// folders read with their subfolders). In C++ a key is a dotted string literal in a namespace of
// the catalogue ("game.status.over", also chosen before the call), a prefix one that code extends
// ("error." + code); every such key must be in the source.
// Usage: node i18n_check.mjs I18N_DIR NODE_MODULES SRC_DIR...
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";

const [i18nDir, nodeModules, ...srcDirs] = process.argv.slice(2);
const require = createRequire(join(resolve(nodeModules), "noop.js"));
const { IntlMessageFormat } = require("intl-messageformat");

const problems = [];
const SOURCE = "en";
const load = (lang) => JSON.parse(readFileSync(join(i18nDir, `${lang}.json`), "utf8"));
const langs = readdirSync(i18nDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
if (!langs.includes(SOURCE)) problems.push(`no ${SOURCE}.json in ${i18nDir}`);

// The placeholders a message names (plural's # is its own argument's), sorted.
function args(message, lang, key) {
  let ast;
  try {
    ast = new IntlMessageFormat(message, lang).getAst();
  } catch (e) {
    problems.push(`${lang}: ${key} does not parse: ${e.message}`);
    return null;
  }
  const names = new Set();
  const walk = (nodes) => {
    for (const n of nodes) {
      if (n.value !== undefined && typeof n.value === "string" && n.type !== 0 && n.type !== 7) names.add(n.value);
      if (n.options) for (const o of Object.values(n.options)) walk(o.value);
      if (n.children) walk(n.children);
    }
  };
  walk(ast);
  return [...names].sort().join(",");
}

const source = load(SOURCE);
for (const lang of langs) {
  const cat = load(lang);
  for (const [key, msg] of Object.entries(cat)) {
    if (typeof msg !== "string") problems.push(`${lang}: ${key} is not a string`);
    if (!(key in source)) problems.push(`${lang}: ${key} is not in ${SOURCE}.json`);
  }
  for (const [key, msg] of Object.entries(source)) {
    if (!(key in cat)) {
      problems.push(`${lang}: missing ${key}`);
      continue;
    }
    const want = args(msg, SOURCE, key);
    const got = args(cat[key], lang, key);
    if (want !== null && got !== null && want !== got) problems.push(`${lang}: ${key} has placeholders {${got}}, ${SOURCE} has {${want}}`);
  }
  if (typeof cat["language.name"] !== "string") problems.push(`${lang}: no language.name (its own name, for the switch)`);
}

// The keys the code names: t("key" ...) literally, and t(`prefix.${...}`) as a prefix.
const used = new Set();
const prefixes = new Set();
const mentioned = new Set();
const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
const allFiles = srcDirs.flatMap(walk);
const files = srcDirs.flatMap((d) => readdirSync(d).filter((f) => /\.(ts|mjs|js)$/.test(f)).map((f) => join(d, f)));
// C++: the catalogue's namespaces tell keys from other dotted literals (file names, hosts).
const namespaces = new Set(Object.keys(source).map((k) => k.split(".")[0]));
const fileLike = /\.(json|log|txt|sgf|lg|moves|cpp|h|ttf|ttc|otf|wav|ogg|png|sock|bad)$/;
let nativeKeys = 0;
for (const f of allFiles.filter((f) => /\.(cpp|h)$/.test(f))) {
  const text = readFileSync(f, "utf8");
  for (const m of text.matchAll(/"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"/g)) {
    const key = m[1];
    if (!namespaces.has(key.split(".")[0]) || fileLike.test(key)) continue;
    used.add(key);
    nativeKeys += 1;
  }
  for (const m of text.matchAll(/"([a-z0-9_]+(?:\.[a-z0-9_]+)*\.)"\s*\+/g))
    if (namespaces.has(m[1].split(".")[0])) prefixes.add(m[1]);
}
for (const f of files) {
  const text = readFileSync(f, "utf8");
  for (const m of text.matchAll(/\bt\(\s*"([A-Za-z0-9_.-]+)"/g)) used.add(m[1]);
  for (const m of text.matchAll(/\bt\(\s*`([A-Za-z0-9_.-]+)\$\{/g)) prefixes.add(m[1]);
  // A key chosen before the call (t(won ? "a.won" : "a.lost")) is a dotted literal in the code.
  for (const m of text.matchAll(/"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"/g)) mentioned.add(m[1]);
}
for (const key of used) if (!(key in source)) problems.push(`code names ${key}, which ${SOURCE}.json lacks`);
const always = new Set(["language.name"]);
for (const key of Object.keys(source))
  if (!used.has(key) && !mentioned.has(key) && !always.has(key) && ![...prefixes].some((p) => key.startsWith(p))) problems.push(`${SOURCE}.json: ${key} is used by no code`);

for (const p of problems) console.log(p);
console.log(`${langs.length} languages, ${Object.keys(source).length} keys, ${used.size} named in the code (${nativeKeys} times in C++), ${prefixes.size} prefixes`);
if (problems.length) {
  console.log(`${problems.length} problems`);
  process.exit(1);
}
console.log("ok");
