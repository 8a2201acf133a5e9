import { ROW } from '../catalogue.js';
import { emit } from '../events.js';
import { baseOcv, combine, conditionOcv, effectiveDcv, useOf } from '../mechanics/combat-values.js';
import { opts, st, type C } from '../state/index.js';

/**
 * "The attacker rolls 3d6 and adds their OCV (including modifiers such as combat levels). The
 * target number is 10 plus the defender's DCV (including modifiers such as being Stunned or
 * underwater)." Hits when the total meets or beats the target number.
 */
export function attackRoll(
  ctx: C,
  attacker: string,
  target: string,
  rowId: string,
  o: { ocvModifier: number; ranged: boolean; aoo: boolean; interrupt: boolean },
): boolean {
  const s = st(ctx);
  const a = s.combatants[attacker]!;
  const t = s.combatants[target]!;
  const use = useOf(s, rowId);
  const uses = o.aoo ? [...a.data.manoeuvres, use] : a.data.manoeuvres.length ? a.data.manoeuvres : [use];
  const mOcv = combine(uses.map((u) => u.ocv));
  const ocv = Math.max(0, baseOcv(s, attacker) + mOcv + conditionOcv(s, attacker) + o.ocvModifier);
  const { dcv, parts } = effectiveDcv(s, target);
  const need = 10 + dcv;
  const r = ctx.roll(
    `3d6+${ocv}`,
    `${o.aoo ? 'attack of opportunity' : 'attack roll'}: ${a.name} (${ROW[rowId]!.label}, OCV ${ocv}) vs ${t.name} (DCV ${dcv}), needs ${need}`,
    {
      combatantId: attacker,
    },
  );
  const hit = r.total >= need;
  ctx.emit({
    type: 'ocv-phases.attack-resolved',
    combatantId: attacker,
    targetId: target,
    row: rowId,
    rollId: r.id,
    ocv,
    dcv,
    dcvModifiers: parts,
    need,
    total: r.total,
    hit,
    aoo: o.aoo || undefined,
    use: o.aoo ? use : undefined,
  });
  if (hit && o.interrupt && opts(s).pauseAfterInterruptHit && st(ctx).rs.jobs.some((j) => j.actor === target)) {
    emit(ctx, { type: 'ocv-phases.pause', combatantId: target });
  }
  return hit;
}
