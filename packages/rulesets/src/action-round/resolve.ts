import { chebyshev, type Item, type ReactionWindow } from '@fray/engine';
import { check, dcModerate, opposed, type ArCtx } from './checks.js';
import type { Options } from './options.js';
import {
  addEffect,
  boost,
  combatant,
  cond,
  effectsOn,
  emit,
  err,
  freeGate,
  afterBurst,
  nextTurn,
  patchData,
  raise,
  reactionGate,
  RULE,
  slotFor,
  takeDamage,
  threatenersOf,
} from './rules.js';
import { isArmed, isIncapacitated, occupant, posOf, threatens, hasWits, type C } from './space.js';
import { plain, type Data, type Square, type State } from './state.js';
import { loseAim } from './turns.js';

export type AttackKind = 'close' | 'ranged' | 'court' | 'rumor';
export type Benefit = 'afflict' | 'disarm' | 'grab' | 'pull' | 'push' | 'break';
export type TriggerKind = 'acts' | 'moves' | 'attacks' | 'enters-reach';
export type Cmd = Record<string, unknown> & { combatantId: string };

export type Resume =
  | { t: 'resolve'; action: string; cmd: Cmd }
  | { t: 'path'; actorId: string; action: string; path: Square[]; index: number; exempt: string[] | 'all'; oaAt: number; then: Then }
  | { t: 'after'; actorId: string; kinds: TriggerKind[] }
  | { t: 'none' };

export type Then = { kind: 'finish'; kinds: TriggerKind[] } | { kind: 'charge'; targetId: string } | { kind: 'none' };

export const isConflictKind = (k: AttackKind): boolean => k === 'court' || k === 'rumor';

// ---------------------------------------------------------------- ranges

/** Reach / range / conversation conditions of the four attack kinds. Null when the target is a legal one. */
export function rangeGate(s: State, o: Options, a: C, t: C, kind: AttackKind): string | null {
  const pa = posOf(a);
  const pt = posOf(t);
  if (!pa || !pt) return 'both characters must be on the grid';
  const d = chebyshev(pa, pt);
  switch (kind) {
    case 'close':
      return d <= a.stats.reach ? null : `"against any opponent within the attack’s reach" (reach ${a.stats.reach}, distance ${d})`;
    case 'ranged':
      if (a.stats.range <= 0) return 'no ranged attack';
      if (d <= 1) return '"against any non-adjacent opponent"';
      return d <= a.stats.range ? null : `"within the attack’s range" (range ${a.stats.range}, distance ${d})`;
    case 'court':
      return d <= o.conversationRange ? null : `"against any opponent within conversation range" (${o.conversationRange} squares)`;
    case 'rumor':
      if (d <= o.conversationRange) return '"outside conversation range"';
      return o.communicationRange === null || d <= o.communicationRange ? null : '"but within communication range"';
  }
}

/** Who an attack provokes: "Attacking an armed opponent while unarmed", "who has ranks in Wits while you do not", ranged and rumor always. */
export function attackProvokers(s: State, o: Options, a: C, t: C | null, kind: AttackKind): C[] {
  const pa = posOf(a);
  if (!pa) return [];
  if (kind === 'ranged' || kind === 'rumor') return threatenersOf(s, o, a);
  if (!t) return [];
  const canOa = (x: C) => threatens(s, o, x, pa) !== null && reactionGate(s, o, x) === null && x.side !== a.side;
  if (kind === 'close' && !isArmed(a) && isArmed(t) && canOa(t)) return [t];
  if (kind === 'court' && hasWits(t) && !hasWits(a) && canOa(t)) return [t];
  return [];
}

// ---------------------------------------------------------------- windows

export function openOa(ctx: ArCtx, actor: C, provokers: C[], action: string, description: string, resume: Resume): boolean {
  if (provokers.length === 0) return false;
  ctx.openReaction({
    kind: RULE('opportunity-attack'),
    trigger: { combatantId: actor.id, action, description },
    eligible: provokers.map((p) => p.id),
    allowed: ['opportunity-attack'],
    resume,
  });
  return true;
}

