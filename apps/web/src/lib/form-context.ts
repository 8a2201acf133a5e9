/**
 * What a schema form's pickers offer, from the encounter (its combatants, its zones) and the
 * ruleset (its catalogue of actions, its options): a field that names something is a choice of
 * names, never an id to type (`refers` in the ruleset's form hints).
 */
import type { FormHints, RulesetDisplay } from '@fray/engine';
import { rollLabel } from './describe.js';
import { displayOf, vitalSpecs } from './display.js';
import { at, isRecord, isString, stringsOf } from './guards.js';
import { labelOf } from './labels.js';
import { subHints, type Field, type Hints } from './schema-form.js';
import type { EncounterState, RulesetInfo } from './types.js';

type Pick = { value: string; label: string };

export interface FormContext {
  combatants?: Array<{ id: string; name: string; side: string; position?: unknown; stats?: unknown }>;
  /** what the other pickers offer, in words: items, effects, recent rolls, vitals, stats */
  picks?: Partial<Record<'item' | 'effect' | 'roll' | 'vital' | 'stat', Pick[]>>;
  zones?: Array<{ id: string; name: string }>;
  actions?: Array<{ id: string; label: string; kind?: string }>;
  /** the encounter's options (a map's usual keys may be an option's) */
  options?: unknown;
  /** a zone picker also offers a new zone, named in the form (`forms.newZone`) */
  newZone?: boolean;
  /** the combatant being edited: not offered as its own mount or commander */
  self?: string;
}

/** The choice of a zone picker that stands for a zone the form will make. */
export const NEW_ZONE = '+new-zone';

/** The ruleset's form hints under `prefix` (`stats`, `options`, `commands.defineZone`; '' for all of them). */
export function hintsUnder(display: RulesetDisplay, prefix: string): Hints {
  const forms: FormHints | undefined = display.forms;
  const all = forms?.fields ?? {};
  return prefix ? subHints(all, prefix) : all;
}

/** The zones of a zone space as the state keeps them (`space.zones`, e.g. `rs.zones`). */
export function zonesIn(ruleset: RulesetInfo | undefined, state: EncounterState | null | undefined): Array<{ id: string; name: string }> {
  const all = ruleset?.space?.zones && state ? at(state, ruleset.space.zones) : undefined;
  if (!isRecord(all)) return [];
  return Object.values(all).flatMap((z) => (isRecord(z) && isString(z.id) ? [{ id: z.id, name: isString(z.name) ? z.name : z.id }] : []));
}

/** The ruleset's actions by id, label and kind (its catalogue). */
function actionsOf(ruleset: RulesetInfo): Array<{ id: string; label: string; kind?: string }> {
  return ruleset.catalogue.flatMap((e) =>
    isRecord(e) && isString(e.id)
      ? [{ id: e.id, label: isString(e.label) ? e.label : labelOf(e.id), ...(isString(e.kind) ? { kind: e.kind } : {}) }]
      : [],
  );
}

/** The encounter's items, effects and recent rolls, and the ruleset's vitals and stats, in words. */
function picksOf(ruleset: RulesetInfo, state: EncounterState): NonNullable<FormContext['picks']> {
  const cs = Object.values(state.combatants);
  const name = (id: string | null | undefined) => (id ? (state.combatants[id]?.name ?? id) : 'the field');
  const display = displayOf([ruleset], ruleset.id);
  const stats =
    isRecord(ruleset.stats.schema) && isRecord(ruleset.stats.schema.properties) ? Object.keys(ruleset.stats.schema.properties) : [];
  // (a state made by hand in a test may lack the lists)
  const list = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);
  return {
    item: cs.flatMap((c) => list(c.items).map((i) => ({ value: i.id, label: `${i.name} (${c.name})` }))),
    effect: list(state.effects).map((e) => ({ value: e.id, label: `${e.condition ?? e.name} on ${name(e.targetId)}` })),
    roll: [...list(state.rolls)].reverse().map((r) => ({ value: r.id, label: rollLabel(state, r) })),
    vital: vitalSpecs(display, state.options)
      .filter((v) => v.adjustable)
      .map((v) => ({ value: v.key, label: v.label })),
    stat: stats.map((k) => ({ value: k, label: display.statLabels[k] ?? labelOf(k) })),
  };
}

