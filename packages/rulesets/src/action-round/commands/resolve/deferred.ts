import { ensure } from '@fray/engine';
import { checkRetrieveToHand } from '../../checks/index.js';
import type { In } from '../schemas.js';
import { emit, patchData, plain, type ArCtx } from '../../events.js';
import { dcEasy, dcHard, dcModerate, ladder, signedDegrees } from '../../mechanics/dice.js';
import { threatens } from '../../mechanics/space.js';
import { combatant, effectsOn, enemiesOf, freeHand, isTwoHanded, posOf, skillOf, type C } from '../../state/index.js';
import type { DeferredAction } from './deferred-types.js';
import { addEffect, nextTurn } from './effects.js';
import { pickUp } from './items.js';
import { startPath } from './path.js';
import { resolveAttack } from './attack.js';
import { resolvePower } from './power.js';
import { opposedSkill, skillCheck } from './roll.js';
import { finish } from './windows.js';

/** The second half of an action that provoked: what happens once the opportunity attacks are answered. */
export function runDeferred(ctx: ArCtx, r: DeferredAction): void {
  const c = combatant(ctx.state, r.cmd.combatantId);
  switch (r.action) {
    case 'attack':
      resolveAttack(ctx, c.id, r.cmd.targetId, r.cmd.kind, {
        raises: r.cmd.raises,
        smash: r.cmd.smash,
        slam: r.cmd.slam,
        action: `attack-${r.cmd.kind}`,
      });
      return finish(ctx, c.id, ['attacks']);
    case 'stunt': {
      const { benefit, condition, itemId } = r.cmd;
      resolveAttack(ctx, c.id, r.cmd.targetId, r.cmd.kind, {
        disadvantage: r.cmd.disadvantage,
        raises: r.cmd.raises,
        action: `stunt-${benefit}`,
        stunt: { benefit, condition, itemId, catch: r.cmd.catch },
      });
      return finish(ctx, c.id, ['attacks']);
    }
    case 'assess':
      return assess(ctx, c, r.cmd);
    case 'retrieve':
      return retrieve(ctx, c, r.cmd);
    case 'aim':
      return aim(ctx, c, r.cmd.targetId);
    case 'gambit':
      return gambit(ctx, c, r.cmd);
    case 'influence':
      return influence(ctx, c, r.cmd);
    case 'use-skill':
      return useSkill(ctx, c, r.cmd);
    case 'use-tool':
      emit(ctx, 'tool-used', { combatantId: c.id, itemId: r.cmd.itemId, description: r.cmd.description ?? null });
      if (r.cmd.skill) skillCheck(ctx, c, r.cmd.skill, r.cmd.dc ?? dcModerate(ctx.options), `tool: ${r.cmd.itemId}`);
      return finish(ctx, c.id, []);
    case 'load': {
      const items = plain(c.items).map((i) => (i.id === r.cmd.itemId ? { ...i, props: { ...(i.props ?? {}), loaded: true } } : i));
      emit(ctx, 'loaded', { combatantId: c.id, itemId: r.cmd.itemId }, { items: { [c.id]: items } });
      return finish(ctx, c.id, []);
    }
    case 'use-power':
      return resolvePower(ctx, r.cmd);
    case 'stand':
      return stand(ctx, c);
  }
}

export function stand(ctx: ArCtx, c: C): void {
  for (const e of ctx.state.effects.filter((x) => x.targetId === c.id && x.condition === 'prone'))
    ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'stood up' });
  emit(ctx, 'stood', { combatantId: c.id });
  finish(ctx, c.id, []);
}

function aim(ctx: ArCtx, c: C, targetId: string): void {
  const bonus = Math.min(ctx.options.maxAdvantage, (c.data.aim?.bonus ?? 0) + 1);
  patchData(ctx, 'aimed', c.id, { aim: { targetId, bonus, maintainedTurn: c.data.turnsTaken } }, { targetId, bonus });
  if (!effectsOn(ctx.state, c.id, 'aim-vulnerable').length) {
    // "you are vulnerable while aiming"
    addEffect(ctx, {
      name: 'vulnerable (aiming)',
      condition: 'vulnerable',
      targetId: c.id,
      sourceId: c.id,
      expires: null,
      data: { kind: 'aim-vulnerable' },
    });
  }
  finish(ctx, c.id, []);
}