/** After an action on a turn: readied actions whose trigger matches get a reaction window. */
export function finish(ctx: ArCtx, actorId: string, kinds: TriggerKind[]): void {
  const s = ctx.state;
  if (s.reaction) return;
  const actor = combatant(s, actorId);
  if (!actor) return;
  const all: TriggerKind[] = ['acts', ...kinds];
  const eligible = Object.values(s.combatants)
    .filter((c) => {
      const r = c.data.readied;
      if (!r || c.id === actorId) return false;
      if (r.trigger.by !== null ? r.trigger.by !== actorId : c.side === actor.side) return false;
      if (reactionGate(s, ctx.options, c as C, true)) return false;
      if (r.trigger.event === 'enters-reach') {
        const pc = posOf(c as C);
        const pa = posOf(actor);
        return all.includes('moves') && !!pc && !!pa && chebyshev(pc, pa) <= c.stats.reach;
      }
      return all.includes(r.trigger.event);
    })
    .map((c) => c.id)
    .sort();
  if (eligible.length === 0) return;
  ctx.openReaction({
    kind: RULE('readied'),
    trigger: { combatantId: actorId, action: all.join(','), description: `${actor.name} ${kinds.join(' and ') || 'acts'}` },
    eligible,
    allowed: ['readied'],
    resume: { t: 'after', actorId, kinds: [] } satisfies Resume,
  });
}

// ---------------------------------------------------------------- movement

/** Walk a validated path square by square; leaving a threatened square provokes ("Exiting out of a square threatened by another creature"). */
export function walkPath(ctx: ArCtx, st: Extract<Resume, { t: 'path' }>, reactionMode = false): void {
  const s = ctx.state;
  const o = ctx.options;
  const c = combatant(s, st.actorId);
  let i = st.index;
  const done: Square[] = [];
  const flush = () => {
    if (done.length === 0) return;
    const last = done[done.length - 1]!;
    const cur = combatant(ctx.state, st.actorId);
    emit(ctx, 'moved', { combatantId: st.actorId, action: st.action, path: plain(done), to: { ...last } }, { pos: { [st.actorId]: { ...last } }, data: { [st.actorId]: { moved: cur.data.moved + done.length, movedRound: ctx.state.clock.round } } });
    done.length = 0;
  };
  let stopped = false;
  while (i < st.path.length) {
    const here = done.length ? done[done.length - 1]! : posOf(c)!;
    if (!reactionMode && st.oaAt !== i && st.exempt !== 'all') {
      const exempt = st.exempt;
      const provs = threatenersOfSquare(s, o, c, here).filter((p) => !exempt.includes(p.id));
      if (provs.length) {
        flush();
        openOa(ctx, c, provs, st.action, `${c.name} leaves a threatened square`, { ...st, index: i, oaAt: i });
        return;
      }
    }
    const next = st.path[i]!;
    const occ = occupant(ctx.state, next, c.id);
    if (occ && (occ.side !== c.side || i === st.path.length - 1)) {
      stopped = true;
      break;
    }
    done.push({ x: next.x, y: next.y });
    i++;
  }
  flush();
  if (stopped) emit(ctx, 'movement-stopped', { combatantId: c.id, reason: 'square occupied' });
  afterPath(ctx, st, reactionMode);
}