export function contextOf(ruleset: RulesetInfo, state?: EncounterState | null, extra: Partial<FormContext> = {}): FormContext {
  const out: FormContext = { actions: actionsOf(ruleset), ...extra };
  if (state) {
    out.combatants = Object.values(state.combatants).map((c) => ({
      id: c.id,
      name: c.name,
      side: c.side,
      position: c.position,
      stats: c.stats,
    }));
    out.zones = zonesIn(ruleset, state);
    out.options = state.options;
    out.picks = picksOf(ruleset, state);
  }
  return out;
}

/** The entries at `path` of a combatant's stats (`powers`, `powers.alternates`): by id and name, or the words themselves. */
function entriesAt(v: unknown, path: string[]): Pick[] {
  if (Array.isArray(v)) return v.flatMap((x) => entriesAt(x, path));
  if (path.length > 0) return isRecord(v) ? entriesAt(v[path[0]!], path.slice(1)) : [];
  if (isString(v)) return [{ value: v, label: v }];
  if (isRecord(v) && isString(v.id)) return [{ value: v.id, label: isString(v.name) ? v.name : v.id }];
  return [];
}

/** Entries of the combatants' stats, each named with whose it is ("Fire Blast (Aria)"). */
function entriesOf(ctx: FormContext, paths: string): Pick[] {
  const seen = new Set<string>();
  return (ctx.combatants ?? []).flatMap((c) =>
    paths
      .split(',')
      .flatMap((p) => entriesAt(c.stats, p.trim().split('.')))
      .filter((p) => !seen.has(p.value) && (seen.add(p.value), true))
      .map((p) => ({ value: p.value, label: `${p.label} (${c.name})` })),
  );
}

/** Positions that share a value (a group, an engagement): each value, named by who shares it. */
function shared(ctx: FormContext, key: string): Pick[] {
  const by = new Map<string, string[]>();
  for (const c of ctx.combatants ?? []) {
    const v = at(c.position, key);
    if (isString(v)) by.set(v, [...(by.get(v) ?? []), c.name]);
  }
  return [...by.entries()].map(([value, names]) => ({ value, label: `with ${names.join(', ')}` }));
}

function picksFor(f: Field, ctx: FormContext): Pick[] | null {
  switch (f.refers) {
    case 'combatant':
      return ctx.combatants
        ? ctx.combatants.filter((c) => c.id !== ctx.self).map((c) => ({ value: c.id, label: `${c.name} (${c.side})` }))
        : null;
    case 'zone': {
      if (!ctx.zones) return null;
      const zones = ctx.zones.map((z) => ({ value: z.id, label: z.name }));
      return ctx.newZone && !f.madeFrom ? [...zones, { value: NEW_ZONE, label: '+ A new zone…' }] : zones;
    }
    case 'action':
      return ctx.actions
        ? ctx.actions.filter((a) => !f.actionKinds || f.actionKinds.includes(a.kind ?? '')).map((a) => ({ value: a.id, label: a.label }))
        : null;
    case 'shared':
      return ctx.combatants ? shared(ctx, f.key ?? f.name.slice(f.name.lastIndexOf('.') + 1).replace(/Id$/, '')) : null;
    case 'entry':
      return ctx.combatants && f.entries && f.entries !== 'siblings' ? entriesOf(ctx, f.entries) : null;
    case undefined:
      return null;
    default:
      return ctx.picks?.[f.refers] ?? null;
  }
}

/** A map's usual keys: a list, or the keys (or entries) of an option. */
function usualOf(f: Field, ctx: FormContext): string[] {
  if (!f.usual) return [];
  if (Array.isArray(f.usual)) return f.usual;
  const v = at(ctx.options, f.usual.option);
  return isRecord(v) ? Object.keys(v) : stringsOf(v);
}

/** The field with its choices from the context (and its rows'); a value no longer offered stays one. */
export function inContext(f: Field, ctx: FormContext): Field {
  const out: Field = f.rows ? { ...f, rows: f.rows.map((r) => inContext(r, ctx)) } : { ...f };
  const usual = usualOf(f, ctx);
  if (usual.length > 0) {
    out.choices = usual;
    out.choiceLabels = Object.fromEntries(usual.map((u) => [u, labelOf(u)]));
  }
  const picks = f.refers ? picksFor(f, ctx) : null;
  if (picks) {
    out.choices = picks.map((p) => p.value);
    out.choiceLabels = { ...f.choiceLabels, ...Object.fromEntries(picks.map((p) => [p.value, p.label])) };
  }
  return out;
}
