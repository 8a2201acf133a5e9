import type { HarmPrompt } from '@fray/engine';
import { matches, type RulesetDisplay } from './display.js';
import { eventsOf } from './events.js';
import { isRecord } from './guards.js';
import type { EncounterState, EngineEvent, LogEntry } from './types.js';

/** A question the GM's console asks after an event the rules leave to the GM: "Damage or healing?" about its target. */
export interface HarmAsk {
  /** `<seq>:<index of the event>`: the same question after a reload */
  key: string;
  event: EngineEvent;
  targetId: string;
  /** the amount the event knows, else null (the GM types it) */
  amount: number | null;
  /** the vital to ask about first, when the ruleset names one */
  vital: string | null;
}

/** How many of the last log entries may still ask (an older hit is settled or forgotten). */
const RECENT = 4;

function askOf(p: HarmPrompt, e: EngineEvent, entry: LogEntry, state: EncounterState, key: string): HarmAsk | null {
  const fields: Record<string, unknown> = isRecord(e) ? e : {};
  if (p.event !== e.type || !matches(fields, p.when)) return null;
  if (p.unless?.some((t) => entry.events.some((x) => isRecord(x) && x.type === t))) return null;
  const target = fields[p.target ?? 'targetId'];
  if (typeof target !== 'string' || !state.combatants[target]) return null;
  const n = p.amount ? fields[p.amount] : undefined;
  return { key, event: e, targetId: target, amount: typeof n === 'number' ? n : null, vital: p.vital ?? null };
}

/**
 * The questions the recent log asks (`display.harmPrompts`), newest first, without those the GM
 * has settled (`done`, by key). Only while the fight is on.
 */
export function harmAsks(display: RulesetDisplay, state: EncounterState, log: LogEntry[], done: ReadonlySet<string>): HarmAsk[] {
  const prompts = display.harmPrompts ?? [];
  if (prompts.length === 0 || state.status !== 'active') return [];
  const out: HarmAsk[] = [];
  for (const entry of log.slice(-RECENT).reverse()) {
    eventsOf(entry).forEach((e, i) => {
      const key = `${entry.seq}:${i}`;
      if (done.has(key)) return;
      for (const p of prompts) {
        const ask = askOf(p, e, entry, state, key);
        if (ask) return void out.push(ask);
      }
    });
  }
  return out;
}