function threatenersOfSquare(s: State, o: Options, c: C, sq: Square): C[] {
  const real = posOf(c);
  if (real && real.x === sq.x && real.y === sq.y) return threatenersOf(s, o, c);
  return Object.values(s.combatants)
    .filter((e) => e.side !== c.side && threatens(s, o, e as C, sq) !== null && reactionGate(s, o, e as C) === null)
    .map((e) => e as C)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

export function afterPath(ctx: ArCtx, st: Extract<Resume, { t: 'path' }>, reactionMode: boolean): void {
  const then = st.then;
  if (then.kind === 'charge') {
    const a = combatant(ctx.state, st.actorId);
    const t = combatant(ctx.state, then.targetId);
    if (!t || rangeGate(ctx.state, ctx.options, a, t, 'close')) {
      emit(ctx, 'charge-missed', { combatantId: a.id, targetId: then.targetId, reason: 'the target is not within reach at the end of the charge' });
    } else {
      // "At the end of your movement, you can perform an attack against your opponent with a -1 Disadvantage to the attack check."
      resolveAttack(ctx, a.id, t.id, 'close', { disadvantage: 1, action: 'charge' });
    }
    if (!reactionMode) finish(ctx, st.actorId, ['moves', 'attacks']);
    return;
  }
  if (then.kind === 'finish' && !reactionMode) finish(ctx, st.actorId, then.kinds);
}

// ---------------------------------------------------------------- attacks

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

function sumData(list: { data?: Record<string, unknown> }[], key = 'n'): number {
  return list.reduce((n, e) => n + Number((e.data ?? {})[key] ?? 0), 0);
}

export function defenseAgainst(s: State, t: C, a: C, kind: AttackKind): { value: number; advantage: number } {
  const bonus = (isConflictKind(kind) ? t.stats.socialDefense : t.stats.defense) + boost(s, t.id, 'defense');
  let value = t.data.activeDefense ?? 10 + bonus;
  // Vulnerable: the defense bonus counts half.
  if (cond(s, t.id, 'vulnerable')) value -= Math.floor(Math.max(0, bonus) / 2);
  let adv = Math.min(s.options['maxAdvantage'] as number, t.data.analyze[a.id] ?? 0);
  adv += sumData(effectsOn(s, t.id, 'distract').filter((e) => (e.data as { against: string }).against === a.id));
  adv += sumData(effectsOn(s, t.id, 'advantage'));
  if (t.data.stance) {
    if (t.data.stance.bonus.on === 'defense') adv += t.data.stance.bonus.n;
    if (t.data.stance.penalty.on === 'defense') adv -= t.data.stance.penalty.n;
  }
  return { value, advantage: afterBurst(s, t.id, a.id, adv) };
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
  parts.aid = sumData(effectsOn(s, a.id, 'aid').filter((e) => (e.data as { against: string }).against === t.id));
  parts.advantage = sumData(effectsOn(s, a.id, 'advantage'));
  if (a.data.stance) {
    if (a.data.stance.bonus.on === 'attack') parts.stance = a.data.stance.bonus.n;
    if (a.data.stance.penalty.on === 'attack') parts.stancePenalty = -a.data.stance.penalty.n;
  }
  if (opts.slam) parts.slam = Math.min(o.maxAdvantage, Math.floor(a.data.moved / 2));
  if (opts.disadvantage) parts.disadvantage = -opts.disadvantage;
  for (const v of Object.values(parts)) adv += afterBurst(s, a.id, t.id, v);
  const def = defenseAgainst(s, t, a, kind);
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
    attack: { kind, damage: damageRank(s, a, kind, opts), targetId: t.id },
  });
  emit(ctx, 'attack-resolved', { combatantId: a.id, targetId: t.id, kind, hit: res.success, advantage: plain(parts), defense: def.value + def.advantage, action: opts.action });
  if (!res.success) return false;
  if (opts.stunt) {
    resolveStunt(ctx, a.id, t.id, kind, opts.stunt, res.degrees);
  } else {
    dealDamage(ctx, a.id, t.id, kind, opts);
  }
  if (opts.slam) {
    // "make a Toughness resistance check against the damage of your attack without the bonus gained for using slam"
    const r = check(ctx, { who: a.id, bonus: a.stats.toughness + boost(s, a.id, 'toughness'), dc: 10 + a.stats.damage[kind], purpose: 'slam: Toughness resistance vs own impact', kind: 'resistance', record: false });
    if (!r.success) takeDamage(ctx, a.id, r.degrees, 'damage', 'slam');
  }
  return true;
}

export function damageRank(s: State, a: C, kind: AttackKind, opts: { powerRank?: number } = {}): number {
  let rank = (opts.powerRank ?? a.stats.damage[kind]) + boost(s, a.id, 'damage');
  rank += sumData(effectsOn(s, a.id, 'effect-bonus'));
  if (a.data.stance) {
    if (a.data.stance.bonus.on === 'effect') rank += a.data.stance.bonus.n;
    if (a.data.stance.penalty.on === 'effect') rank -= a.data.stance.penalty.n;
  }
  return rank;
}

