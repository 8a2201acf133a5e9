import { dexBonus, type C, type S } from '../state.js';

/** What effects add to a creature's numbers (AC, attack, CMD): each effect's `data` holds the bonus by key. */

export function effectSum(s: S, id: string, key: string, vs?: string): number {
  let n = 0;
  for (const e of s.effects) {
    if (e.targetId !== id || !e.data) continue;
    const v = e.data[key];
    if (typeof v !== 'number') continue;
    if (typeof e.data['vs'] === 'string' && e.data['vs'] !== vs) continue;
    n += v;
  }
  return n;
}

export function acOf(s: S, t: C, attacker: C | null): number {
  let ac = t.stats.ac + effectSum(s, t.id, 'ac');
  const denied = s.effects.some((e) => e.targetId === t.id && (e.data?.['denyDex'] || (attacker && e.data?.['feintedBy'] === attacker.id)));
  if (denied) ac -= dexBonus(t);
  return ac;
}
