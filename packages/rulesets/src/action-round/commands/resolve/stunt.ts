import { chebyshev, type Item } from '@fray/engine';
import { RULE } from '../../catalogue/index.js';
import { checkFree, checkReaction } from '../../checks/index.js';
import { emit, patchData, plain, type ArCtx } from '../../events.js';
import { damageRank, isConflictKind, stuntSave } from '../../mechanics/combat.js';
import { dcModerate } from '../../mechanics/dice.js';
import {
  boost,
  combatant,
  effectsOn,
  freeHand,
  freeHands,
  heldItems,
  kindOf,
  occupant,
  posOf,
  type AttackKind,
  type Benefit,
  type C,
} from '../../state/index.js';
import { payQuick } from './budget.js';
import { addEffect } from './effects.js';
import { check, opposed } from './roll.js';
import type { Resume } from './windows.js';

/** Stunts: the opposed damage check, then the benefit (afflict, disarm, grab, pull, push, break). */

export type Stunt = { benefit: Benefit; condition?: string; itemId?: string; catch?: boolean };

export function resolveStunt(ctx: ArCtx, attackerId: string, targetId: string, kind: AttackKind, stunt: Stunt): void {
  const s = ctx.state;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  const save = stuntSave(t, kind);
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
  if (!ctx.state.reaction && checkReaction(ctx.state, ctx.options, t) === null) {
    const resume: Resume = { t: 'after', actorId: a.id, kinds: ['attacks'] };
    ctx.openReaction({
      kind: RULE.counterStunt,
      trigger: { combatantId: a.id, action: 'stunt', description: `${a.name}'s stunt failed: ${t.name} may counter-stunt` },
      eligible: [t.id],
      allowed: ['counter-stunt'],
      resume,
    });
  }
}

export function applyStunt(ctx: ArCtx, attackerId: string, targetId: string, kind: AttackKind, stunt: Stunt, degrees: number): void {
  const s = ctx.state;
  const a = combatant(s, attackerId);
  const t = combatant(s, targetId);
  const rank = damageRank(s, a, kind);
  switch (stunt.benefit) {
    case 'afflict': {
      const condition = stunt.condition ?? 'dazed';
      addEffect(ctx, {
        name: condition,
        condition,
        targetId: t.id,
        sourceId: a.id,
        expires: null,
        data: { kind: 'affliction', resist: { save: isConflictKind(kind) ? 'will' : 'fortitude', dc: 10 + rank } },
      });
      break;
    }
    case 'disarm':
      disarm(ctx, a, t, stunt);
      break;
    case 'grab': {
      // "a special cumulative sustained affliction (Held, Restrained, Bound)"
      const ladderNames = ['held', 'restrained', 'bound'];
      const existing = s.effects.find((e) => e.targetId === t.id && e.sourceId === a.id && kindOf(e) === 'grab');
      const level = existing ? Math.min(2, ladderNames.indexOf(existing.condition ?? 'held') + 1) : 0;
      if (existing) ctx.emit({ type: 'effect.removed', effectId: existing.id, reason: 'grab worsened' });
      addEffect(ctx, {
        name: ladderNames[level]!,
        condition: ladderNames[level]!,
        targetId: t.id,
        sourceId: a.id,
        expires: null,
        data: { kind: 'grab' },
      });
      if (!effectsOn(ctx.state, a.id, 'grabbing').length) {
        // "You are hindered and vulnerable while grabbing and holding an opponent"
        addEffect(ctx, {
          name: 'hindered (grabbing)',
          condition: 'hindered',
          targetId: a.id,
          sourceId: t.id,
          expires: null,
          data: { kind: 'grabbing', of: t.id },
        });
        addEffect(ctx, {
          name: 'vulnerable (grabbing)',
          condition: 'vulnerable',
          targetId: a.id,
          sourceId: t.id,
          expires: null,
          data: { kind: 'grabbing', of: t.id },
        });
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
      const items = t.items.map((i) =>
        i.id === item.id ? { ...plain(i), props: { ...(plain(i.props) ?? {}), damage, broken: true } } : plain(i),
      );
      emit(ctx, 'object-damaged', { combatantId: a.id, targetId: t.id, itemId: item.id, damage }, { items: { [t.id]: items } });
      break;
    }
  }
  emit(ctx, 'stunt-succeeded', { combatantId: a.id, targetId: t.id, benefit: stunt.benefit, degrees });
}

function moveItem(ctx: ArCtx, fromId: string, toId: string, item: Item, location: Item['location'], why: string): void {
  const from = combatant(ctx.state, fromId);
  const to = combatant(ctx.state, toId);
  const props = { ...(plain(item.props) ?? {}) };
  delete props['square'];
  const moved: Item = { ...plain(item), location, props };
  emit(
    ctx,
    'item-taken',
    { combatantId: toId, fromId, itemId: item.id, why },
    {
      items: { [fromId]: plain(from.items).filter((i) => i.id !== item.id), [toId]: [...plain(to.items), moved] },
    },
  );
}

/** DISARM: the held object drops to the target's square; a free pair of hands may grab it, one hand may try to catch it. */
function disarm(ctx: ArCtx, a: C, t: C, stunt: Stunt): void {
  const s = ctx.state;
  const o = ctx.options;
  const item = heldItems(t).find((i) => !stunt.itemId || i.id === stunt.itemId);
  if (!item) {
    emit(ctx, 'stunt-no-effect', { combatantId: a.id, targetId: t.id, benefit: 'disarm', reason: 'nothing held' });
    return;
  }
  const square = posOf(t);
  const targetItems = t.items.map((i) =>
    i.id === item.id ? { ...plain(i), location: 'ground' as const, props: { ...(plain(i.props) ?? {}), square } } : plain(i),
  );
  emit(ctx, 'disarmed', { combatantId: a.id, targetId: t.id, itemId: item.id }, { items: { [t.id]: targetItems } });
  const inReach = !!square && !!posOf(a) && chebyshev(posOf(a)!, square) <= a.stats.reach;
  const dropped = targetItems.find((i) => i.id === item.id)!;
  if (inReach && freeHands(a) >= 2 && checkFree(s, a) === null) {
    // "If you made the disarm attempt and you have two hands free, and within in reach, you can grab the dropped object as a free action."
    patchData(ctx, 'spent', a.id, { free: a.data.free + 1 }, { action: 'disarm-grab', actionType: 'free', slot: 'free' });
    moveItem(ctx, t.id, a.id, dropped, freeHand(a, (dropped.tags ?? []).includes('two-handed')) ?? 'right-hand', 'disarm-grab');
  } else if (inReach && freeHands(a) === 1 && stunt.catch) {
    // "If only one hand is free, you can use a Quick action to make a Reaction check with a Moderate DC (DC 10 + Power Level) to grab it instead."
    const paid = payQuick(ctx, a);
    if (paid) {
      const r = check(ctx, {
        who: a.id,
        bonus: a.stats.skills['reaction'] ?? 0,
        dc: dcModerate(o),
        purpose: 'Reaction check to grab the disarmed object',
        kind: 'skill',
      });
      if (r.success) moveItem(ctx, t.id, a.id, dropped, freeHand(a, false) ?? 'right-hand', 'disarm-catch');
    }
  }
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
