import { emit, type ArCtx } from '../../events.js';
import { combineBonus, isConflictKind, POWER_KIND, powerDefense } from '../../mechanics/combat.js';
import { boost, combatant, type C } from '../../state/index.js';
import { addEffect, takeDamage } from './effects.js';
import { check } from './roll.js';
import { finish } from './windows.js';

/** A power use: the attack check (not for area powers), then the target's resistance against 10 + the effect rank. */

export function resolvePower(ctx: ArCtx, cmd: { combatantId: string; powerId: string; targetIds: string[] }, reaction = false): void {
  const c = combatant(ctx.state, cmd.combatantId);
  const p = c.stats.powers.find((x) => x.id === cmd.powerId);
  if (!p) return;
  const targets = cmd.targetIds.map((id) => ctx.state.combatants[id]).filter((t): t is C => !!t);
  const kind = POWER_KIND[p.range];
  const alt = c.data.alternates[p.id] ?? null;
  // COMBINE: "grant an ally a bonus to the effect rank of a power": the bonus reaches this power's rank.
  const rank = p.rank + combineBonus(ctx.state, c, p);
  emit(ctx, 'power-used', {
    combatantId: c.id,
    powerId: p.id,
    power: p.name,
    alternate: alt,
    targetIds: targets.map((t) => t.id),
    area: p.area,
  });
  for (const t of targets) {
    if (p.effect === 'other') continue;
    let hit = true;
    if (!p.area && t.id !== c.id) {
      const def = powerDefense(ctx.options, t, c, kind);
      hit = check(ctx, {
        who: c.id,
        bonus: c.stats.attack[kind],
        dc: def,
        purpose: `${p.name}: attack check vs ${t.name}`,
        kind: 'attack',
        targetId: t.id,
        attack: { kind, damage: rank, targetId: t.id },
      }).success;
    }
    if (!hit) continue;
    const save = p.effect === 'damage' ? (isConflictKind(kind) ? 'will' : 'toughness') : isConflictKind(kind) ? 'will' : 'fortitude';
    const r = check(ctx, {
      who: t.id,
      bonus: t.stats[save] + boost(ctx.state, t.id, save),
      dc: 10 + rank,
      purpose: `${save} resistance vs ${p.name}`,
      kind: 'resistance',
      record: false,
    });
    if (r.success) continue;
    if (p.effect === 'damage') {
      takeDamage(ctx, t.id, r.degrees, isConflictKind(kind) ? 'socialDamage' : 'damage', c.id);
    } else {
      const condition = p.condition ?? 'dazed';
      addEffect(ctx, {
        name: condition,
        condition,
        targetId: t.id,
        sourceId: c.id,
        expires: null,
        data: { kind: 'affliction', resist: { save, dc: 10 + rank } },
      });
    }
  }
  if (!reaction) finish(ctx, c.id, targets.some((t) => t.side !== c.side) ? ['attacks'] : []);
}
