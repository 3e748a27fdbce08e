// "Create a tournament" (#/tournaments/new): every setting the server takes (docs/PROTOCOL.md
// "Tournaments", tournament_create), with what each kind means. Who may create one is the
// server's to say: moderators, or everyone where the host allows it; a refusal is shown here with
// the server's reason. The form keeps what was typed when it is refused.
import { BUILTIN_VARIANTS, type ClientMessage } from "@protocol";
import { h, replaceChildren } from "./dom";
import { TIME_CHOICES, rulesName, timeChoiceText } from "./game";
import { t } from "./i18n";

export type TournamentCreate = Extract<ClientMessage, { type: "tournament_create" }>;

// Each kind with what it means (tournament.about.KIND in the catalogue).
export const KINDS = ["arena", "round_robin", "swiss"] as const;

// Field values as typed, read into a tournament_create, or why not.
export interface FormValues {
  name: string;
  kind: string;
  rules: string;
  time: number; // index into TIME_CHOICES
  rated: boolean;
  startIn: string; // a duration (durationSeconds)
  lasts: string; // arena, a duration
  rounds: string; // Swiss
  maxPlayers: string;
  botsAllowed: boolean;
}

// "90 s", "5 min", "1 h", "2 h 30 min", "1 d", or a bare number of minutes: seconds, or null.
// The units are also read as Chinese writes them: 90 秒, 5 分钟, 1 小时 30 分, 1 天.
export function durationSeconds(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d{1,6}$/.test(t)) return Number(t) * 60;
  const units: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, d: 86400, "秒": 1, "分": 60, "分钟": 60, "小时": 3600, "时": 3600, "天": 86400 };
  let total = 0;
  let rest = t;
  while (rest !== "") {
    const part = /^(\d{1,6})\s*(?:(s|sec|min|m|h|d)\b|(秒|分钟|分|小时|时|天))\s*/.exec(rest);
    if (!part) return null;
    total += Number(part[1]) * units[part[2] ?? part[3]];
    rest = rest.slice(part[0].length);
  }
  return t === "" ? null : total;
}

function duration(text: string, what: string, min: number, max: number): number | string {
  const s = durationSeconds(text);
  if (s === null) return t("tournament.form.duration.bad", { what });
  const least = min < 60 ? t("duration.seconds", { n: min }) : t("duration.minutes", { n: min / 60 });
  return s < min || s > max ? t("tournament.form.duration.range", { what, min: least, days: max / 86400 }) : s;
}

function whole(text: string, what: string, min: number, max: number): number | string {
  const typed = text.trim();
  if (!/^\d+$/.test(typed)) return t("tournament.form.whole.bad", { what });
  const n = Number(typed);
  return n < min || n > max ? t("tournament.form.whole.range", { what, min, max }) : n;
}

export function readForm(v: FormValues): Omit<TournamentCreate, "type"> | { error: string } {
  const name = v.name.trim();
  if (name.length === 0 || name.length > 64) return { error: t("tournament.form.name.bad") };
  if (!KINDS.some((k) => k === v.kind)) return { error: t("tournament.form.kind.bad") };
  const time = TIME_CHOICES[v.time]?.time;
  if (!time) return { error: t("tournament.form.clock.bad") };
  const start = duration(v.startIn, t("tournament.form.starts_in.short"), 1, 30 * 86400);
  if (typeof start === "string") return { error: start };
  const max = whole(v.maxPlayers, t("tournament.form.max"), 0, 1000);
  if (typeof max === "string") return { error: max };
  let lasts = 0, rounds = 0;
  if (v.kind === "arena") {
    const d = duration(v.lasts, t("tournament.form.lasts.short"), 5, 7 * 86400);
    if (typeof d === "string") return { error: d };
    lasts = d;
  }
  if (v.kind === "swiss") {
    const r = whole(v.rounds, t("tournament.form.rounds"), 1, 30);
    if (typeof r === "string") return { error: r };
    rounds = r;
  }
  return { name, kind: v.kind, rules: v.rules, time, rated: v.rated, start_in: start, duration: lasts, rounds, max_players: max, bots_allowed: v.botsAllowed };
}