/** Damage: passive 10 + rank, or (Smash) a d20 + rank check, against the target's Toughness (combat) or Will (conflict). */
export function dealDamage(ctx: ArCtx, attackerId: string, targetId: string, kind: AttackKind, opts: { smash?: boolean; powerRank?: number }): void {
  const s = ctx.state;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  const rank = damageRank(s, a, kind, opts);
  let value = 10 + rank;
  if (opts.smash) {
    // "Instead of having a passive damage or effect rank, where you just add 10, you make a damage or effect rank check"
    value = ctx.roll(rank === 0 ? '1d20' : `1d20${rank > 0 ? '+' : '-'}${Math.abs(rank)}`, 'smash: damage check', { combatantId: a.id }).total;
  }
  const save = isConflictKind(kind) ? 'will' : 'toughness';
  const r = check(ctx, { who: t.id, bonus: t.stats[save] + boost(s, t.id, save), dc: value, purpose: `${save} resistance vs damage ${value}`, kind: 'resistance', record: false });
  emit(ctx, 'damage-resolved', { combatantId: a.id, targetId: t.id, damage: value, save, resisted: r.success, levels: r.success ? 0 : r.degrees });
  if (!r.success) takeDamage(ctx, t.id, r.degrees, isConflictKind(kind) ? 'socialDamage' : 'damage', a.id);
}

// ---------------------------------------------------------------- stunts

export function stuntSaves(kind: AttackKind): ['fortitude' | 'will', 'reflex'] {
  // "against the defender’s Fortitude or Reflex resistance for Combat Attacks, or Will or Reflex resistance for Conflict Attacks"
  return [isConflictKind(kind) ? 'will' : 'fortitude', 'reflex'];
}

export function resolveStunt(ctx: ArCtx, attackerId: string, targetId: string, kind: AttackKind, stunt: NonNullable<AttackOpts['stunt']>, _hitDegrees: number): void {
  const s = ctx.state;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  const [s1, s2] = stuntSaves(kind);
  const save = t.stats[s1] >= t.stats[s2] ? s1 : s2;
  const r = opposed(
    ctx,
    { who: a.id, bonus: damageRank(s, a, kind), purpose: `stunt (${stunt.benefit}): damage vs ${t.name}'s ${save}` },
    { who: t.id, bonus: t.stats[save] + boost(s, t.id, save), purpose: `${save} vs stunt` },
    'stunt',
  );
  if (r.success) {
    applyStunt(ctx, a.id, t.id, kind, stunt, r.degrees);
    return;
  }
  emit(ctx, 'stunt-failed', { combatantId: a.id, targetId: t.id, benefit: stunt.benefit });
  // "If you lose the opposed check, the defender may immediately make an attempt to use a Stunt on you as a Reaction"
  if (!ctx.state.reaction && reactionGate(ctx.state, ctx.options, t) === null) {
    ctx.openReaction({
      kind: RULE('counter-stunt'),
      trigger: { combatantId: a.id, action: 'stunt', description: `${a.name}'s stunt failed: ${t.name} may counter-stunt` },
      eligible: [t.id],
      allowed: ['counter-stunt'],
      resume: { t: 'after', actorId: a.id, kinds: ['attacks'] } satisfies Resume,
    });
  }
}

const handsUsed = (c: C): number =>
  c.items.reduce((n, i) => n + (i.location === 'both-hands' ? 2 : i.location === 'left-hand' || i.location === 'right-hand' ? 1 : 0), 0);
export const freeHands = (c: C): number => Math.max(0, 2 - handsUsed(c));
export const heldItems = (c: C): Item[] => c.items.filter((i) => i.location === 'left-hand' || i.location === 'right-hand' || i.location === 'both-hands');
export function freeHand(c: C, twoHanded: boolean): Item['location'] | null {
  if (twoHanded) return freeHands(c) >= 2 ? 'both-hands' : null;
  const used = new Set(c.items.map((i) => i.location));
  if (used.has('both-hands')) return null;
  if (!used.has('right-hand')) return 'right-hand';
  if (!used.has('left-hand')) return 'left-hand';
  return null;
}