const cmp = (a: number, b: number) => (a > b ? 'higher' : a < b ? 'lower' : 'equal');
const bestAttack = (x: C) => Math.max(x.stats.attack.close, x.stats.attack.ranged, x.stats.attack.court, x.stats.attack.rumor);
const APPRAISED = ['attack.close', 'attack.ranged', 'defense', 'toughness', 'fortitude', 'reflex', 'will'] as const;
function appraised(t: C, k: (typeof APPRAISED)[number]): number {
  if (k === 'attack.close' || k === 'attack.ranged') return t.stats.attack[k === 'attack.close' ? 'close' : 'ranged'];
  return t.stats[k];
}

function assess(ctx: ArCtx, c: C, cmd: In<'assess'>): void {
  const t = combatant(ctx.state, cmd.targetId);
  const r = opposedSkill(ctx, c, cmd.skill, t, 'deception', `assessment (${cmd.benefit}) of ${t.name}`, {
    passive: true,
    hunch: cmd.hunch,
    raises: cmd.raises,
  });
  if (!r.success) {
    // "If you fail the roll, you don’t find out anything. With more than one degree of failure, the GM may lie"
    emit(ctx, 'assessment-failed', { combatantId: c.id, targetId: t.id, gmMayLie: r.degrees > 1 });
  } else if (cmd.benefit === 'analyze') {
    const value = Math.min(ctx.options.maxAdvantage, (c.data.analyze[t.id] ?? 0) + r.degrees);
    patchData(ctx, 'analyzed', c.id, { analyze: { ...plain(c.data.analyze), [t.id]: value } }, { targetId: t.id, advantage: value });
  } else {
    const exact: Record<string, number> = {};
    for (const k of APPRAISED.slice(0, r.degrees - 1)) exact[k] = appraised(t, k);
    emit(ctx, 'appraisal', {
      combatantId: c.id,
      targetId: t.id,
      attack: cmp(bestAttack(t), bestAttack(c)),
      defense: cmp(t.stats.defense, c.stats.defense),
      exact,
    });
  }
  finish(ctx, c.id, []);
}

function retrieve(ctx: ArCtx, c: C, cmd: In<'retrieve'>): void {
  const own = c.items.find((i) => i.id === cmd.itemId);
  if (!own) {
    pickUp(ctx, c, cmd.itemId, 'action-round.retrieve');
  } else if (cmd.to === 'hand') {
    ensure(checkRetrieveToHand(c, own));
    const hand = freeHand(c, isTwoHanded(own)) ?? 'right-hand';
    const items = plain(c.items).map((i) => (i.id === own.id ? { ...i, location: hand } : i));
    emit(ctx, 'retrieved', { combatantId: c.id, itemId: own.id, location: hand }, { items: { [c.id]: items } });
  } else {
    const items = plain(c.items).map((i) =>
      i.id === own.id ? { ...i, location: 'carried' as const, props: { ...(i.props ?? {}), stored: true } } : i,
    );
    emit(ctx, 'stored', { combatantId: c.id, itemId: own.id }, { items: { [c.id]: items } });
  }
  finish(ctx, c.id, []);
}

