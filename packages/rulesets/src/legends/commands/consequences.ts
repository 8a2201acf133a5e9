import { emit } from '../events/index.js';
import { newEffect } from '../flow/durations.js';
import { statRoll } from '../mechanics/dice.js';
import { defenseOverflows } from '../mechanics/defense.js';
import { breakoutDegrees, type Breakout } from '../mechanics/space.js';
import { damageFormula } from '../mechanics/weapons.js';
import { inHand, isDown, opts, posOf, type DroppedInfo, type LCtx, type LState, type PendingAttack } from '../state/index.js';

/**
 * What follows from an action, an attack or a condition: melee disadvantage, the outcome of an attack (option
 * `attackOutcome`: the server rolls the attack and the damage, the GM confirms; wounds up to the toughness take a
 * character out), a fall (items dropped, the carried dropped), a group defense left with too many to protect.
 */

export function addDisadvantage(ctx: LCtx, id: string, degrees: number, why: string, unit: 'start-of-turn' | 'end-of-round'): void {
  if (degrees <= 0) return;
  const effect = newEffect(ctx, {
    name: `${degrees} degree(s) of melee disadvantage (${why})`,
    condition: 'melee-disadvantage',
    targetId: id,
    sourceId: id,
    duration: { unit, count: 1 },
    data: { degrees },
  });
  ctx.emit({ type: 'effect.applied', effect });
}

/** "you receive one degree of melee disadvantage for each of the above options you choose" */
export function applyBreakout(ctx: LCtx, id: string, b: Breakout | undefined, phase: 'movement' | 'action'): void {
  const n = breakoutDegrees(b);
  // "If breakout tactics are used during the movement phase, the disadvantage continues until the end of the round. If used during your turn in the action phase, they continue until the beginning of your next turn."
  addDisadvantage(ctx, id, n, 'breakout tactics', phase === 'movement' ? 'end-of-round' : 'start-of-turn');
}

/** the condition a character at its limit gets; the removal on healing looks for this name */
const TAKEN_OUT = 'Taken out (wounds)';

/** Roll an attack just declared (`legends.attacked`) and open its pending outcome. */
export function openAttack(
  ctx: LCtx,
  id: string,
  targetId: string,
  attack: string,
  weaponId: string | null,
  competent: boolean,
  disadvantage: number,
): void {
  const s = ctx.state;
  const o = opts(s);
  if (!o.attackOutcome) return;
  const c = s.combatants[id]!;
  // "Without competence, both melee and ranged attacks are much less effective."
  const hindrance = disadvantage + (weaponId && !competent ? o.incompetentHindrance : 0);
  const r = statRoll(ctx, { combatantId: id, stat: 'DEX', hindrance, purpose: `attack roll (${attack}) on DEX` });
  const formula = damageFormula(s, c, weaponId);
  const damage = r.success ? ctx.roll(formula, `damage (${attack})`, { combatantId: id }).total : 0;
  const pending: PendingAttack = {
    id: ctx.newId('atk'),
    by: id,
    target: targetId,
    attack,
    weaponId,
    total: r.total,
    margin: r.margin,
    hit: r.success,
    damage,
    damageFormula: formula,
    rollId: r.rollId,
  };
  emit(ctx, { type: 'legends.attackRolled', combatantId: id, targetId, attack: pending });
}

/** Add wounds (negative: heal); at the toughness the character is taken out, below it back in. */
export function wound(ctx: LCtx, id: string, amount: number, reason: string): void {
  const c = ctx.state.combatants[id]!;
  const before = c.data.wounds ?? 0;
  const wounds = Math.max(0, before + amount);
  emit(ctx, { type: 'legends.wounded', combatantId: id, wounds, amount: wounds - before, healed: wounds < before || undefined, reason });
  const limit = c.stats.toughness;
  const out = ctx.state.effects.find((e) => e.targetId === id && e.name === TAKEN_OUT);
  if (wounds >= limit && !out) {
    const effect = newEffect(ctx, { name: TAKEN_OUT, condition: 'incapacitated', targetId: id, sourceId: null, duration: null });
    ctx.emit({ type: 'effect.applied', effect });
    if (opts(ctx.state).dropItemsConditions.includes('incapacitated')) fall(ctx, id);
    checkOverflow(ctx);
  } else if (wounds < limit && out) {
    ctx.emit({ type: 'effect.removed', effectId: out.id, reason: 'healed' });
  }
}

/** The sides with a combatant still standing. */
export function standingSides(s: LState): string[] {
  const sides = new Set<string>();
  for (const c of Object.values(s.combatants)) if (!isDown(s, c.id)) sides.add(c.side);
  return [...sides];
}

/** "a fight can end by its own rules": when one side alone is left standing, combat ends. */
export function endIfOneSideStands(ctx: LCtx, before: string[]): void {
  const s = ctx.state;
  if (!opts(s).endWhenOneSideStands || s.status !== 'active' || before.length < 2) return;
  const now = standingSides(s);
  if (now.length > 1) return;
  const reason = now.length === 1 ? `only ${now[0]} is left standing` : 'nobody is left standing';
  if (s.reaction) ctx.emit({ type: 'reaction.closed', windowId: s.reaction.id, outcome: 'combat-ended' });
  ctx.emit({ type: 'combat.ended', reason });
}

/** incapacitated or paralyzed: "you will technically drop any item(s) in your hands"; a carrier that falls drops who they carry */
export function fall(ctx: LCtx, id: string): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const p = posOf(c);
  for (const it of c.items.filter(inHand)) {
    const dropped: DroppedInfo = {
      by: id,
      round: s.clock.round,
      turnN: c.data.turn.n,
      zone: p.zone,
      area: p.area,
      engagement: p.engagement,
      group: p.group,
      fallen: true,
    };
    emit(ctx, { type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: 'ground', dropped });
  }
  for (const x of Object.values(s.combatants)) {
    if (x.data.carriedBy !== id) continue;
    // "You suffer a knockdown if the character carrying you drops you involuntarily."
    emit(ctx, { type: 'legends.carryEnded', combatantId: id, targetId: x.id, voluntary: false });
    const knock = newEffect(ctx, {
      name: 'Knocked down (dropped while carried)',
      condition: 'knocked-down',
      targetId: x.id,
      sourceId: id,
      duration: null,
    });
    ctx.emit({ type: 'effect.applied', effect: knock });
  }
}

export function checkOverflow(ctx: LCtx): void {
  const s = ctx.state;
  if (s.status !== 'active') return;
  for (const [g, d] of Object.entries(s.rs.defense)) {
    if (!s.rs.overflow.includes(g) && defenseOverflows(s, g, d)) emit(ctx, { type: 'legends.groupDefenseOverflow', group: g });
  }
}