export function applyStunt(ctx: ArCtx, attackerId: string, targetId: string, kind: AttackKind, stunt: NonNullable<AttackOpts['stunt']>, degrees: number): void {
  const s = ctx.state;
  const o = ctx.options;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  const rank = damageRank(s, a, kind);
  switch (stunt.benefit) {
    case 'afflict': {
      const condition = stunt.condition ?? 'dazed';
      addEffect(ctx, { name: condition, condition, targetId: t.id, sourceId: a.id, expires: null, data: { kind: 'affliction', resist: { save: isConflictKind(kind) ? 'will' : 'fortitude', dc: 10 + rank } } });
      break;
    }
    case 'disarm': {
      const item = heldItems(t).find((i) => !stunt.itemId || i.id === stunt.itemId);
      if (!item) {
        emit(ctx, 'stunt-no-effect', { combatantId: a.id, targetId: t.id, benefit: 'disarm', reason: 'nothing held' });
        break;
      }
      const square = posOf(t);
      const targetItems = t.items.map((i) => (i.id === item.id ? { ...plain(i), location: 'ground' as const, props: { ...(plain(i.props) ?? {}), square } } : plain(i)));
      emit(ctx, 'disarmed', { combatantId: a.id, targetId: t.id, itemId: item.id }, { items: { [t.id]: targetItems } });
      const inReach = !!square && !!posOf(a) && chebyshev(posOf(a)!, square) <= a.stats.reach;
      const dropped = targetItems.find((i) => i.id === item.id)!;
      if (inReach && freeHands(a) >= 2 && freeGate(s, a) === null) {
        // "If you made the disarm attempt and you have two hands free, and within in reach, you can grab the dropped object as a free action."
        patchData(ctx, 'spent', a.id, { free: a.data.free + 1 }, { action: 'disarm-grab', actionType: 'free', slot: 'free' });
        moveItem(ctx, t.id, a.id, dropped, freeHand(a, (dropped.tags ?? []).includes('two-handed')) ?? 'right-hand', 'disarm-grab');
      } else if (inReach && freeHands(a) === 1 && stunt.catch) {
        // "If only one hand is free, you can use a Quick action to make a Reaction check with a Moderate DC (DC 10 + Power Level) to grab it instead."
        const paid = payQuick(ctx, a);
        if (paid) {
          const r = check(ctx, { who: a.id, bonus: a.stats.skills['reaction'] ?? 0, dc: dcModerate(o), purpose: 'Reaction check to grab the disarmed object', kind: 'skill' });
          if (r.success) moveItem(ctx, t.id, a.id, dropped, freeHand(a, false) ?? 'right-hand', 'disarm-catch');
        }
      }
      break;
    }
    case 'grab': {
      // "a special cumulative sustained affliction (Held, Restrained, Bound)"
      const ladderNames = ['held', 'restrained', 'bound'];
      const existing = s.effects.find((e) => e.targetId === t.id && e.sourceId === a.id && (e.data as { kind?: string } | undefined)?.kind === 'grab');
      const level = existing ? Math.min(2, ladderNames.indexOf(existing.condition ?? 'held') + 1) : 0;
      if (existing) ctx.emit({ type: 'effect.removed', effectId: existing.id, reason: 'grab worsened' });
      addEffect(ctx, { name: ladderNames[level]!, condition: ladderNames[level]!, targetId: t.id, sourceId: a.id, expires: null, data: { kind: 'grab' } });
      if (!effectsOn(ctx.state, a.id, 'grabbing').length) {
        // "You are hindered and vulnerable while grabbing and holding an opponent"
        addEffect(ctx, { name: 'hindered (grabbing)', condition: 'hindered', targetId: a.id, sourceId: t.id, expires: null, data: { kind: 'grabbing', of: t.id } });
        addEffect(ctx, { name: 'vulnerable (grabbing)', condition: 'vulnerable', targetId: a.id, sourceId: t.id, expires: null, data: { kind: 'grabbing', of: t.id } });
      }
      break;
    }
    case 'pull':
    case 'push':
      // "You pull/push your target 5 feet per degree of success."
      forcedMove(ctx, a, t, degrees, stunt.benefit);
      break;
    case 'break': {
      const item = t.items.find((i) => (stunt.itemId ? i.id === stunt.itemId : i.location !== 'ground'));
      if (!item) {
        emit(ctx, 'stunt-no-effect', { combatantId: a.id, targetId: t.id, benefit: 'break', reason: 'no object' });
        break;
      }
      const damage = Number((item.props ?? {})['damage'] ?? 0) + degrees;
      const items = t.items.map((i) => (i.id === item.id ? { ...plain(i), props: { ...(plain(i.props) ?? {}), damage, broken: true } } : plain(i)));
      emit(ctx, 'object-damaged', { combatantId: a.id, targetId: t.id, itemId: item.id, damage }, { items: { [t.id]: items } });
      break;
    }
  }
  emit(ctx, 'stunt-succeeded', { combatantId: a.id, targetId: t.id, benefit: stunt.benefit, degrees });
}