export class TournamentForm {
  readonly el = h("section", { class: "card tournament-form", id: "tournament-new" });
  private readonly problem = h("p", { class: "error", id: "tournament-new-problem", role: "alert" });
  private readonly fields = {
    name: h("input", { id: "tn-name", maxlength: 64, autocomplete: "off", required: true }),
    kind: h("select", { id: "tn-kind" }, ...KINDS.map((k) => h("option", { value: k }, t(`tournament.kind.${k}`)))),
    rules: h("select", { id: "tn-rules" }, ...BUILTIN_VARIANTS.map((v) => h("option", { value: v.name }, rulesName(v.name)))),
    time: h("select", { id: "tn-time" }, ...TIME_CHOICES.map((c, i) => (c.time ? h("option", { value: String(i) }, timeChoiceText(c.time)) : null))),
    rated: h("input", { type: "checkbox", id: "tn-rated", checked: true }),
    start: h("input", { id: "tn-start", value: t("tournament.form.start.default") }),
    duration: h("input", { id: "tn-duration", value: t("tournament.form.lasts.default") }),
    rounds: h("input", { id: "tn-rounds", inputmode: "numeric", value: "5" }),
    max: h("input", { id: "tn-max", inputmode: "numeric", value: "0" }),
    bots: h("input", { type: "checkbox", id: "tn-bots", checked: true }),
  };
  private readonly about = h("p", { class: "muted", id: "tn-about" });
  private readonly durationRow = h("label", {}, t("tournament.form.lasts"), this.fields.duration);
  private readonly roundsRow = h("label", {}, t("tournament.form.rounds"), this.fields.rounds);
  private sending = false;

  // `create` sends the request; its answer comes back through created() or refused().
  constructor(private readonly create: (x: Omit<TournamentCreate, "type">) => void) {
    const f = this.fields;
    f.time.value = String(TIME_CHOICES.findIndex((c) => c.time !== null && "initial" in c.time && c.time.initial === 180 && c.time.increment === 2));
    f.kind.addEventListener("change", () => this.kindChanged());
    const submit = h("button", { class: "primary", type: "submit", id: "tn-create" }, t("tournament.form.create"));
    const form = h("form", { class: "stack" },
      h("label", {}, t("signin.name"), f.name),
      h("label", {}, t("tournament.form.kind"), f.kind), this.about,
      h("label", {}, t("lobby.rules"), f.rules),
      h("label", {}, t("tournament.form.clock"), f.time),
      h("label", { class: "check" }, f.rated, t("lobby.rated")),
      h("label", {}, t("tournament.form.starts_in"), f.start),
      this.durationRow, this.roundsRow,
      h("label", {}, t("tournament.form.max"), f.max),
      h("label", { class: "check" }, f.bots, t("tournament.form.bots")),
      this.problem, submit);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    replaceChildren(this.el, h("h1", {}, t("lobby.create_tournament")),
      h("p", { class: "muted" }, t("tournament.form.who")),
      form, h("a", { class: "button quiet", href: "#/", id: "tn-back" }, t("common.back_to_lobby")));
    this.kindChanged();
  }

  private kindChanged(): void {
    const kind = this.fields.kind.value;
    replaceChildren(this.about, KINDS.some((k) => k === kind) ? t(`tournament.about.${kind}`) : "");
    this.durationRow.hidden = kind !== "arena";
    this.roundsRow.hidden = kind !== "swiss";
  }

  private submit(): void {
    if (this.sending) return;
    const f = this.fields;
    const read = readForm({ name: f.name.value, kind: f.kind.value, rules: f.rules.value, time: Number(f.time.value), rated: f.rated.checked,
      startIn: f.start.value, lasts: f.duration.value, rounds: f.rounds.value, maxPlayers: f.max.value, botsAllowed: f.bots.checked });
    if ("error" in read) return replaceChildren(this.problem, read.error);
    replaceChildren(this.problem);
    this.sending = true;
    this.create(read);
  }

  // The server's answer: created (the page moves on to it) or refused with its reason.
  answered(refusal: string | null): void {
    this.sending = false;
    replaceChildren(this.problem, refusal ? t("tournament.form.refused", { error: refusal }) : "");
  }
}
