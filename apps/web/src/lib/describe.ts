import { effectOf } from './events.js';
import type { RulesetDisplay } from '@fray/engine';
import { at, isRecord, recordOf, stringsOf, textAt } from './guards.js';
import { labelOf } from './labels.js';
import type { Effect, EncounterState, EngineEvent } from './types.js';

/** Human-readable text for events, rolls, costs and durations, whatever the ruleset. */

export function nameOf(state: EncounterState | null, id: unknown): string {
  if (typeof id !== 'string') return '—';
  return state?.combatants[id]?.name ?? id;
}

/** A cost's unit in words: `movementRoll` → "movement roll", an abbreviation (`ap`) in capitals. */
const costUnit = (k: string): string => (/^[a-z]{1,3}$/i.test(k) ? k.toUpperCase() : labelOf(k).toLowerCase());

export function formatCost(cost: Record<string, number> | undefined): string {
  if (!cost) return '';
  const parts = Object.entries(cost)
    .filter(([, n]) => n !== 0)
    .map(([k, n]) => `${n} ${costUnit(k)}`);
  return parts.join(', ');
}

export function formatDuration(d: Effect['duration']): string {
  if (!d) return 'until removed';
  return `${d.count} ${d.unit}${d.count === 1 || d.unit.endsWith('s') ? '' : 's'}`;
}

/** One die of a roll: its size, what it shows, whether it counts (keep/drop). */
export interface Face {
  sides: number | null;
  value: number;
  kept: boolean;
}

function faceOf(f: unknown): Face {
  if (typeof f === 'number') return { sides: null, value: f, kept: true };
  const o = recordOf(f);
  return { sides: typeof o.sides === 'number' ? o.sides : null, value: Number(o.value), kept: o.kept !== false };
}

/** `d12:7, d12:3 (dropped)` */
export function formatFaces(faces: Face[]): string {
  return faces.map((f) => `${f.sides ? `d${f.sides}:` : ''}${f.value}${f.kept ? '' : ' (dropped)'}`).join(', ');
}

export interface RollView {
  rollId: string;
  who: string;
  purpose: string;
  formula: string;
  faces: Face[];
  total: number;
  secret: boolean;
  forced: boolean;
}

export function rollOf(state: EncounterState | null, e: EngineEvent): RollView | null {
  if (e.type !== 'dice.rolled') return null;
  return {
    rollId: String(e.rollId ?? ''),
    who: e.combatantId ? nameOf(state, e.combatantId) : 'GM',
    purpose: String(e.purpose ?? ''),
    formula: String(e.formula ?? ''),
    faces: Array.isArray(e.faces) ? e.faces.map(faceOf) : [],
    total: Number(e.total),
    secret: e.gmOnly === true,
    forced: e.forced === true,
  };
}

/** A roll of the encounter's list in the game's words: "Aria rolled 17 for initiative (1d20+2)". */
export function rollLabel(state: EncounterState, r: EncounterState['rolls'][number]): string {
  const who = r.combatantId ? nameOf(state, r.combatantId) : 'The GM';
  const changed = r.overridden ? ', changed by the GM' : '';
  const secret = r.gmOnly ? ', secret' : '';
  return `${who} rolled ${r.total} for ${r.purpose || 'a roll'} (${r.formula}${changed}${secret})`;
}

const skipKeys = new Set(['type', 'gmOnly', 'rngAfter', 'forcedIndex']);

