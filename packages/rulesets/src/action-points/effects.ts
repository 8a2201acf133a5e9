import { jsonCopy, type Effect } from '@fray/engine';
import { dexBonus, expiryOf } from './rules.js';
import { st, type C, type S, type X } from './types.js';

/** Effects: applying one (with its expiry marker), and what effects add to a combatant's numbers (AC, attack, CMD). */

export function addEffect(
  ctx: X,
  init: { name: string; condition?: string; targetId: string | null; sourceId: string | null; duration: Effect['duration']; data?: Record<string, unknown> },
): void {
  const s = st(ctx);
  const effect: Effect = {
    id: ctx.newId('e'),
    name: init.name,
    targetId: init.targetId,
    sourceId: init.sourceId,
    duration: init.duration,
    expires: null,
    startedAt: { round: s.clock.round, phase: s.clock.phase, current: s.clock.current },
  };
  if (init.condition) effect.condition = init.condition;
  if (init.data) effect.data = jsonCopy(init.data);
  effect.expires = expiryOf(s, effect);
  ctx.emit({ type: 'effect.applied', effect });
}

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
