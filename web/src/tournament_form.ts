// "Create a tournament" (#/tournaments/new): every setting the server takes (docs/PROTOCOL.md
// "Tournaments", tournament_create), with what each kind means. Who may create one is the
// server's to say: moderators, or everyone where the host allows it; a refusal is shown here with
// the server's reason. The form keeps what was typed when it is refused.
import { BUILTIN_VARIANTS, type ClientMessage } from "@protocol";
import { h, replaceChildren } from "./dom";
import { TIME_CHOICES } from "./game";

export type TournamentCreate = Extract<ClientMessage, { type: "tournament_create" }>;

export const KINDS = [
  { kind: "arena", label: "Arena", about: "Everyone plays as many games as fit in its time, paired again as soon as a game ends. A win scores 2 and a draw 1; after two wins in a row a player is on fire and scores double until a game is not won. Ties are broken by wins." },
  { kind: "round_robin", label: "Round robin", about: "Everyone plays everyone once. Ties are broken by Sonneborn-Berger (SB): the points of the players you beat, plus half of those you drew." },
  { kind: "swiss", label: "Swiss", about: "A fixed number of rounds, each pairing players with the same score. Ties are broken by Buchholz: the sum of your opponents' points." },
] as const;

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
export function durationSeconds(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d{1,6}$/.test(t)) return Number(t) * 60;
  const units: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, d: 86400 };
  let total = 0;
  let rest = t;
  while (rest !== "") {
    const part = /^(\d{1,6})\s*(s|sec|min|m|h|d)\b\s*/.exec(rest);
    if (!part) return null;
    total += Number(part[1]) * units[part[2]];
    rest = rest.slice(part[0].length);
  }
  return t === "" ? null : total;
}

function duration(text: string, what: string, min: number, max: number): number | string {
  const s = durationSeconds(text);
  if (s === null) return `${what}: a time like 90 s, 5 min or 1 h 30 min`;
  return s < min || s > max ? `${what}: from ${min < 60 ? `${min} s` : `${min / 60} min`} to ${max / 86400} days` : s;
}

function whole(text: string, what: string, min: number, max: number): number | string {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${what}: a whole number, please`;
  const n = Number(t);
  return n < min || n > max ? `${what}: from ${min} to ${max}` : n;
}

export function readForm(v: FormValues): Omit<TournamentCreate, "type"> | { error: string } {
  const name = v.name.trim();
  if (name.length === 0 || name.length > 64) return { error: "Name: 1 to 64 characters" };
  if (!KINDS.some((k) => k.kind === v.kind)) return { error: "Kind: arena, round robin or Swiss" };
  const time = TIME_CHOICES[v.time]?.time;
  if (!time) return { error: "Clock: a tournament's games need a clock" };
  const start = duration(v.startIn, "Starts in", 1, 30 * 86400);
  if (typeof start === "string") return { error: start };
  const max = whole(v.maxPlayers, "At most (players, 0 for no limit)", 0, 1000);
  if (typeof max === "string") return { error: max };
  let lasts = 0, rounds = 0;
  if (v.kind === "arena") {
    const d = duration(v.lasts, "Lasts", 5, 7 * 86400);
    if (typeof d === "string") return { error: d };
    lasts = d;
  }
  if (v.kind === "swiss") {
    const r = whole(v.rounds, "Rounds", 1, 30);
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
    kind: h("select", { id: "tn-kind" }, ...KINDS.map((k) => h("option", { value: k.kind }, k.label))),
    rules: h("select", { id: "tn-rules" }, ...BUILTIN_VARIANTS.map((v) => h("option", { value: v.name }, v.name))),
    time: h("select", { id: "tn-time" }, ...TIME_CHOICES.map((t, i) => (t.time ? h("option", { value: String(i) }, t.label) : null))),
    rated: h("input", { type: "checkbox", id: "tn-rated", checked: true }),
    start: h("input", { id: "tn-start", value: "5 min" }),
    duration: h("input", { id: "tn-duration", value: "1 h" }),
    rounds: h("input", { id: "tn-rounds", inputmode: "numeric", value: "5" }),
    max: h("input", { id: "tn-max", inputmode: "numeric", value: "0" }),
    bots: h("input", { type: "checkbox", id: "tn-bots", checked: true }),
  };
  private readonly about = h("p", { class: "muted", id: "tn-about" });
  private readonly durationRow = h("label", {}, "Lasts (like 45 min or 1 h 30 min)", this.fields.duration);
  private readonly roundsRow = h("label", {}, "Rounds", this.fields.rounds);
  private sending = false;

  // `create` sends the request; its answer comes back through created() or refused().
  constructor(private readonly create: (t: Omit<TournamentCreate, "type">) => void) {
    const f = this.fields;
    f.time.value = String(TIME_CHOICES.findIndex((t) => t.label === "3 min + 2 s"));
    f.kind.addEventListener("change", () => this.kindChanged());
    const submit = h("button", { class: "primary", type: "submit", id: "tn-create" }, "Create the tournament");
    const form = h("form", { class: "stack" },
      h("label", {}, "Name", f.name),
      h("label", {}, "Kind", f.kind), this.about,
      h("label", {}, "Rules", f.rules),
      h("label", {}, "Clock", f.time),
      h("label", { class: "check" }, f.rated, "Rated"),
      h("label", {}, "Starts in (like 90 s, 5 min or 1 h)", f.start),
      this.durationRow, this.roundsRow,
      h("label", {}, "At most (players, 0 for no limit)", f.max),
      h("label", { class: "check" }, f.bots, "Bots may play"),
      this.problem, submit);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    replaceChildren(this.el, h("h1", {}, "Create a tournament"),
      h("p", { class: "muted" }, "The server decides who may create one: its moderators, or everyone where the host allows it."),
      form, h("a", { class: "button quiet", href: "#/", id: "tn-back" }, "Back to the lobby"));
    this.kindChanged();
  }

  private kindChanged(): void {
    const kind = this.fields.kind.value;
    replaceChildren(this.about, KINDS.find((k) => k.kind === kind)?.about ?? "");
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
    replaceChildren(this.problem, refusal ? `The server refused: ${refusal}` : "");
  }
}
