import { hexOf, opts, phaseOrder, type S } from './state/index.js';

/** Invariants of the ocv-phases state, checked by the property tests; returns the broken ones. */
export function invariants(s: S): string[] {
  const out: string[] = [];
  const rs = s.rs;
  const ids = Object.keys(s.combatants);
  if (s.status === 'setup') return out;
  const order = new Set(rs.order);
  if (order.size !== rs.order.length) out.push('initiative order has duplicates');
  if (ids.some((id) => !order.has(id)) || rs.order.some((id) => !s.combatants[id]))
    out.push('initiative order is not the set of combatants');
  const po = phaseOrder(s);
  if (s.clock.order.join() !== po.join()) out.push('clock.order differs from the Phase order');
  if (s.clock.round !== rs.turn || s.clock.phase !== rs.phase) out.push('clock round/phase differ from the Turn/Phase');
  if (s.status === 'active') {
    if (!['surprise', 'phase-1', 'phase-2', 'phase-3', 'phase-4'].includes(rs.phase ?? '')) out.push(`the clock rests in ${rs.phase}`);
    const cur = s.clock.current;
    if (cur !== null && !po.includes(cur)) out.push('the current character does not act this Phase');
    if (cur !== null && !rs.passed.includes(cur)) out.push('the current character has not had its Initiative slot');
    if (cur === null && !rs.stalled && !s.reaction) out.push('nobody is acting but the clock is not stalled');
  }
  if (!s.reaction && rs.jobs.length > 0) out.push('an interrupted action waits without a reaction window');
  if (rs.intents.some((i) => !s.reaction || i.windowId !== s.reaction.id)) out.push('a reaction intent outlived its window');
  if (new Set(rs.passed).size !== rs.passed.length) out.push('passed has duplicates');
  const limit = opts(s).freeActionLimit;
  const hexes = new Set<string>();
  // a move suspended while passing through an ally's hex (an attack of opportunity, a readied
  // action) shares that hex until it goes on: "never ending in an occupied hex", passing is allowed
  const passing = new Set(rs.jobs.filter((j) => j.path.length > 0).map((j) => j.actor));
  for (const c of Object.values(s.combatants)) {
    const d = c.data;
    const restricted = rs.phase === 'surprise';
    if (d.slots > (restricted ? 1 : 2)) out.push(`${c.id}: more actions than a Phase allows`);
    if (d.attacks > 1 || d.attacks > d.slots) out.push(`${c.id}: more than one attack action`);
    if (d.full && d.slots > 0) out.push(`${c.id}: a full-phase action with other actions`);
    if (restricted && d.full) out.push(`${c.id}: a full-phase action in a restricted Phase`);
    if (limit !== null && d.free > limit) out.push(`${c.id}: too many free actions`);
    if (d.stepped && d.moved) out.push(`${c.id}: a 1-hex step and other movement in one Phase`);
    if (!c.stats.combatReflexes && d.aoos > 1) out.push(`${c.id}: more than one attack of opportunity in a Phase`);
    if (d.dodging && d.manoeuvres.every((m) => m.id !== 'dodge')) out.push(`${c.id}: dodging without Dodge`);
    if (d.hold?.kind === 'ready' && d.hold.trigger.by && !s.combatants[d.hold.trigger.by])
      out.push(`${c.id}: readied for a missing character`);
    const p = hexOf(c);
    if (p) {
      const k = `${p.q},${p.r}`;
      if (!passing.has(c.id)) {
        if (hexes.has(k)) out.push(`two characters in hex ${k}`);
        hexes.add(k);
      }
    }
  }
  return out;
}
