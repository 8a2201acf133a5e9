import type { ActionOption, EngineError } from '@fray/engine';
import { RULE } from './catalogue.js';
import { checkActNow, checkDelay, checkEndTurn, checkMayAct } from './checks.js';
import { dataOf, optionsOf, vitalsOf, type State } from './state.js';

const gate = (why: EngineError | null): Pick<ActionOption, 'allowed' | 'blocked'> =>
  why ? { allowed: false, blocked: why } : { allowed: true };

const ACTS = [
  { kind: 'attack', label: 'Attack' },
  { kind: 'cast', label: 'Cast' },
  { kind: 'other', label: 'Other action' },
] as const;

/**
 * What a combatant may do now, as the one who commands it sees it: its player on its turn, the
 * GM (for the GM's own combatants) at any time.
 */
export function legalActions(s: State, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const mayAct = gate(checkMayAct(s, id, c.controller === null));
  const template = { combatantId: id };
  const out: ActionOption[] = ACTS.map(({ kind, label }) => ({
    command: 'act',
    action: kind,
    label,
    kind: 'action',
    params: [
      { name: 'description', label: 'What happens', kind: 'text' },
      { name: 'targetId', label: 'Target', kind: 'combatant', optional: true },
      { name: 'roll', label: 'Roll (e.g. 1d20+5)', kind: 'text', optional: true },
    ],
    template: { ...template, kind },
    rule: RULE.ownTurn,
    ...mayAct,
  }));
  const vitals = vitalsOf(c, optionsOf(s));
  if (vitals.length > 0) {
    out.push({
      command: 'vital',
      label: 'Change a vital',
      kind: 'free',
      params: [
        { name: 'vital', kind: 'choice', options: vitals.map((v) => ({ value: v, label: v === 'hp' ? 'HP' : v })) },
        { name: 'amount', label: 'By (+ or −)', kind: 'number', min: -100_000, max: 100_000 },
      ],
      template,
      rule: RULE.vitals,
      ...mayAct,
    });
  }
  if (dataOf(c).holding)
    out.push({ command: 'act-now', label: 'Act now', kind: 'turn', template, rule: RULE.hold, ...gate(checkActNow(s, id)) });
  else
    out.push({ command: 'delay', label: 'Delay (hold your turn)', kind: 'turn', template, rule: RULE.delay, ...gate(checkDelay(s, id)) });
  out.push({ command: 'turn.end', label: 'End turn', kind: 'turn', template, rule: RULE.turns, ...gate(checkEndTurn(s, id)) });
  return out;
}
