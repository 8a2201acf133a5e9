import type { EventSentence, FieldRef, RulesetDisplay, VitalSpec } from '@fray/engine';
import { at, isRecord } from './guards.js';
import { labelOf } from './labels.js';
import { vitalSpecs } from '@fray/engine/display';
import type { Combatant, EncounterState, EngineEvent, RulesetInfo } from './types.js';

/**
 * What a ruleset says about how it is shown (`GET /rulesets` → `display`), applied to a state:
 * vitals, labelled and grouped stats, the state fields worth showing, and events as sentences.
 * Nothing here knows a ruleset.
 */

export type { RulesetDisplay };
export { vitalSpecs };

export const emptyDisplay: RulesetDisplay = { vitals: [], statGroups: [], statLabels: {}, internal: [], dataLabels: {}, events: {} };

/** GET /rulesets' `display` (the engine's RulesetDisplay): its lists and maps are there. */
function isDisplay(d: unknown): d is RulesetDisplay {
  return (
    isRecord(d) &&
    Array.isArray(d.vitals) &&
    Array.isArray(d.statGroups) &&
    isRecord(d.statLabels) &&
    Array.isArray(d.internal) &&
    isRecord(d.dataLabels) &&
    isRecord(d.events)
  );
}

export function displayOf(rulesets: RulesetInfo[] | null | undefined, id: string): RulesetDisplay {
  const d = rulesets?.find((r) => r.id === id)?.display;
  return isDisplay(d) ? d : emptyDisplay;
}

/**
 * A reaction window's kind in the ruleset's words: the label (or name) of its catalogue entry
 * (`action-points.attack-of-opportunity` → "Attack of opportunity"), else the kind's own name made
 * readable; never the raw rule id.
 */
export function reactionName(ruleset: RulesetInfo | undefined, kind: string): string {
  const key = kind.slice(kind.indexOf('.') + 1);
  for (const e of ruleset?.catalogue ?? []) {
    if (!isRecord(e) || (e.id !== key && e.key !== key)) continue;
    const label = e.label ?? e.name;
    if (typeof label === 'string') return label;
  }
  return labelOf(key);
}

/** The clock's phase in the ruleset's words (`display.phases`), else its id made readable; never the raw id. */
export function phaseName(display: RulesetDisplay, phase: string): string {
  return display.phases?.[phase] ?? labelOf(phase);
}

/** What a player does in this phase, in the ruleset's words (`display.phaseHints`); null when it says nothing. */
export function phaseHint(display: RulesetDisplay, phase: string | null): string | null {
  return phase ? (display.phaseHints?.[phase] ?? null) : null;
}

/** The encounter's status in words. */
export function statusName(status: EncounterState['status']): string {
  return status === 'setup' ? 'setting up' : status === 'active' ? 'combat under way' : 'combat over';
}

function read(state: EncounterState, c: Combatant, ref: FieldRef | number | undefined): number | null {
  if (typeof ref === 'number') return ref;
  if (!ref) return null;
  // a dot reads inside (`vitals.Mana`)
  const v = at(ref.in === 'options' ? state.options : ref.in === 'stats' ? c.stats : c.data, ref.key);
  return typeof v === 'number' ? v : null;
}

/** One vital of one combatant as a viewer may see it. */
export interface VitalView {
  key: string;
  label: string;
  short: string;
  /** what it is, in the ruleset's words (shown as the short form's title) */
  doc: string;
  current: number;
  max: number | null;
  /** what is left, 0..1 (null: no maximum known, no bar) */
  left: number | null;
  /** the most serious threshold reached, in the game's words */
  status: string | null;
  /** the viewer sees the numbers (GM, or the combatant's controller), or only the bar and status */
  numbers: boolean;
  /** e.g. "HP 7/12 (down)", or "HP: about half" without numbers */
  text: string;
}

function statusOf(v: VitalSpec, current: number): string | null {
  let out: string | null = null;
  for (const t of v.thresholds ?? []) if (v.direction === 'down' ? current <= t.at : current >= t.at) out = t.label;
  return out;
}

const HARM_WORDS = ['unhurt', 'lightly hurt', 'about half', 'badly hurt', 'spent'] as const;

/** In words: what is left of a vital (harm words), or how full it is when the ruleset gives words for that. */
function roughly(v: VitalSpec, left: number, current: number, max: number): string {
  const [full, most, half, some, none] = v.amountWords ?? HARM_WORDS;
  const x = v.amountWords ? Math.max(0, Math.min(1, current / max)) : left;
  if (x >= 1) return full;
  if (x > 0.75) return most;
  if (x > 0.4) return half;
  if (x > 0) return some;
  return none;
}

/**
 * The vitals of a combatant. `numbers`: whether this viewer sees them as numbers (the GM and the
 * combatant's controller); others get a bar and a word. A maximum hidden as a secret stat gives no
 * bar to those who cannot see it.
 */
