/** A combatant's items as the console's list editor holds them (a row of typed fields per item), and back. */
import { at, isRecord } from './guards.js';
import { madeId } from './ids.js';
import type { Combatant, RulesetInfo } from './types.js';

/** One item as the editor holds it: each field as typed; `id` kept from the item it edits (a new one gets one from its name). */
export interface ItemRow {
  id: string;
  name: string;
  location: string;
  tags: string;
  props: string;
}

const LOCATIONS = ['right-hand', 'left-hand', 'both-hands', 'carried', 'ground'];
export const LOCATION_WORDS: Record<string, string> = {
  'right-hand': 'Right hand',
  'left-hand': 'Left hand',
  'both-hands': 'Both hands',
  carried: 'Carried',
  ground: 'On the ground',
};

/** Where an item may be, from the item schema of `combatant.add` in GET /rulesets (the engine's own list if it is missing). */
export function itemLocations(ruleset: RulesetInfo): string[] {
  const item = at(ruleset.commandInfo?.['combatant.add']?.schema, 'properties.combatant.properties.items.items');
  const e = isRecord(item) ? at(item, 'properties.location.enum') : undefined;
  return Array.isArray(e) && e.every((x) => typeof x === 'string') ? e : LOCATIONS;
}

/** A property's value as typed: a number, yes/no, JSON for a list or an object, else the words. */
function propValue(text: string): unknown {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^[[{]/.test(t)) {
    try {
      const v: unknown = JSON.parse(t);
      return v;
    } catch {
      return t;
    }
  }
  return t;
}

const showProp = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

export function rowsOf(c: Combatant | undefined): ItemRow[] {
  return (c?.items ?? []).map((i) => ({
    id: i.id,
    name: i.name,
    location: i.location,
    tags: (i.tags ?? []).join(', '),
    props: Object.entries(i.props ?? {})
      .map(([k, v]) => `${k}: ${showProp(v)}`)
      .join(', '),
  }));
}

/** The items to send, or the first problem in words ("Item 2: give it a name"). */
export function itemsOf(rows: ItemRow[]): { items: Array<Record<string, unknown>>; error?: string } {
  const used = new Set(rows.map((r) => r.id).filter(Boolean));
  const items: Array<Record<string, unknown>> = [];
  for (const [n, r] of rows.entries()) {
    if (!r.name.trim()) return { items, error: `item ${n + 1}: give it a name (or remove it)` };
    let id = r.id;
    if (!id) {
      id = madeId(r.name, used, 'item');
      used.add(id);
    }
    const item: Record<string, unknown> = { id, name: r.name.trim(), location: r.location };
    const tags = r.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (tags.length > 0) item.tags = tags;
    const props: Record<string, unknown> = {};
    for (const part of r.props.split(/,(?![^[{]*[\]}])/).filter((p) => p.trim())) {
      const i = part.indexOf(':');
      if (i <= 0) return { items, error: `item ${n + 1} ("${r.name.trim()}"): write each property as name: value (e.g. weapon: ranged)` };
      props[part.slice(0, i).trim()] = propValue(part.slice(i + 1));
    }
    if (Object.keys(props).length > 0) item.props = props;
    items.push(item);
  }
  return { items };
}
