import type { Hex } from '@fray/engine';
import { ROW } from '../catalogue.js';
import { checkAbort, checkCanAoo } from '../checks/index.js';
import {
  incapable,
  isEnemy,
  opts,
  phaseKey,
  nextPhaseOrdinal,
  phaseOrdinal,
  stunned,
  threatens,
  touched,
  unawareNow,
  type Job,
  type S,
} from '../state/index.js';

/** Who would make an attack of opportunity against `mover` for this opportunity */
export function aooFrom(s: S, mover: string, hex: Hex, opportunity: string | null): string[] {
  const out: string[] = [];
  for (const id of s.rs.order) {
    if (!isEnemy(s, id, mover) || !threatens(s, id, hex)) continue;
    if (checkCanAoo(s, id) || (opportunity && s.combatants[id]!.data.opportunities.includes(opportunity))) continue;
    out.push(id);
  }
  return out;
}

/** Who readied an action for what this job does (attacks, moves, acts, or comes into reach at `hex`). */
export function triggered(s: S, job: Job, event: 'attacks' | 'moves' | 'acts', hex?: Hex): string[] {
  const out: string[] = [];
  for (const id of s.rs.order) {
    const c = s.combatants[id]!;
    const h = c.data.hold;
    if (!h || h.kind !== 'ready' || id === job.actor || s.clock.current === id) continue;
    if (incapable(s, id) || stunned(s, id) || unawareNow(s, id)) continue;
    const t = h.trigger;
    if (t.by !== null && t.by !== job.actor) continue;
    if (t.by === null && !isEnemy(s, id, job.actor)) continue;
    if (hex) {
      if (t.on === 'enters-reach' && threatens(s, id, hex)) out.push(id);
    } else if (t.on === 'acts' || t.on === event) out.push(id);
  }
  return out;
}

/** Who may abort to a defensive action before this attack. */
export function abortOffer(s: S, job: Job): string[] {
  if (!opts(s).offerAbort) return [];
  const row = ROW[job.row]!;
  if (!row.attackRoll) return [];
  return job.targetIds.filter((t) => s.combatants[t] && t !== job.actor && !checkAbort(s, t) && !s.combatants[t]!.data.dodging);
}

/** The character next up (for "act immediately ahead of" / "before X's action"). */
export function nextUp(s: S): string | null {
  const cur = s.clock.current;
  if (cur && !touched(s.combatants[cur]!.data)) return cur;
  const order = s.rs.phase === 'surprise' ? s.rs.order.filter((x) => !s.rs.unaware.includes(x)) : s.rs.order;
  return order.find((x) => !s.rs.passed.includes(x)) ?? null;
}

/**
 * What an abort gives up: before the character's Initiative slot this Phase, this Phase's action
 * (locked until that slot); while holding a delay from this Phase, the delayed action; after
 * acting, the following Phase's action (locked until after its Initiative then).
 */
export function abortCost(s: S, id: string): { givesUp: 'this' | 'next'; lock: number | null } {
  const before = !s.rs.passed.includes(id) && !s.rs.spent.includes(id);
  if (before) return { givesUp: 'this', lock: phaseOrdinal(s.rs) };
  const h = s.combatants[id]!.data.hold;
  if (h?.kind === 'delay' && h.key === phaseKey(s.rs)) return { givesUp: 'this', lock: null };
  return { givesUp: 'next', lock: nextPhaseOrdinal(s.rs) };
}
