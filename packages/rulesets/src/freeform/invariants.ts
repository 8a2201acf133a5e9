import { dataOf, maxOf, type State } from './state.js';

/** What must hold after every command (checked by the property and conformance tests). */
export function invariants(s: State): string[] {
  const out: string[] = [];
  const order = s.clock.order;
  if (new Set(order).size !== order.length) out.push('a combatant is twice in the order');
  for (const id of order) if (!s.combatants[id]) out.push(`${id} is in the order but not in the fight`);
  if (s.status === 'active') {
    for (const id of Object.keys(s.combatants)) if (!order.includes(id)) out.push(`${id} is in the fight but not in the order`);
    if (s.clock.current !== null && !order.includes(s.clock.current)) out.push('the current combatant is not in the order');
  }
  for (const c of Object.values(s.combatants)) {
    const d = dataOf(c);
    if (d.holding && s.clock.current === c.id) out.push(`${c.id} holds on its own turn`);
    for (const [k, v] of Object.entries(d)) {
      if (k === 'initiative' || k === 'actions' || typeof v !== 'number') continue;
      const max = maxOf(c, k);
      if (v < 0 || (max !== null && v > max)) out.push(`${c.id}'s ${k} is ${v}, outside 0..${max ?? '∞'}`);
    }
  }
  return out;
}
