import { chebyshev } from '@fray/engine';
import { check, type ArCtx } from './checks.js';
import type { Options, Power } from './options.js';
import { addEffect, boost, combatant, cond, effectsOn, emit, err, patchData, raise } from './rules.js';
import { finish, isConflictKind, type AttackKind, type Cmd } from './resolve.js';
import { posOf, type C } from './space.js';
import type { Data, State } from './state.js';

/**
 * Powers: who has which, where they reach, how a power use resolves (attack check, then the
 * target's resistance against 10 + the effect rank), and the COMBINE assist that raises that rank.
 */

export function powerOf(ctx: ArCtx, c: C, powerId: string): Power {
  const p = c.stats.powers.find((x) => x.id === powerId);
  if (!p) raise(ctx, err('INVALID_COMMAND', 'powers', `${c.name} has no power "${powerId}".`));
  return p;
}

const POWER_KIND: Record<Power['range'], AttackKind> = { personal: 'close', close: 'close', ranged: 'ranged', court: 'court', gossip: 'rumor' };

export function powerTargetGate(s: State, o: Options, c: C, p: Power, t: C): string | null {
  const pa = posOf(c);
  const pt = posOf(t);
  if (p.range === 'personal') return t.id === c.id ? null : 'a personal power works on yourself only';
  if (!pa || !pt) return 'both characters must be on the grid';
  const d = chebyshev(pa, pt);
  switch (p.range) {
    case 'close':
      return d <= p.reach ? null : '"within the power’s reach"';
    case 'ranged':
      return d <= 1 ? '"non-adjacent"' : d <= p.rangeSquares ? null : '"within the power’s range"';
    case 'court':
      return d <= o.conversationRange ? null : 'court powers work within conversation range';
    case 'gossip':
      return d <= o.conversationRange ? '"against any non-court opponent"' : o.communicationRange === null || d <= o.communicationRange ? null : 'beyond communication range';
  }
}

export function resolvePower(ctx: ArCtx, cmd: Cmd, reaction = false): void {
  const c = combatant(ctx.state, cmd.combatantId);
  const p = powerOf(ctx, c, cmd.powerId as string);
  const targets = (cmd.targetIds as string[]).map((id) => combatant(ctx.state, id)).filter((t): t is C => !!t);
  const kind = POWER_KIND[p.range];
  const alt = c.data.alternates[p.id] ?? null;
  // COMBINE: "grant an ally a bonus to the effect rank of a power": the bonus reaches this power's rank.
  const rank = p.rank + combineBonus(ctx.state, c, p);
  emit(ctx, 'power-used', { combatantId: c.id, powerId: p.id, power: p.name, alternate: alt, targetIds: targets.map((t) => t.id), area: p.area });
  for (const t of targets) {
    if (p.effect === 'other') continue;
    let hit = true;
    if (!p.area && t.id !== c.id) {
      const def = defenseFor(ctx.state, t, c, kind);
      hit = check(ctx, { who: c.id, bonus: c.stats.attack[kind], dc: def, purpose: `${p.name}: attack check vs ${t.name}`, kind: 'attack', targetId: t.id, attack: { kind, damage: rank, targetId: t.id } }).success;
    }
    if (!hit) continue;
    const save = p.effect === 'damage' ? (isConflictKind(kind) ? 'will' : 'toughness') : isConflictKind(kind) ? 'will' : 'fortitude';
    const r = check(ctx, { who: t.id, bonus: t.stats[save] + boost(ctx.state, t.id, save), dc: 10 + rank, purpose: `${save} resistance vs ${p.name}`, kind: 'resistance', record: false });
    if (r.success) continue;
    if (p.effect === 'damage') {
      const track = isConflictKind(kind) ? 'socialDamage' : 'damage';
      const cur = combatant(ctx.state, t.id);
      const value = cur.data[track] + r.degrees;
      patchData(ctx, 'damaged', t.id, { [track]: value } as Partial<Data>, { levels: r.degrees, track, source: c.id });
      if (value >= ctx.options.damageLimit && !cond(ctx.state, t.id, 'incapacitated')) addEffect(ctx, { name: 'Incapacitated', condition: 'incapacitated', targetId: t.id, sourceId: null, expires: null });
    } else {
      const condition = p.condition ?? 'dazed';
      addEffect(ctx, { name: condition, condition, targetId: t.id, sourceId: c.id, expires: null, data: { kind: 'affliction', resist: { save, dc: 10 + rank } } });
    }
  }
  if (!reaction) finish(ctx, c.id, targets.some((t) => t.side !== c.side) ? ['attacks'] : []);
}

function defenseFor(s: State, t: C, a: C, kind: AttackKind): number {
  const bonus = isConflictKind(kind) ? t.stats.socialDefense : t.stats.defense;
  return (t.data.activeDefense ?? 10 + bonus) + Math.min(s.options['maxAdvantage'] as number, t.data.analyze[a.id] ?? 0);
}

/**
 * COMBINE: "grant an ally a bonus to the effect rank of a power, as long as you have a power with the same effect."
 * The ally's powers that `helper` can combine with: the same `effect` (and, for afflictions, the same condition)
 * as one of the helper's own powers; `powerId` narrows it to one of them.
 */
export function combinablePowers(helper: C, ally: C, powerId?: string): Power[] {
  const same = (a: Power, b: Power): boolean => a.effect === b.effect && (a.effect !== 'affliction' || (a.condition ?? 'dazed') === (b.condition ?? 'dazed'));
  return ally.stats.powers.filter((p) => (!powerId || p.id === powerId) && helper.stats.powers.some((h) => same(h, p)));
}

/** Why `helper` may not combine with `ally` (null: it may). */
export function combineGate(helper: C, ally: C, powerId?: string): ReturnType<typeof err> | null {
  if (powerId && !ally.stats.powers.some((p) => p.id === powerId)) return err('INVALID_COMMAND', 'assist-combine', `${ally.name} has no power "${powerId}".`);
  if (helper.stats.powers.length === 0) return err('ILLEGAL_ACTION', 'assist-combine', `${helper.name} has no powers: COMBINE works "as long as you have a power with the same effect".`);
  if (combinablePowers(helper, ally, powerId).length === 0) {
    return err('ILLEGAL_ACTION', 'assist-combine', `${helper.name} has no power with the same effect as ${powerId ? `${ally.name}'s ${powerId}` : `any of ${ally.name}'s powers`}: COMBINE works "as long as you have a power with the same effect".`);
  }
  return null;
}

/** The combine bonuses on `c` that reach power `p`. */
export function combineBonus(s: State, c: C, p: Power): number {
  return effectsOn(s, c.id, 'power-bonus').reduce((n, e) => n + ((e.data as { powerIds?: string[] }).powerIds?.includes(p.id) ? Number((e.data as { n: number }).n) : 0), 0);
}