function gambit(ctx: ArCtx, c: C, cmd: In<'gambit'>): void {
  const s = ctx.state;
  const pc = posOf(c);
  // "a skill check vs a Mod DC (DC 10 + Power Level), or a Passive Reaction or Guile if threatened"
  const threats = pc ? enemiesOf(s, c).filter((e) => threatens(s, ctx.options, e, pc)) : [];
  const dc = threats.length
    ? Math.max(...threats.map((e) => 10 + Math.max(skillOf(e, 'reaction'), skillOf(e, 'guile'))))
    : dcModerate(ctx.options);
  const dis = cmd.movement === 'reduced' ? 1 : cmd.movement === 'normal' ? 2 : 0;
  const r = skillCheck(ctx, c, cmd.skill, dc, `gambit (${cmd.skill})`, { hunch: cmd.hunch, raises: cmd.raises, advantage: -dis });
  const n = ladder(signedDegrees(r));
  const who = cmd.beneficiaryId ?? c.id;
  if (n !== 0) {
    addEffect(ctx, {
      name: `gambit ${n > 0 ? '+' : ''}${n}`,
      targetId: who,
      sourceId: c.id,
      data: { kind: 'advantage', n },
      expires: nextTurn(s, who, 'end'),
      beneficial: n > 0,
    });
  }
  emit(ctx, 'gambit', { combatantId: c.id, beneficiaryId: who, advantage: n, dc });
  if (cmd.path && cmd.path.length) startPath(ctx, c, 'gambit', cmd.path, [], { kind: 'finish', kinds: ['moves'] });
  else finish(ctx, c.id, []);
}

function influence(ctx: ArCtx, c: C, cmd: In<'influence'>): void {
  const t = combatant(ctx.state, cmd.targetId);
  const r = opposedSkill(ctx, c, cmd.skill, t, 'insight', `influence ${t.name}`, { hunch: cmd.hunch, raises: cmd.raises });
  const subject = cmd.subject ?? c.id;
  if (cmd.goal === 'shift') {
    // "Success means you can shift the conversation, with three degrees ... ignore the subjects negative attitude ... with five degrees ... gain the benefit of the subjects positive attitude"
    emit(ctx, 'conversation-shifted', {
      combatantId: c.id,
      targetId: t.id,
      subject,
      shifted: r.success,
      ignoreNegative: r.success && r.degrees >= 3,
      usePositive: r.success && r.degrees >= 5,
    });
  } else {
    // "Success improves or worsens ... by one step, while three degrees ... two steps, and five degrees ... three steps. ... failure by two degrees ... one step, and by two steps at four degrees of failure, whichever is least beneficial to you."
    const dir = cmd.goal === 'improve' ? 1 : -1;
    const steps = r.success ? (r.degrees >= 5 ? 3 : r.degrees >= 3 ? 2 : 1) * dir : r.degrees >= 4 ? -2 * dir : r.degrees >= 2 ? -dir : 0;
    const before = ctx.state.rs.attitudes[t.id]?.[subject] ?? 0;
    const after = Math.max(-2, Math.min(2, before + steps));
    const attitudes = plain(ctx.state.rs.attitudes);
    attitudes[t.id] = { ...(attitudes[t.id] ?? {}), [subject]: after };
    emit(
      ctx,
      'attitude-changed',
      { combatantId: c.id, targetId: t.id, subject, before, after, hostileMayAttack: before <= -2 && after <= before && steps < 0 },
      { rs: { attitudes } },
    );
  }
  finish(ctx, c.id, []);
}

function useSkill(ctx: ArCtx, c: C, cmd: In<'useSkill'>): void {
  const o = ctx.options;
  const purpose = `${cmd.skill}: ${cmd.description}`;
  if (cmd.targetId) {
    const t = combatant(ctx.state, cmd.targetId);
    opposedSkill(ctx, c, cmd.skill, t, cmd.opposedSkill ?? cmd.skill, purpose, { hunch: cmd.hunch, raises: cmd.raises });
  } else {
    const dc = typeof cmd.dc === 'number' ? cmd.dc : cmd.dc === 'easy' ? dcEasy() : cmd.dc === 'hard' ? dcHard(o) : dcModerate(o);
    skillCheck(ctx, c, cmd.skill, dc, purpose, { hunch: cmd.hunch, raises: cmd.raises });
  }
  finish(ctx, c.id, []);
}
