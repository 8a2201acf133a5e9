import { PHASES } from './mechanics/phases.js';
import { optsOf, type S } from './state.js';

/** The invariants the property tests check after every command: AP budgets, phase counters, advanced actions, the order. */
export function invariants(state: S): string[] {
  const s = state;
  const o = optsOf(s);
  const out: string[] = [];
  if (s.status !== 'active') return out;
  if (s.clock.round !== s.rs.round) out.push(`clock.round ${s.clock.round} != rs.round ${s.rs.round}`);
  if (s.clock.phase !== PHASES[s.rs.phaseIdx]) out.push(`clock.phase ${s.clock.phase} != ${PHASES[s.rs.phaseIdx]}`);
  for (const c of Object.values(s.combatants)) {
    const d = c.data;
    const max = s.rs.surprise ? (d.aware ? o.surpriseAp : 0) : o.apPerRound + c.stats.bonusAp;
    if (d.ap < 0) out.push(`${c.id}: negative AP (${d.ap})`);
    if (d.ap > max) out.push(`${c.id}: ${d.ap} AP exceeds the round's ${max} (carried over?)`);
    if (d.apBudget > max) out.push(`${c.id}: budget ${d.apBudget} exceeds ${max}`);
    if (d.ap + d.apSpentThisRound > d.apBudget) out.push(`${c.id}: ap ${d.ap} + spent ${d.apSpentThisRound} > budget ${d.apBudget}`);
    if (d.apThisPhase > o.apPerPhase) out.push(`${c.id}: ${d.apThisPhase} AP this phase`);
    if (d.freeThisPhase > o.freeActionsPerPhase + 1) out.push(`${c.id}: ${d.freeThisPhase} free actions this phase`);
    if (d.freeThisRound > o.freeActionsPerRound + 1) out.push(`${c.id}: ${d.freeThisRound} free actions this round`);
    if (d.reactionsThisPhase > o.reactionsPerPhase) out.push(`${c.id}: ${d.reactionsThisPhase} reactions this phase`);
    if (s.rs.surprise && !d.aware && d.apSpentThisRound > 0) out.push(`${c.id}: unaware but spent AP in the surprise round`);
    if (d.inProgress.filter((r) => r.consecutive).length > 1) out.push(`${c.id}: two consecutive advanced actions in progress`);
    for (const r of d.inProgress)
      if (r.spent > r.cost || r.spent < 1 || (r.spent === r.cost && !s.reaction))
        out.push(`${c.id}: advanced ${r.action} at ${r.spent}/${r.cost}`);
  }
  const cur = s.clock.current;
  if (cur && !s.combatants[cur]) out.push(`current ${cur} is not a combatant`);
  const order = s.clock.order;
  if (new Set(order).size !== order.length) out.push('duplicate ids in the order');
  return out;
}
