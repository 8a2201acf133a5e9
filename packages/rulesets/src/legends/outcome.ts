import { z } from 'zod';
import { commandSchema, idSchema, makeEffect, type Command, type CommandSpec, type Ruleset } from '@fray/engine';
import { checkOverflow, fall } from './commands.js';
import { effectExpiry } from './flow.js';
import { hasCond, isDown, opts, statRoll, weaponOf, type LCombatant, type LCtx, type LRS, type LState, type PendingAttack } from './model.js';
import type { LegendsOptions } from './options.js';

/**
 * The outcome of an attack (option `attackOutcome`, default on; docs/rulesets/legends.md, "Attack
 * outcomes"). The rule excerpts leave damage to the wider game: the server rolls the attack ("a
 * d12 roll on DEX", with the attacker's melee disadvantage and incompetence as Hindrance) and the
 * damage, and the GM confirms or changes both (`legends.resolveAttack`). Damage adds wounds; at
 * its toughness a character is taken out (incapacitated), and when one side alone is left standing
 * the combat ends (option `endWhenOneSideStands`).
 */

const EXPIRY = { effectExpiry } as unknown as Ruleset;
/** the condition a character at its limit gets; the removal on healing looks for this name */
export const TAKEN_OUT = 'Taken out (wounds)';

function damageFormula(s: LState, c: LCombatant, weaponId: string | null): string {
  const o = opts(s);
  if (!weaponId) return o.unarmedDamage;
  const it = c.items.find((i) => i.id === weaponId);
  const own = (it?.props as { damage?: unknown } | undefined)?.damage;
  return typeof own === 'string' && DICE.test(own) && it && weaponOf(it) ? own : o.attackDamage;
}

export const DICE = /^[1-9]?\d?d\d{1,3}([+-]\d{1,3})?$/;

/** Roll an attack just declared (`legends.attacked`) and open its pending outcome. */
export function openAttack(ctx: LCtx, id: string, targetId: string, attack: string, weaponId: string | null, competent: boolean, disadvantage: number): void {
  const s = ctx.state;
  const o = opts(s);
  if (!o.attackOutcome) return;
  const c = s.combatants[id]!;
  // "Without competence, both melee and ranged attacks are much less effective."
  const hindrance = disadvantage + (weaponId && !competent ? o.incompetentHindrance : 0);
  const r = statRoll(ctx, { combatantId: id, stat: 'DEX', hindrance, purpose: `attack roll (${attack}) on DEX` });
  const formula = damageFormula(s, c, weaponId);
  const damage = r.success ? ctx.roll(formula, `damage (${attack})`, { combatantId: id }).total : 0;
  const pending: PendingAttack = { id: ctx.newId('atk'), by: id, target: targetId, attack, weaponId, total: r.total, margin: r.margin, hit: r.success, damage, damageFormula: formula, rollId: r.rollId };
  ctx.emit({ type: 'legends.attackRolled', combatantId: id, targetId, attack: pending });
}

/** Add wounds (negative: heal); at the toughness the character is taken out, below it back in. */
export function wound(ctx: LCtx, id: string, amount: number, reason: string): void {
  const c = ctx.state.combatants[id]!;
  const before = c.data.wounds ?? 0;
  const wounds = Math.max(0, before + amount);
  ctx.emit({ type: 'legends.wounded', combatantId: id, wounds, amount: wounds - before, healed: wounds < before || undefined, reason });
  const limit = c.stats.toughness;
  const out = ctx.state.effects.find((e) => e.targetId === id && e.name === TAKEN_OUT);
  if (wounds >= limit && !out) {
    const effect = makeEffect(ctx as never, EXPIRY, { name: TAKEN_OUT, condition: 'incapacitated', targetId: id, sourceId: null, duration: null });
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

type Spec = CommandSpec<LRS, LegendsOptions>;

export function outcomeCommands(): Record<string, Spec> {
  const resolveAttack = {
    actor: 'gm' as const,
    inSetup: false,
    duringReaction: true,
    schema: commandSchema('resolveAttack', {
      attackId: idSchema,
      /** the GM's ruling on the hit (default: the roll's) */
      hit: z.boolean().optional(),
      /** the damage dealt on a hit (default: the damage rolled) */
      damage: z.number().int().min(0).max(1000).optional(),
    }),
    handle(ctx: LCtx, cmd: Command & Record<string, unknown>) {
      const s = ctx.state;
      const a = s.rs.attacks?.find((x) => x.id === cmd.attackId);
      if (!a) ctx.fail('INVALID_COMMAND', 'legends.attack-outcome', `No pending attack "${String(cmd.attackId)}": it was resolved already, or never made.`);
      const hit = (cmd.hit as boolean | undefined) ?? a.hit;
      const damage = hit ? ((cmd.damage as number | undefined) ?? a.damage) : 0;
      const changed = hit !== a.hit || damage !== a.damage;
      ctx.emit({ type: 'legends.attackResolved', attackId: a.id, combatantId: a.by, targetId: a.target, hit, damage, changed: changed || undefined });
      const t = s.combatants[a.target];
      if (!t || !hit || damage === 0) return;
      const before = standingSides(s);
      wound(ctx, t.id, damage, `hit by ${s.combatants[a.by]?.name ?? a.by}`);
      endIfOneSideStands(ctx, before);
    },
  };
  return { resolveAttack: resolveAttack as unknown as Spec };
}

/** Is this combatant taken out by wounds (for the display and tests)? */
export function takenOut(s: LState, id: string): boolean {
  return hasCond(s, id, ['incapacitated']) !== null && s.effects.some((e) => e.targetId === id && e.name === TAKEN_OUT);
}