export function vitalsOf(display: RulesetDisplay, state: EncounterState, c: Combatant, numbers: boolean): VitalView[] {
  const out: VitalView[] = [];
  for (const v of vitalSpecs(display, state.options)) {
    const current = read(state, c, v.current);
    if (current === null) continue;
    const max = read(state, c, v.max);
    if (v.onlyWithMax && max === null) continue;
    const left = max && max > 0 ? Math.max(0, Math.min(1, v.direction === 'down' ? current / max : (max - current) / max)) : null;
    const status = statusOf(v, current);
    const shownNumbers = numbers || max === null;
    const text = shownNumbers
      ? `${v.short} ${current}${max !== null ? `/${max}` : ''}${status ? ` (${status})` : ''}`
      : `${v.short}: ${status ?? (left !== null && max ? roughly(v, left, current, max) : '?')}`;
    out.push({ key: v.key, label: v.label, short: v.short, doc: v.doc, current, max, left, status, numbers: shownNumbers, text });
  }
  return out;
}

/** The state fields worth showing (internal ones and vitals dropped), flattened to `a.b` keys, with labels. */
export function shownData(
  display: RulesetDisplay,
  entries: [string, unknown][],
  options?: unknown,
): Array<{ key: string; label: string; value: unknown }> {
  const vitalKeys = new Set(
    vitalSpecs(display, options)
      .filter((v) => v.current.in === 'data')
      .map((v) => v.current.key),
  );
  const internal = (k: string) => display.internal.some((i) => i === k || k.startsWith(`${i}.`));
  return entries
    .filter(([k]) => !internal(k) && !vitalKeys.has(k))
    .map(([k, v]) => ({ key: k, label: display.dataLabels[k] ?? k, value: v }));
}

/** Stats in the ruleset's groups, with labels; the rest under "Other". */
export function groupedStats(
  display: RulesetDisplay,
  stats: Record<string, unknown>,
): Array<{ label: string; entries: Array<{ key: string; label: string; value: unknown }> }> {
  const seen = new Set<string>();
  const groups = display.statGroups.map((g) => ({
    label: g.label,
    entries: g.stats.filter((k) => k in stats).map((k) => (seen.add(k), { key: k, label: display.statLabels[k] ?? k, value: stats[k] })),
  }));
  const rest = Object.keys(stats).filter((k) => !seen.has(k));
  if (rest.length)
    groups.push({
      label: groups.length ? 'Other' : 'Stats',
      entries: rest.map((k) => ({ key: k, label: display.statLabels[k] ?? k, value: stats[k] })),
    });
  return groups.filter((g) => g.entries.length > 0);
}

// ------------------------------------------------------------------------------------- sentences

export interface Names {
  state: EncounterState | null;
  /** names of effects by id (effects that have ended are gone from the state) */
  effects?: Map<string, { name: string; targetId: string | null }>;
}

const field = (e: Record<string, unknown>, path: string): unknown => at(e, path);

function itemName(state: EncounterState | null, id: string): string | null {
  for (const c of Object.values(state?.combatants ?? {})) {
    const it = c.items.find((i) => i.id === id);
    if (it) return it.name;
  }
  return null;
}

/** A value in words: a combatant id is its name, an item id its name, a list joined. */
export function word(names: Names, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map((x) => word(names, x)).join(', ');
  if (typeof v === 'string') {
    const c = names.state?.combatants[v];
    if (c) return c.name;
    return itemName(names.state, v) ?? v.replace(/^[a-z]+(-[a-z]+)+$/, (s) => s.replace(/-/g, ' '));
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (isRecord(v)) return typeof v.name === 'string' ? v.name : JSON.stringify(v);
  return String(v);
}

export function matches(e: Record<string, unknown>, when: Record<string, unknown> | undefined): boolean {
  if (!when) return true;
  return Object.entries(when).every(([k, want]) => {
    const got = field(e, k);
    if (want === true) return Boolean(got) && !(Array.isArray(got) && got.length === 0);
    if (want === false) return !got;
    return got === want;
  });
}

/** The ruleset's sentence for an event, or null when it has none. */
export function sentence(display: RulesetDisplay, names: Names, e: EngineEvent): string | null {
  const s: EventSentence | undefined = display.events[e.type];
  if (!s) return null;
  const text = typeof s === 'string' ? s : s.find((x) => matches(e, x.when))?.text;
  if (!text) return null;
  // a `phase` field is the clock's phase: said with its name (display.phases), never its id
  const phase = (path: string, v: unknown): string | null => (path === 'phase' && typeof v === 'string' ? phaseName(display, v) : null);
  return text.replace(/\{([a-zA-Z0-9_.]+)\}/g, (_m, path: string) => phase(path, field(e, path)) ?? word(names, field(e, path)));
}
