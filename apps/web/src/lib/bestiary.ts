import type { StatBlock } from '@fray/engine';
import { recordOf, stringsOf } from './guards.js';
import { validate } from './schema-form.js';
import type { Combatant, RulesetInfo } from './types.js';

/**
 * Quick NPCs: numbered names, and a party or bestiary as a JSON file (`fray.bestiary`, version 1):
 * `{ "fray": "bestiary", "version": 1, "ruleset": "<id>", "combatants": [{ name, side, stats,
 * items?, hidden?, secretStats? }] }` (a bare list of combatants is accepted too).
 */

export interface Entry {
  name: string;
  side: string;
  stats: Record<string, unknown>;
  items?: unknown[];
  hidden?: boolean;
  secretStats?: string[];
}

/** `count` names from `base`: "Goblin 1", "Goblin 2"… after the highest number in use; one alone keeps its name when free. */
export function numberedNames(base: string, count: number, taken: string[]): string[] {
  const re = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (\\d+)$`);
  const used = taken
    .map((n) => re.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]));
  if (count === 1 && !taken.includes(base) && used.length === 0) return [base];
  let next = used.length ? Math.max(...used) + 1 : taken.includes(base) ? 2 : 1;
  return Array.from({ length: count }, () => `${base} ${next++}`);
}

export function entryOf(c: Combatant | StatBlock): Entry {
  const e: Entry = { name: c.name, side: c.side, stats: c.stats };
  if (c.items && c.items.length) e.items = c.items;
  if ('hidden' in c && c.hidden) e.hidden = true;
  if ('secretStats' in c && c.secretStats.length) e.secretStats = c.secretStats;
  return e;
}

export function exportFile(ruleset: string, combatants: Combatant[]): string {
  return JSON.stringify({ fray: 'bestiary', version: 1, ruleset, combatants: combatants.map(entryOf) }, null, 2);
}

export type ParseResult = { ok: true; entries: Entry[] } | { ok: false; errors: string[] };

const LOCATIONS = ['left-hand', 'right-hand', 'both-hands', 'carried', 'ground'];

/** Check a file before anything is sent: every error names the entry and the field. */
export function parseFile(text: string, ruleset: RulesetInfo): ParseResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [`The file is not JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const o = recordOf(data);
  const list = Array.isArray(data) ? data : o.combatants;
  if (!Array.isArray(list))
    return { ok: false, errors: ['The file has no "combatants" list (expected { "fray": "bestiary", "combatants": [...] }).'] };
  if (typeof o.ruleset === 'string' && o.ruleset !== ruleset.id)
    return { ok: false, errors: [`The file is for the ruleset "${o.ruleset}"; this encounter uses "${ruleset.id}".`] };
  if (list.length === 0) return { ok: false, errors: ['The "combatants" list is empty.'] };
  if (list.length > 100) return { ok: false, errors: [`At most 100 combatants at once (the file has ${list.length}).`] };
  const errors: string[] = [];
  const entries: Entry[] = [];
  list.forEach((raw: unknown, i) => {
    const r = recordOf(raw);
    const label = `Entry ${i + 1}${typeof r.name === 'string' && r.name ? ` (“${r.name}”)` : ''}`;
    const bad = (field: string, msg: string) => errors.push(`${label}: ${field} ${msg}`);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return void errors.push(`${label}: is not an object`);
    if (typeof r.name !== 'string' || !r.name.trim() || r.name.length > 120) bad('name', 'must be a text of 1 to 120 characters');
    if (typeof r.side !== 'string' || !r.side.trim() || r.side.length > 64) bad('side', 'must be a text of 1 to 64 characters');
    if (!r.stats || typeof r.stats !== 'object' || Array.isArray(r.stats)) bad('stats', 'must be an object');
    else for (const [k, msg] of Object.entries(validate(ruleset.stats.schema, r.stats))) bad(`stats.${k}`, msg);
    if (r.items !== undefined) {
      if (!Array.isArray(r.items)) bad('items', 'must be a list');
      else
        r.items.forEach((it: unknown, j) => {
          const x = recordOf(it);
          if (typeof x.id !== 'string' || typeof x.name !== 'string') bad(`items[${j}]`, 'needs an "id" and a "name"');
          else if (!LOCATIONS.includes(String(x.location))) bad(`items[${j}].location`, `must be one of ${LOCATIONS.join(', ')}`);
        });
    }
    if (r.hidden !== undefined && typeof r.hidden !== 'boolean') bad('hidden', 'must be true or false');
    if (r.secretStats !== undefined && !(Array.isArray(r.secretStats) && r.secretStats.every((x) => typeof x === 'string')))
      bad('secretStats', 'must be a list of stat names');
    entries.push({
      name: String(r.name),
      side: String(r.side),
      stats: recordOf(r.stats),
      ...(Array.isArray(r.items) ? { items: r.items } : {}),
      ...(r.hidden ? { hidden: true } : {}),
      ...(r.secretStats ? { secretStats: stringsOf(r.secretStats) } : {}),
    });
  });
  return errors.length ? { ok: false, errors } : { ok: true, entries };
}
