import { jsonCopy, type Effect } from '@fray/engine';
import { actionDef } from '../catalogue/index.js';
import { emit } from '../events/index.js';
import { expiryOf } from '../mechanics/durations.js';
import { acOf, effectSum } from '../mechanics/effects.js';
import { dirtyTricksOn } from '../mechanics/dirty-trick.js';
import { st, type ActParams, type C, type InProgress, type S, type Weapon, type X } from '../state.js';

/**
 * Not a command group: what the commands' resolution rolls and emits (attack and maneuver rolls,
 * damage, effects, a spoiled advanced action). "any roll ... should be made after the AP are spent".
 */

export const signed = (n: number): string => (n === 0 ? '' : n > 0 ? `+${n}` : `${n}`);

export function damage(ctx: X, t: C, amount: number, sourceId: string | null): void {
  const hp = st(ctx).combatants[t.id]!.data.hp - amount;
  emit(ctx, { type: 'action-points.damaged', targetId: t.id, sourceId, amount, hp });
  if (hp <= 0) {
    const me = st(ctx).combatants[t.id]!;
    for (const r of me.data.inProgress) spoil(ctx, me, r, 'down');
  }
}

export function attackRoll(ctx: X, a: C, t: C, w: Weapon | undefined, penalty: number, label: string, extra = 0): boolean {
  const s = st(ctx);
  const mods =
    a.stats.attackBonus + (w?.attackBonus ?? 0) + penalty + extra + effectSum(s, a.id, 'attack') + effectSum(s, a.id, 'attackVs', t.id);
  const ac = acOf(s, t, a);
  const roll = ctx.roll(`1d20${signed(mods)}`, `${label}: ${a.name} attacks ${t.name}${w ? ` with ${w.name}` : ''}`, { combatantId: a.id });
  const die = roll.faces[0]?.value ?? 0;
  const hit = die === 20 || (die !== 1 && roll.total >= ac);
  let dealt = 0;
  if (hit) {
    dealt = Math.max(1, ctx.roll(w?.damage ?? '1d3', `damage: ${a.name} on ${t.name}`, { combatantId: a.id }).total);
  }
  emit(ctx, {
    type: 'action-points.attack-resolved',
    combatantId: a.id,
    targetId: t.id,
    weaponId: w?.id ?? null,
    rollId: roll.id,
    total: roll.total,
    penalty,
    ac,
    hit,
    damage: dealt,
  });
  if (hit) damage(ctx, t, dealt, a.id);
  const feint = st(ctx).effects.find((e) => e.targetId === t.id && e.data?.['feintedBy'] === a.id);
  if (feint) ctx.emit({ type: 'effect.removed', effectId: feint.id, reason: 'used' });
  if (w && (w.kind === 'crossbow' || w.kind === 'firearm' || w.kind === 'bow'))
    emit(ctx, { type: 'action-points.weapon-fired', combatantId: a.id, weaponId: w.id, kind: w.kind });
  return hit;
}

export function maneuver(ctx: X, a: C, t: C, penalty: number, label: string, bonus = 0): { success: boolean; margin: number } {
  const s = st(ctx);
  const mods = a.stats.cmb + penalty + bonus + effectSum(s, a.id, 'attack') + effectSum(s, a.id, 'attackVs', t.id);
  const cmd = t.stats.cmd + effectSum(s, t.id, 'cmd');
  const roll = ctx.roll(`1d20${signed(mods)}`, `${label}: ${a.name} against ${t.name}'s CMD`, { combatantId: a.id });
  const success = roll.total >= cmd;
  const margin = roll.total - cmd;
  emit(ctx, {
    type: 'action-points.maneuver-resolved',
    combatantId: a.id,
    targetId: t.id,
    action: label,
    rollId: roll.id,
    total: roll.total,
    cmd,
    success,
    margin,
    penalty,
  });
  return { success, margin };
}

export function check(ctx: X, a: C, formula: string, dc: number | undefined, label: string): boolean | null {
  const r = ctx.roll(formula, `${label} (${a.name})`, { combatantId: a.id });
  return dc === undefined ? null : r.total >= dc;
}

export function spoil(ctx: X, c: C, rec: InProgress, reason: string): void {
  const def = actionDef(rec.action)!;
  ctx.emit({
    type: 'action-points.advanced-spoiled',
    combatantId: c.id,
    key: rec.key,
    action: rec.action,
    reason,
    message: `${c.name}'s ${def.label} is spoiled (${reason}): "spending AP on any other action spoils the incomplete advanced action".`,
  });
}

export function addEffect(
  ctx: X,
  init: {
    name: string;
    condition?: string;
    targetId: string | null;
    sourceId: string | null;
    duration: Effect['duration'];
    data?: Record<string, unknown>;
  },
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

/** "Cast Defensively: ... concentration check (DC = 15 + double the spell's level). If you succeed, that spell loses the complex subtype ... If you fail, you lose the spell." */
export function castDefensively(ctx: X, c: C, rec: InProgress): boolean {
  const level = rec.params.spellLevel ?? 1;
  const dc = 15 + 2 * level;
  const r = ctx.roll(`1d20${signed(c.stats.concentration)}`, `concentration to cast defensively (DC ${dc})`, { combatantId: c.id });
  if (r.total >= dc) {
    emit(ctx, { type: 'action-points.cast-defensively', combatantId: c.id, key: rec.key, success: true, dc, total: r.total });
    return true;
  }
  emit(ctx, { type: 'action-points.cast-defensively', combatantId: c.id, key: rec.key, success: false, dc, total: r.total });
  spoil(ctx, c, rec, 'failed to cast defensively: "If you fail, you lose the spell"');
  return false;
}

/** Remove the named condition (or the oldest) applied by a dirty trick. */
export function removeDirtyTrick(ctx: X, s: S, c: C, p: ActParams): Record<string, unknown> {
  const t = p.targetId ?? c.id;
  const e = dirtyTricksOn(s, t).find((x) => !p.effectId || x.id === p.effectId)!;
  ctx.emit({ type: 'effect.removed', effectId: e.id, reason: `removed by ${c.name} (1 AP)` });
  return { removed: e.id, condition: e.condition ?? null, targetId: t };
}
