import { optionsOf, posOf, type C, type State } from './state/index.js';

/** Broken invariants of a state (property tests). */
export function invariants(s: State): string[] {
  const out: string[] = [];
  if (s.status === 'active') clockInvariants(s, out);
  const squares = new Map<string, string>();
  for (const c of Object.values(s.combatants)) {
    combatantInvariants(s, c, out);
    const p = posOf(c);
    if (p) {
      const k = `${p.x},${p.y}`;
      const other = squares.get(k);
      if (other) out.push(`${c.id} and ${other} share square ${k}`);
      squares.set(k, c.id);
    }
  }
  if (new Set(s.rs.areaPowerUsed).size !== s.rs.areaPowerUsed.length) out.push('an area power counted twice');
  if (s.reaction) for (const e of s.reaction.eligible) if (!s.combatants[e]) out.push(`window names a missing combatant ${e}`);
  return out;
}

function clockInvariants(s: State, out: string[]): void {
  const order = s.clock.order;
  if (new Set(order).size !== order.length) out.push('the turn order has duplicates');
  for (const id of order) if (!s.combatants[id]) out.push(`order names a missing combatant ${id}`);
  if (s.clock.current !== null && !order.includes(s.clock.current)) out.push('the current combatant is not in the order');
  if (s.clock.current !== null && s.combatants[s.clock.current]?.data.delaying) out.push('the current combatant is delaying');
}

function combatantInvariants(s: State, c: C, out: string[]): void {
  const o = optionsOf(s);
  const id = c.id;
  const d = c.data;
  if (d.slots.standard < 0 || d.slots.move < 0 || d.slots.quick < 0) out.push(`${id}: negative action budget`);
  if (d.slots.move > 1 || d.slots.quick > 1) out.push(`${id}: more than one move or quick action`);
  if (d.free > s.rs.freeActionLimit) out.push(`${id}: ${d.free} free actions over the limit ${s.rs.freeActionLimit}`);
  if (d.aim && (d.aim.bonus < 1 || d.aim.bonus > o.maxAdvantage)) out.push(`${id}: aim bonus ${d.aim.bonus} out of range`);
  for (const [t, v] of Object.entries(d.analyze)) if (v < 0 || v > o.maxAdvantage) out.push(`${id}: analyze vs ${t} = ${v}`);
  if (d.fatigue < 0 || d.fatigue > 3) out.push(`${id}: fatigue ${d.fatigue}`);
  if (d.destiny < 0 || d.fate < 0 || d.corruption < 0) out.push(`${id}: negative destiny/fate/corruption`);
  if (d.damage < 0 || d.socialDamage < 0 || d.stress < 0) out.push(`${id}: negative damage or stress`);
  if (d.move && d.move.remaining < 0) out.push(`${id}: move overspent`);
  if (s.clock.current !== id && d.readied && d.delaying) out.push(`${id}: readied and delaying`);
}
