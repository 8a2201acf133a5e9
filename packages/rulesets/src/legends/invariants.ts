import { groupIds, membersOfEngagement, membersOfGroup, opts, type LState, posOf } from './state/index.js';

/** What must hold in every state (the property tests check it after every command). */

export function invariants(state: LState): string[] {
  const broken: string[] = [];
  const o = opts(state);
  for (const c of Object.values(state.combatants)) {
    const t = c.data.turn;
    const majors = t.seq.filter((k) => k === 'major').length;
    const minors = t.seq.filter((k) => k === 'minor').length;
    if (majors > 1) broken.push(`${c.id}: more than one major action in a turn`);
    if (minors > 2) broken.push(`${c.id}: more than two minor actions in a turn`);
    if (majors > 0 && minors > 1) broken.push(`${c.id}: a double minor and a major action`);
    const end = t.seq.findIndex((k, i) => k === 'major' || (k === 'minor' && t.seq.slice(0, i).includes('minor')));
    if (end >= 0 && t.seq.slice(end + 1).includes('free')) broken.push(`${c.id}: a free action after the turn-ending action`);
    if (end >= 0 && end !== t.seq.length - 1) broken.push(`${c.id}: an action after the turn-ending action`);
    if (o.maxFreeActionsPerTurn !== null && t.free.length > o.maxFreeActionsPerTurn) broken.push(`${c.id}: too many free actions`);
    if (c.data.busyHands < 0 || c.data.fatigue < 0) broken.push(`${c.id}: a negative budget`);
    if (new Set(t.free).size !== t.free.length && t.free.some((k) => !(state.rs.customActions[k]?.repeatable ?? false))) {
      const dup = t.free.filter((k, i) => t.free.indexOf(k) !== i);
      if (dup.some((k) => !(state.rs.customActions[k]?.repeatable || c.stats.actions.find((a) => a.key === k)?.repeatable)))
        broken.push(`${c.id}: the same free action twice`);
    }
  }
  if (state.status === 'active') {
    const ids = Object.keys(state.combatants).sort();
    const order = [...state.clock.order].sort();
    if (ids.join() !== order.join()) broken.push('turn order is not a permutation of the combatants');
  }
  for (const g of groupIds(state)) {
    const n = membersOfGroup(state, g).length;
    if (n < 2 || n > o.maxGroupSize) broken.push(`group ${g} has ${n} members`);
  }
  const engs = new Set(
    Object.values(state.combatants)
      .map((c) => posOf(c).engagement)
      .filter((x): x is string => !!x),
  );
  for (const e of engs) if (membersOfEngagement(state, e).length > o.maxEngagementSize) broken.push(`engagement ${e} is too large`);
  return broken;
}