function moveItem(ctx: ArCtx, fromId: string, toId: string, item: Item, location: Item['location'], why: string): void {
  const from = combatant(ctx.state, fromId);
  const to = combatant(ctx.state, toId);
  const { square: _sq, ...props } = (plain(item.props) ?? {}) as Record<string, unknown>;
  const moved: Item = { ...plain(item), location, props };
  emit(ctx, 'item-taken', { combatantId: toId, fromId, itemId: item.id, why }, {
    items: { [fromId]: plain(from.items).filter((i) => i.id !== item.id), [toId]: [...plain(to.items), moved] },
  });
}

/** A quick action: from the turn budget on your turn, or "as part of a reaction, so long as you did not use it during your last turn". */
export function quickGate(s: State, c: C): string | null {
  if (s.clock.current === c.id) return slotFor(c.data, 'quick') ? null : 'no quick action left this turn';
  if (c.data.quickUsedThisTurn || c.data.quickInReaction) return 'you may use your quick action as part of a reaction "so long as you did not use it during your last turn"';
  return null;
}
export function payQuick(ctx: ArCtx, c: C): boolean {
  const why = quickGate(ctx.state, c);
  if (why) {
    emit(ctx, 'quick-unavailable', { combatantId: c.id, reason: why });
    return false;
  }
  if (ctx.state.clock.current === c.id) {
    const slot = slotFor(c.data, 'quick')!;
    const patch: Partial<Data> = { slots: { ...c.data.slots, [slot]: c.data.slots[slot] - 1 }, acted: true };
    if (slot === 'quick') patch.quickUsedThisTurn = true;
    patchData(ctx, 'spent', c.id, patch, { action: 'quick', actionType: 'quick', slot });
  } else {
    patchData(ctx, 'spent', c.id, { quickInReaction: true }, { action: 'quick', actionType: 'quick', slot: 'reaction-quick' });
  }
  return true;
}

function forcedMove(ctx: ArCtx, a: C, t: C, squares: number, how: 'pull' | 'push'): void {
  const pa = posOf(a);
  const pt = posOf(t);
  if (!pa || !pt) return;
  const dx = Math.sign(pt.x - pa.x) * (how === 'push' ? 1 : -1);
  const dy = Math.sign(pt.y - pa.y) * (how === 'push' ? 1 : -1);
  let cur = { ...pt };
  let n = 0;
  for (let i = 0; i < squares; i++) {
    const next = { x: cur.x + dx, y: cur.y + dy };
    if (occupant(ctx.state, next, t.id)) break;
    if (how === 'pull' && chebyshev(next, pa) < 1) break;
    cur = next;
    n++;
  }
  emit(ctx, 'forced-move', { combatantId: a.id, targetId: t.id, how, squares: n, to: { ...cur } }, n ? { pos: { [t.id]: cur } } : {});
}

// ---------------------------------------------------------------- counter-stunt and OA (reaction commands)

export function opportunityAttack(ctx: ArCtx, id: string, w: ReactionWindow): void {
  const s = ctx.state;
  const c = combatant(s, id);
  const mover = w.trigger.combatantId ? combatant(s, w.trigger.combatantId) : null;
  if (!mover) return raise(ctx, err('UNKNOWN_TARGET', 'opportunity-attack', 'The provoking character is gone.'));
  const how = threatens(s, ctx.options, c, posOf(mover)!);
  if (!how) return raise(ctx, err('ILLEGAL_ACTION', 'opportunity-attack', `${c.name} does not threaten ${mover.name}'s square.`));
  const g = reactionGate(s, ctx.options, c);
  if (g) raise(ctx, g);
  patchData(ctx, 'reacted', c.id, { reactedSeq: s.rs.turnSeq, reactedCycle: c.data.turnsTaken }, { reaction: 'opportunity-attack' });
  // "You may make a melee attack as if you had taken the Close Attack action" (or a court attack with Wits in a conflict).
  resolveAttack(ctx, c.id, mover.id, how, { reaction: true, action: 'opportunity-attack' });
}

export function isAble(s: State, id: string): boolean {
  const c = combatant(s, id);
  return !!c && !isIncapacitated(s, c);
}

export function nextTurnMarker(s: State, id: string) {
  return nextTurn(s, id, 'end');
}
