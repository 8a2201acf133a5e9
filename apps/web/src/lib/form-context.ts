/**
 * What a schema form's pickers offer, from the encounter (its combatants, its zones) and the
 * ruleset (its catalogue of actions, its options): a field that names something is a choice of
 * names, never an id to type (`refers` in the ruleset's form hints).
 */
import type { FormHints, RulesetDisplay } from '@fray/engine';
import { at, isRecord, isString, stringsOf } from './guards.js';
import { labelOf } from './labels.js';
import { subHints, type Field, type Hints } from './schema-form.js';
import type { EncounterState, RulesetInfo } from './types.js';

export interface FormContext {
  combatants?: Array<{ id: string; name: string; side: string; position?: unknown }>;
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

export function contextOf(ruleset: RulesetInfo, state?: EncounterState | null, extra: Partial<FormContext> = {}): FormContext {
  const out: FormContext = { actions: actionsOf(ruleset), ...extra };
  if (state) {
    out.combatants = Object.values(state.combatants).map((c) => ({ id: c.id, name: c.name, side: c.side, position: c.position }));
    out.zones = zonesIn(ruleset, state);
    out.options = state.options;
  }
  return out;
}

type Pick = { value: string; label: string };

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
      return ctx.combatants ? shared(ctx, f.key ?? f.name.slice(f.name.lastIndexOf('.') + 1)) : null;
    default:
      return null;
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