function scalar(state: EncounterState | null, key: string, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (
    /(^|[a-z])(combatantId|targetId|actorId|sourceId|attackerId|defenderId|moverId)$/i.test(key) ||
    (key.endsWith('Id') && typeof v === 'string' && state?.combatants[v])
  ) {
    return `${key.replace(/Id$/, '')}: ${nameOf(state, v)}`;
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return `${key}: ${String(v)}`;
  if (Array.isArray(v) && v.length <= 8 && v.every((x) => typeof x !== 'object'))
    return `${key}: ${v.map((x) => (typeof x === 'string' && state?.combatants[x] ? state.combatants[x].name : String(x))).join(', ')}`;
  return null;
}

/** One line for an event (rolls have their own view). */
export function describeEvent(state: EncounterState | null, e: EngineEvent): string {
  switch (e.type) {
    case 'combat.started':
      return 'Combat starts.';
    case 'combat.ended':
      return `Combat ends${e.reason ? `: ${String(e.reason)}` : '.'}`;
    case 'combatant.added': {
      return `${textAt(e, 'combatant.name') ?? nameOf(state, e.combatantId)} joins (${textAt(e, 'combatant.side') ?? '?'})${at(e, 'combatant.hidden') ? ' — hidden' : ''}.`;
    }
    case 'combatant.removed':
      return `${nameOf(state, e.combatantId)} is removed.`;
    case 'combatant.updated':
      return `${nameOf(state, e.combatantId)} is updated (${Object.keys(recordOf(e.changes)).join(', ')}).`;
    case 'combatant.placed':
      return `${nameOf(state, e.combatantId)} is placed at ${JSON.stringify(e.position)}.`;
    case 'effect.applied': {
      const eff = effectOf(e.effect);
      return `${eff.condition ? `${eff.condition}` : eff.name} on ${eff.targetId ? nameOf(state, eff.targetId) : 'the field'} (${formatDuration(eff.duration)}).`;
    }
    case 'effect.removed':
    case 'effect.expired':
      return `Effect ${String(e.effectId)} ${e.type === 'effect.expired' ? 'expires' : 'is removed'}.`;
    case 'clock.changed': {
      const parts: string[] = [];
      if (e.round !== undefined) parts.push(`round ${String(e.round)}`);
      if (e.phase !== undefined && e.phase !== null) parts.push(`phase ${String(e.phase)}`);
      if (e.current !== undefined) parts.push(e.current ? `${nameOf(state, e.current)}'s turn` : 'no one acting');
      if (Array.isArray(e.order))
        parts.push(
          `order: ${stringsOf(e.order)
            .map((id) => nameOf(state, id))
            .join(' › ')}`,
        );
      return `Clock: ${parts.join(', ')}.`;
    }
    case 'dice.overridden':
      return `GM overrides roll ${String(e.rollId)}: ${String(e.previousTotal)} → ${String(e.total)}${e.reason ? ` (${String(e.reason)})` : ''}.`;
    case 'dice.forced':
      return 'GM queues the next roll’s result.';
    case 'reaction.opened': {
      return `Reaction window (${textAt(e, 'window.kind') ?? '?'}): ${textAt(e, 'window.trigger.description') ?? ''} — may react: ${
        stringsOf(at(e, 'window.eligible'))
          .map((id) => nameOf(state, id))
          .join(', ') || 'none'
      }.`;
    }
    case 'reaction.responded':
      return `${nameOf(state, e.combatantId)} ${e.response === 'passed' ? 'passes' : 'reacts'}${e.by === 'gm' ? ' (GM resolved)' : ''}.`;
    case 'reaction.closed':
      return `Reaction window closes (${String(e.outcome ?? '')}).`;
    default: {
      const parts = Object.entries(e)
        .filter(([k]) => !skipKeys.has(k))
        .map(([k, v]) => scalar(state, k, v))
        .filter((x): x is string => x !== null);
      return `${e.type}${parts.length ? ` — ${parts.join('; ')}` : ''}`;
    }
  }
}

/**
 * A stat with a value per kind (an attack bonus by attack kind) in the game's words, from the
 * ruleset's form hints: `{ close: 6, ranged: 4 }` → "close +6, ranged +4" (the sign where the hint
 * says it is a bonus, `signed`); the kind's word is its label without the stat's own words
 * ("Close attack" under *Attack* → "close"). Null for anything else.
 */
export function statEntriesText(display: RulesetDisplay, key: string, v: unknown): string | null {
  if (!isRecord(v) || Array.isArray(v)) return null;
  const entries = Object.entries(v);
  if (entries.length === 0 || entries.some(([, x]) => typeof x === 'object' && x !== null)) return null;
  const hints = display.forms?.fields ?? {};
  const own = new Set((display.statLabels[key] ?? labelOf(key)).toLowerCase().split(/\s+/));
  return entries
    .map(([k, x]) => {
      const h = hints[`stats.${key}.${k}`];
      const words = h?.label
        ? h.label
            .split(/\s+/)
            .filter((w) => !own.has(w.toLowerCase()))
            .join(' ')
        : '';
      const n = typeof x === 'number' && h?.signed && x >= 0 ? `+${x}` : String(x);
      return `${words ? words.toLowerCase() : k} ${n}`;
    })
    .join(', ');
}
