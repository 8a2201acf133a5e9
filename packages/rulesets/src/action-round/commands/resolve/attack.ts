import { check } from './roll.js';
import { emit, patchData, plain, type ArCtx } from '../../events.js';
import { damageRank, defenseAgainst, isConflictKind } from '../../mechanics/combat.js';
import { afterBurst, boost, combatant, effectsOn, sumN, type AttackKind, type Benefit } from '../../state/index.js';
import { loseAim, takeDamage } from './effects.js';
import { resolveStunt } from './stunt.js';

/** An attack: the check against defense with every Advantage, then damage (or the stunt's benefit). */

export interface AttackOpts {
  disadvantage?: number;
  raises?: number;
  smash?: boolean;
  slam?: boolean;
  stunt?: { benefit: Benefit; condition?: string; itemId?: string; catch?: boolean };
  reaction?: boolean;
  action: string;
  powerRank?: number;
}

export function resolveAttack(ctx: ArCtx, attackerId: string, targetId: string, kind: AttackKind, opts: AttackOpts): boolean {
  const s = ctx.state;
  const o = ctx.options;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  let adv = 0;
  const parts: Record<string, number> = {};
  if (a.data.aim) {
    if (a.data.aim.targetId === t.id) {
      parts.aim = a.data.aim.bonus;
      loseAim(ctx, a.id, 'used on the attack');
    } else {
      // "Attacking someone else spoils your aim and you lose the bonus."
      loseAim(ctx, a.id, 'attacked someone else');
    }
  }
  parts.aid = sumN(effectsOn(s, a.id, 'aid').filter((e) => e.data?.['against'] === t.id));
  parts.advantage = sumN(effectsOn(s, a.id, 'advantage'));
  if (a.data.stance) {
    if (a.data.stance.bonus.on === 'attack') parts.stance = a.data.stance.bonus.n;
    if (a.data.stance.penalty.on === 'attack') parts.stancePenalty = -a.data.stance.penalty.n;
  }
  if (opts.slam) parts.slam = Math.min(o.maxAdvantage, Math.floor(a.data.moved / 2));
  if (opts.disadvantage) parts.disadvantage = -opts.disadvantage;
  for (const v of Object.values(parts)) adv += afterBurst(s, a.id, t.id, v);
  const def = defenseAgainst(s, o, t, a, kind);
  const bonus = a.stats.attack[kind] + boost(s, a.id, 'attack');
  if (!opts.reaction) patchData(ctx, 'attacking', a.id, { attackedThisTurn: true }, { targetId: t.id, kind, action: opts.action });
  const res = check(ctx, {
    who: a.id,
    bonus,
    advantage: adv,
    dc: def.value + def.advantage,
    purpose: `${opts.action}: ${kind} attack check vs ${t.name}`,
    kind: 'attack',
    raises: opts.raises,
    targetId: t.id,
    attack: { kind, damage: damageRank(s, a, kind, opts.powerRank), targetId: t.id },
  });
  emit(ctx, 'attack-resolved', {
    combatantId: a.id,
    targetId: t.id,
    kind,
    hit: res.success,
    advantage: plain(parts),
    defense: def.value + def.advantage,
    action: opts.action,
  });
  if (!res.success) return false;
  if (opts.stunt) {
    resolveStunt(ctx, a.id, t.id, kind, opts.stunt);
  } else {
    dealDamage(ctx, a.id, t.id, kind, opts);
  }
  if (opts.slam) {
    // "make a Toughness resistance check against the damage of your attack without the bonus gained for using slam"
    const r = check(ctx, {
      who: a.id,
      bonus: a.stats.toughness + boost(s, a.id, 'toughness'),
      dc: 10 + a.stats.damage[kind],
      purpose: 'slam: Toughness resistance vs own impact',
      kind: 'resistance',
      record: false,
    });
    if (!r.success) takeDamage(ctx, a.id, r.degrees, 'damage', 'slam');
  }
  return true;
}

/** Damage: passive 10 + rank, or (Smash) a d20 + rank check, against the target's Toughness (combat) or Will (conflict). */
export function dealDamage(
  ctx: ArCtx,
  attackerId: string,
  targetId: string,
  kind: AttackKind,
  opts: { smash?: boolean; powerRank?: number },
): void {
  const s = ctx.state;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  const rank = damageRank(s, a, kind, opts.powerRank);
  let value = 10 + rank;
  if (opts.smash) {
    // "Instead of having a passive damage or effect rank, where you just add 10, you make a damage or effect rank check"
    value = ctx.roll(rank === 0 ? '1d20' : `1d20${rank > 0 ? '+' : '-'}${Math.abs(rank)}`, 'smash: damage check', {
      combatantId: a.id,
    }).total;
  }
  const save = isConflictKind(kind) ? 'will' : 'toughness';
  const r = check(ctx, {
    who: t.id,
    bonus: t.stats[save] + boost(s, t.id, save),
    dc: value,
    purpose: `${save} resistance vs damage ${value}`,
    kind: 'resistance',
    record: false,
  });
  emit(ctx, 'damage-resolved', {
    combatantId: a.id,
    targetId: t.id,
    damage: value,
    save,
    resisted: r.success,
    levels: r.success ? 0 : r.degrees,
  });
  if (!r.success) takeDamage(ctx, t.id, r.degrees, isConflictKind(kind) ? 'socialDamage' : 'damage', a.id);
}
