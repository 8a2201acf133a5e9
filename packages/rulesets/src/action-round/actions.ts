import { chebyshev, commandSchema, idSchema, type CommandSpec, type Item, type ReactionWindow } from '@fray/engine';
import { z } from 'zod';
import { check, degreesOf, dcEasy, dcHard, dcModerate, ladder, opposed, signedDegrees, type ArCtx } from './checks.js';
import type { Options } from './options.js';
import {
  addEffect,
  boost,
  budgetGate,
  combatant,
  cond,
  effectsOn,
  emit,
  err,
  freeGate,
  nextTurn,
  patchData,
  raise,
  reactionGate,
  setFatigue,
  spend,
  threatenersOf,
  turnGate,
  useReaction,
} from './rules.js';
import {
  applyStunt,
  attackProvokers,
  finish,
  freeHand,
  heldItems,
  openOa,
  opportunityAttack,
  payQuick,
  quickGate,
  rangeGate,
  resolveAttack,
  stuntSaves,
  damageRank,
  dealDamage,
  walkPath,
  type AttackKind,
  type Benefit,
  type Cmd,
  type Resume,
  type Then,
  type TriggerKind,
} from './resolve.js';
import { isIncapacitated, nearestEnemy, occupant, posOf, squaresForRank, threatens, lineToward, type C } from './space.js';
import { plain, type ActionType, type Data, type RS, type Slot, type Square, type State } from './state.js';
import { actNow, delay, resistanceCheck } from './turns.js';
import { combinablePowers, combineGate, powerOf, powerTargetGate, resolvePower } from './powers.js';

interface Spec extends Omit<CommandSpec<RS, Options>, 'handle'> {
  handle(ctx: ArCtx, cmd: Cmd): void;
}

const sq = z.object({ x: z.number().int().min(-10000).max(10000), y: z.number().int().min(-10000).max(10000) });
const path = z.array(sq).min(1).max(64);
const kindE = z.enum(['close', 'ranged', 'court', 'rumor']);
const benefitE = z.enum(['afflict', 'disarm', 'grab', 'pull', 'push', 'break']);
const skillName = z.string().min(1).max(40);
const raisesF = z.number().int().min(0).max(2).default(0);
const quickSub = z.object({ action: z.enum(['draw', 'sheathe', 'manipulate']), itemId: idSchema }).optional();
const slotE = z.enum(['standard', 'move', 'quick', 'free']);

function cmdSchema(type: string, shape: z.ZodRawShape) {
  return commandSchema(type, { combatantId: idSchema, ...shape });
}

const me = (ctx: ArCtx, cmd: Cmd): C => combatant(ctx.state, cmd.combatantId);
function target(ctx: ArCtx, id: unknown, self?: C): C {
  const t = typeof id === 'string' ? combatant(ctx.state, id) : undefined;
  if (!t) return raise(ctx, err('UNKNOWN_TARGET', 'targets', `No combatant "${String(id)}".`));
  if (self && t.id === self.id) return raise(ctx, err('ILLEGAL_ACTION', 'targets', 'You cannot target yourself with that.'));
  return t;
}
function gate(ctx: ArCtx, c: C, type: Slot | 'free'): void {
  const e = budgetGate(ctx.state, ctx.options, c, type);
  if (e) raise(ctx, e);
}

/** Reactions declared on one's own check (Raise, Smash, Slam, Hunch): each is the turn's one reaction. */
function declareReactions(ctx: ArCtx, c: C, flags: { raises?: number; smash?: boolean; slam?: boolean; hunch?: boolean }): string[] {
  const used = [flags.raises ? 'raise' : null, flags.smash ? 'smash' : null, flags.slam ? 'slam' : null, flags.hunch ? 'hunch' : null].filter((x): x is string => x !== null);
  if (used.length > 1) {
    raise(ctx, err('BUDGET_EXHAUSTED', 'one-reaction', `${used.join(' and ')} are ${used.length} reactions: "as many reactions as are called for, with a limit of one per Turn".`));
  }
  if (used.length) {
    const g = reactionGate(ctx.state, ctx.options, c);
    if (g) raise(ctx, g);
  }
  return used;
}
function useDeclared(ctx: ArCtx, c: C, used: string[]): void {
  if (used.length) useReaction(ctx, c, used[0]!);
}

// ---------------------------------------------------------------- skill checks

function skillOf(c: C, skill: string): number {
  return c.stats.skills[skill.toLowerCase()] ?? 0;
}

/** A skill check: assistance received, gambit advantage, Hunch, Raise, boost. */
export function skillCheck(ctx: ArCtx, c: C, skill: string, dc: number, purpose: string, opts: { hunch?: boolean; raises?: number; advantage?: number; targetId?: string | null } = {}) {
  let adv = opts.advantage ?? 0;
  if (opts.hunch) {
    // "attempt an Intuition check vs an Easy DC (DC 10). Success grants you +1 Advantage per degree of success on the Skill check"
    const h = check(ctx, { who: c.id, bonus: skillOf(c, 'intuition'), dc: dcEasy(), purpose: `hunch before ${skill}`, kind: 'hunch', record: false });
    adv += ladder(signedDegrees(h));
  }
  if (c.data.assistDegrees !== 0) {
    adv += ladder(c.data.assistDegrees);
    patchData(ctx, 'assistance-used', c.id, { assistDegrees: 0 }, { advantage: ladder(c.data.assistDegrees) });
  }
  adv += effectsOn(ctx.state, c.id, 'advantage').reduce((n, e) => n + Number((e.data as { n: number }).n), 0);
  return check(ctx, { who: c.id, bonus: skillOf(c, skill) + boost(ctx.state, c.id, skill.toLowerCase()), advantage: adv, dc, purpose, kind: 'skill', raises: opts.raises, targetId: opts.targetId ?? null });
}

function opposedSkill(ctx: ArCtx, c: C, skill: string, t: C, tSkill: string, purpose: string, opts: { hunch?: boolean; raises?: number; passive?: boolean } = {}) {
  let adv = 0;
  if (opts.hunch) {
    const h = check(ctx, { who: c.id, bonus: skillOf(c, 'intuition'), dc: dcEasy(), purpose: `hunch before ${skill}`, kind: 'hunch', record: false });
    adv += ladder(signedDegrees(h));
  }
  if (c.data.assistDegrees !== 0) {
    adv += ladder(c.data.assistDegrees);
    patchData(ctx, 'assistance-used', c.id, { assistDegrees: 0 }, { advantage: ladder(c.data.assistDegrees) });
  }
  adv += effectsOn(ctx.state, c.id, 'advantage').reduce((n, e) => n + Number((e.data as { n: number }).n), 0);
  const bonus = skillOf(c, skill) + boost(ctx.state, c.id, skill.toLowerCase());
  if (opts.passive) {
    // "opposed by the target’s passive Deception check": 10 + the skill
    return check(ctx, { who: c.id, bonus, advantage: adv, dc: 10 + skillOf(t, tSkill), purpose, kind: 'skill', raises: opts.raises, targetId: t.id });
  }
  return opposed(ctx, { who: c.id, bonus, advantage: adv, purpose }, { who: t.id, bonus: skillOf(t, tSkill) + boost(ctx.state, t.id, tSkill), purpose: `${t.name}: ${tSkill} (opposed)` }, 'skill', { raises: opts.raises, targetId: t.id });
}

// ---------------------------------------------------------------- movement helpers

export function speedRank(s: State, c: C): number {
  let r = c.stats.speedRank + boost(s, c.id, 'speed');
  if (c.data.speedBonusRound === s.clock.round) r += 1;
  if (cond(s, c.id, 'hindered')) r -= 1;
  return r;
}

export function validatePath(ctx: ArCtx, c: C, p: Square[], max: number, rule: string): void {
  const start = posOf(c);
  if (!start) raise(ctx, err('ILLEGAL_ACTION', rule, `${c.name} is not on the grid.`));
  if (p.length > max) raise(ctx, err('ILLEGAL_ACTION', rule, `${p.length} squares is more than the ${max} this movement allows.`));
  let prev = start;
  p.forEach((step, i) => {
    if (chebyshev(prev, step) !== 1) raise(ctx, err('INVALID_COMMAND', rule, `Square ${i + 1} (${step.x},${step.y}) is not adjacent to the previous one.`));
    const occ = occupant(ctx.state, step, c.id);
    if (occ && (occ.side !== c.side || i === p.length - 1)) raise(ctx, err('ILLEGAL_ACTION', rule, `(${step.x},${step.y}) is occupied by ${occ.name}.`));
    prev = step;
  });
}

function startPath(ctx: ArCtx, c: C, action: string, p: Square[], exempt: string[] | 'all', then: Then): void {
  walkPath(ctx, { t: 'path', actorId: c.id, action, path: plain(p), index: 0, exempt, oaAt: -1, then });
}

// ---------------------------------------------------------------- the resolvers behind OA windows

type Resolver = (ctx: ArCtx, cmd: Cmd) => void;
export const RESOLVE: Record<string, Resolver> = {};

/** Spend, then let threatening enemies react before the action resolves ("the provoking action resumes" on close). */
function provokeThenResolve(ctx: ArCtx, c: C, action: string, cmd: Cmd, provokers: C[], description: string): void {
  if (!openOa(ctx, c, provokers, action, description, { t: 'resolve', action, cmd: plain(cmd) } satisfies Resume)) RESOLVE[action]!(ctx, cmd);
}

export function onReactionClosed(ctx: ArCtx, w: ReactionWindow): void {
  const r = w.resume as Resume;
  switch (r.t) {
    case 'resolve': {
      const c = combatant(ctx.state, r.cmd.combatantId);
      if (!c || isIncapacitated(ctx.state, c)) {
        emit(ctx, 'action-lost', { combatantId: r.cmd.combatantId, action: r.action, reason: 'incapacitated by the reaction' });
        return;
      }
      RESOLVE[r.action]!(ctx, r.cmd);
      return;
    }
    case 'path': {
      const c = combatant(ctx.state, r.actorId);
      if (!c || isIncapacitated(ctx.state, c)) {
        emit(ctx, 'movement-stopped', { combatantId: r.actorId, reason: 'incapacitated by an opportunity attack' });
        return;
      }
      // A character offered the opportunity during this movement is not asked again for the same movement.
      walkPath(ctx, r.exempt === 'all' ? r : { ...r, exempt: [...r.exempt, ...w.eligible.filter((id) => !r.exempt.includes(id))] });
      return;
    }
    case 'after':
      finish(ctx, r.actorId, r.kinds);
      return;
    case 'none':
      return;
  }
}

// ---------------------------------------------------------------- items

function setItems(ctx: ArCtx, c: C, items: Item[], type: string, fields: Record<string, unknown>): void {
  emit(ctx, type, { combatantId: c.id, ...fields }, { items: { [c.id]: items } });
}
function ownItem(ctx: ArCtx, c: C, itemId: string): Item {
  const it = c.items.find((i) => i.id === itemId);
  if (!it) raise(ctx, err('INVALID_COMMAND', 'items', `${c.name} has no item "${itemId}".`));
  return it;
}
const isStored = (i: Item): boolean => i.location === 'carried' && (i.props ?? {})['stored'] === true;
const twoHanded = (i: Item): boolean => (i.tags ?? []).includes('two-handed');

function drawItem(ctx: ArCtx, c: C, itemId: string, mode: 'draw' | 'sheathe', rule = 'draw'): void {
  const it = ownItem(ctx, c, itemId);
  let loc: Item['location'];
  if (mode === 'draw') {
    if (it.location !== 'carried') raise(ctx, err('ILLEGAL_ACTION', rule, `${it.name} is not carried.`));
    const hand = freeHand(c, twoHanded(it));
    if (!hand) raise(ctx, err('ILLEGAL_ACTION', rule, `${c.name} has no free hand for ${it.name}.`));
    loc = hand;
  } else {
    if (it.location === 'carried' || it.location === 'ground') raise(ctx, err('ILLEGAL_ACTION', rule, `${it.name} is not in hand.`));
    loc = 'carried';
  }
  const items = plain(c.items).map((i) => (i.id === it.id ? { ...i, location: loc } : i));
  setItems(ctx, c, items, mode === 'draw' ? 'drawn' : 'sheathed', { itemId, location: loc });
}

function groundItemNear(s: State, c: C, itemId: string): { owner: C; item: Item } | null {
  const p = posOf(c);
  for (const o of Object.values(s.combatants)) {
    const it = o.items.find((i) => i.id === itemId && i.location === 'ground');
    if (!it) continue;
    const at = (it.props ?? {})['square'] as Square | undefined;
    if (p && at && chebyshev(p, at) <= 1) return { owner: o as C, item: it };
  }
  return null;
}

function pickUp(ctx: ArCtx, c: C, itemId: string, rule: string): void {
  const found = groundItemNear(ctx.state, c, itemId);
  if (!found) raise(ctx, err('ILLEGAL_ACTION', rule, `No item "${itemId}" on the ground within reach.`));
  const hand = freeHand(c, twoHanded(found.item));
  if (!hand) raise(ctx, err('ILLEGAL_ACTION', rule, `${c.name} has no free hand.`));
  const { square: _s, ...props } = (plain(found.item.props) ?? {}) as Record<string, unknown>;
  const moved: Item = { ...plain(found.item), location: hand, props };
  const items: Record<string, Item[]> = {};
  items[found.owner.id] = plain(found.owner.items).filter((i) => i.id !== itemId);
  items[c.id] = [...(found.owner.id === c.id ? items[c.id]! : plain(c.items)), moved];
  emit(ctx, 'picked-up', { combatantId: c.id, itemId, fromId: found.owner.id }, { items });
}

// ---------------------------------------------------------------- the variable actions

export function variableRuling(s: State, o: Options, key: string, item?: Item): { type: ActionType; provokes: boolean } {
  const r = s.rs.rulings[key];
  if (r) return r;
  const props = item?.props ?? {};
  const type = (props['action'] as ActionType | undefined) ?? o.variableActionDefault;
  return { type, provokes: (props['provokes'] as boolean | undefined) ?? o.variableProvokesDefault };
}

function payVariable(ctx: ArCtx, c: C, action: string, type: ActionType): void {
  if (type === 'reaction' || type === 'none') {
    if (type === 'reaction') useReaction(ctx, c, action);
    return;
  }
  gate(ctx, c, type);
  spend(ctx, c, action, type);
}

export { powerOf, powerTargetGate } from './powers.js';

// ---------------------------------------------------------------- commands

function attackGate(ctx: ArCtx, c: C, t: C, kind: AttackKind): void {
  const why = rangeGate(ctx.state, ctx.options, c, t, kind);
  if (why) raise(ctx, err('ILLEGAL_ACTION', `attack-${kind}`, `${t.name} is not a legal target for a ${kind} attack: ${why}.`));
}

RESOLVE.attack = (ctx, cmd) => {
  resolveAttack(ctx, cmd.combatantId, cmd.targetId as string, cmd.kind as AttackKind, { raises: cmd.raises as number, smash: cmd.smash as boolean, slam: cmd.slam as boolean, action: `attack-${String(cmd.kind)}` });
  finish(ctx, cmd.combatantId, ['attacks']);
};

RESOLVE.stunt = (ctx, cmd) => {
  const b = cmd.benefit as Benefit;
  resolveAttack(ctx, cmd.combatantId, cmd.targetId as string, cmd.kind as AttackKind, {
    disadvantage: cmd.disadvantage as number,
    raises: cmd.raises as number,
    action: `stunt-${b}`,
    stunt: { benefit: b, condition: cmd.condition as string | undefined, itemId: cmd.itemId as string | undefined, catch: cmd.catch as boolean | undefined },
  });
  finish(ctx, cmd.combatantId, ['attacks']);
};

function stuntPenalty(t: C, benefit: Benefit, itemId?: string): number {
  // "If the defender is holding the object in two hands, the attack check penalty is -2" (disarm); "If the object is held, ... -2" (break).
  const it = itemId ? t.items.find((i) => i.id === itemId) : heldItems(t)[0];
  if (benefit === 'disarm' && it?.location === 'both-hands') return 2;
  if (benefit === 'break' && it && heldItems(t).some((h) => h.id === it.id)) return 2;
  return 1;
}

RESOLVE.assess = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const t = combatant(ctx.state, cmd.targetId as string);
  const r = opposedSkill(ctx, c, cmd.skill as string, t, 'deception', `assessment (${String(cmd.benefit)}) of ${t.name}`, { passive: true, hunch: cmd.hunch as boolean, raises: cmd.raises as number });
  if (!r.success) {
    // "If you fail the roll, you don’t find out anything. With more than one degree of failure, the GM may lie"
    emit(ctx, 'assessment-failed', { combatantId: c.id, targetId: t.id, gmMayLie: r.degrees > 1 });
  } else if (cmd.benefit === 'analyze') {
    const value = Math.min(ctx.options.maxAdvantage, (c.data.analyze[t.id] ?? 0) + r.degrees);
    patchData(ctx, 'analyzed', c.id, { analyze: { ...plain(c.data.analyze), [t.id]: value } }, { targetId: t.id, advantage: value });
  } else {
    const cmp = (a: number, b: number) => (a > b ? 'higher' : a < b ? 'lower' : 'equal');
    const bestAttack = (x: C) => Math.max(x.stats.attack.close, x.stats.attack.ranged, x.stats.attack.court, x.stats.attack.rumor);
    const exact: Record<string, number> = {};
    const keys = ['attack.close', 'attack.ranged', 'defense', 'toughness', 'fortitude', 'reflex', 'will'];
    for (const k of keys.slice(0, r.degrees - 1)) exact[k] = k.startsWith('attack.') ? t.stats.attack[k.slice(7) as AttackKind] : (t.stats[k as 'defense'] as number);
    emit(ctx, 'appraisal', { combatantId: c.id, targetId: t.id, attack: cmp(bestAttack(t), bestAttack(c)), defense: cmp(t.stats.defense, c.stats.defense), exact });
  }
  finish(ctx, c.id, []);
};

RESOLVE.retrieve = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const to = cmd.to as 'hand' | 'carried';
  const own = c.items.find((i) => i.id === cmd.itemId);
  if (!own) {
    pickUp(ctx, c, cmd.itemId as string, 'retrieve');
  } else if (to === 'hand') {
    const hand = own.location === 'carried' ? freeHand(c, twoHanded(own)) : null;
    if (!hand) raise(ctx, err('ILLEGAL_ACTION', 'retrieve', `${own.name} cannot be taken in hand (no free hand, or not stored).`));
    const items = plain(c.items).map((i) => (i.id === own.id ? { ...i, location: hand } : i));
    setItems(ctx, c, items, 'retrieved', { itemId: own.id, location: hand });
  } else {
    const items = plain(c.items).map((i) => (i.id === own.id ? { ...i, location: 'carried' as const, props: { ...(i.props ?? {}), stored: true } } : i));
    setItems(ctx, c, items, 'stored', { itemId: own.id });
  }
  finish(ctx, c.id, []);
};

RESOLVE.aim = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const bonus = Math.min(ctx.options.maxAdvantage, (c.data.aim?.bonus ?? 0) + 1);
  patchData(ctx, 'aimed', c.id, { aim: { targetId: cmd.targetId as string, bonus, maintainedTurn: c.data.turnsTaken } }, { targetId: cmd.targetId, bonus });
  if (!effectsOn(ctx.state, c.id, 'aim-vulnerable').length) {
    // "you are vulnerable while aiming"
    addEffect(ctx, { name: 'vulnerable (aiming)', condition: 'vulnerable', targetId: c.id, sourceId: c.id, expires: null, data: { kind: 'aim-vulnerable' } });
  }
  finish(ctx, c.id, []);
};

RESOLVE.gambit = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const s = ctx.state;
  // "a skill check vs a Mod DC (DC 10 + Power Level), or a Passive Reaction or Guile if threatened"
  const threats = Object.values(s.combatants).filter((e) => e.side !== c.side && posOf(c) && threatens(s, ctx.options, e as C, posOf(c)!));
  const dc = threats.length ? Math.max(...threats.map((e) => 10 + Math.max(skillOf(e as C, 'reaction'), skillOf(e as C, 'guile')))) : dcModerate(ctx.options);
  const movement = cmd.movement as 'none' | 'reduced' | 'normal';
  const dis = movement === 'reduced' ? 1 : movement === 'normal' ? 2 : 0;
  const r = skillCheck(ctx, c, cmd.skill as string, dc, `gambit (${String(cmd.skill)})`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number, advantage: -dis });
  const n = ladder(signedDegrees(r));
  const who = (cmd.beneficiaryId as string | undefined) ?? c.id;
  if (n !== 0) {
    addEffect(ctx, { name: `gambit ${n > 0 ? '+' : ''}${n}`, targetId: who, sourceId: c.id, data: { kind: 'advantage', n }, expires: nextTurn(s, who, 'end'), beneficial: n > 0 });
  }
  emit(ctx, 'gambit', { combatantId: c.id, beneficiaryId: who, advantage: n, dc });
  const p = cmd.path as Square[] | undefined;
  if (p && p.length) startPath(ctx, c, 'gambit', p, [], { kind: 'finish', kinds: ['moves'] });
  else finish(ctx, c.id, []);
};

RESOLVE.influence = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const t = combatant(ctx.state, cmd.targetId as string);
  const r = opposedSkill(ctx, c, cmd.skill as string, t, 'insight', `influence ${t.name}`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
  const goal = cmd.goal as 'improve' | 'worsen' | 'shift';
  const subject = (cmd.subject as string | undefined) ?? c.id;
  if (goal === 'shift') {
    // "Success means you can shift the conversation, with three degrees ... ignore the subjects negative attitude ... with five degrees ... gain the benefit of the subjects positive attitude"
    emit(ctx, 'conversation-shifted', { combatantId: c.id, targetId: t.id, subject, shifted: r.success, ignoreNegative: r.success && r.degrees >= 3, usePositive: r.success && r.degrees >= 5 });
  } else {
    // "Success improves or worsens ... by one step, while three degrees ... two steps, and five degrees ... three steps. ... failure by two degrees ... one step, and by two steps at four degrees of failure, whichever is least beneficial to you."
    const dir = goal === 'improve' ? 1 : -1;
    const steps = r.success ? (r.degrees >= 5 ? 3 : r.degrees >= 3 ? 2 : 1) * dir : r.degrees >= 4 ? -2 * dir : r.degrees >= 2 ? -dir : 0;
    const before = ctx.state.rs.attitudes[t.id]?.[subject] ?? 0;
    const after = Math.max(-2, Math.min(2, before + steps));
    const attitudes = plain(ctx.state.rs.attitudes);
    attitudes[t.id] = { ...(attitudes[t.id] ?? {}), [subject]: after };
    emit(ctx, 'attitude-changed', { combatantId: c.id, targetId: t.id, subject, before, after, hostileMayAttack: before <= -2 && after <= before && steps < 0 }, { rs: { attitudes } });
  }
  finish(ctx, c.id, []);
};

RESOLVE['use-skill'] = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const o = ctx.options;
  const dcOpt = cmd.dc as number | 'easy' | 'moderate' | 'hard' | undefined;
  if (cmd.targetId) {
    const t = combatant(ctx.state, cmd.targetId as string);
    opposedSkill(ctx, c, cmd.skill as string, t, (cmd.opposedSkill as string | undefined) ?? (cmd.skill as string), `${String(cmd.skill)}: ${String(cmd.description ?? '')}`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
  } else {
    const dc = typeof dcOpt === 'number' ? dcOpt : dcOpt === 'easy' ? dcEasy() : dcOpt === 'hard' ? dcHard(o) : dcModerate(o);
    skillCheck(ctx, c, cmd.skill as string, dc, `${String(cmd.skill)}: ${String(cmd.description ?? '')}`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
  }
  finish(ctx, c.id, []);
};

RESOLVE['use-tool'] = (ctx, cmd) => {
  const c = me(ctx, cmd);
  emit(ctx, 'tool-used', { combatantId: c.id, itemId: cmd.itemId, description: cmd.description ?? null });
  if (cmd.skill) skillCheck(ctx, c, cmd.skill as string, typeof cmd.dc === 'number' ? cmd.dc : dcModerate(ctx.options), `tool: ${String(cmd.itemId)}`);
  finish(ctx, c.id, []);
};

RESOLVE.load = (ctx, cmd) => {
  const c = me(ctx, cmd);
  const items = plain(c.items).map((i) => (i.id === cmd.itemId ? { ...i, props: { ...(i.props ?? {}), loaded: true } } : i));
  setItems(ctx, c, items, 'loaded', { itemId: cmd.itemId });
  finish(ctx, c.id, []);
};

RESOLVE['use-power'] = (ctx, cmd) => resolvePower(ctx, cmd);

RESOLVE.stand = (ctx, cmd) => {
  const c = me(ctx, cmd);
  for (const e of ctx.state.effects.filter((x) => x.targetId === c.id && x.condition === 'prone')) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'stood up' });
  emit(ctx, 'stood', { combatantId: c.id });
  finish(ctx, c.id, []);
};

const READYABLE = ['attack', 'stunt', 'move', 'draw', 'manipulate', 'use-power', 'aim'] as const;
type Readyable = (typeof READYABLE)[number];

function typeOfReadied(ctx: ArCtx, c: C, action: Readyable, params: Record<string, unknown>): Slot {
  if (action === 'attack' || action === 'stunt') return 'standard';
  if (action === 'move' || action === 'aim') return 'move';
  if (action === 'draw' || action === 'manipulate') return 'quick';
  const p = powerOf(ctx, c, String(params['powerId']));
  return p.action === 'free' ? 'quick' : p.action;
}

export const commands: Record<string, Spec> = {
  attack: {
    actor: 'combatant',
    schema: cmdSchema('attack', { kind: kindE, targetId: idSchema, raises: raisesF, smash: z.boolean().default(false), slam: z.boolean().default(false) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      const t = target(ctx, cmd.targetId, c);
      const kind = cmd.kind as AttackKind;
      attackGate(ctx, c, t, kind);
      const used = declareReactions(ctx, c, { raises: cmd.raises as number, smash: cmd.smash as boolean, slam: cmd.slam as boolean });
      if (cmd.slam && !(c.data.movedRound === ctx.state.clock.round && c.data.moved > 0)) {
        raise(ctx, err('ILLEGAL_ACTION', 'slam', '"When you move before an attack, you can slam right into your target": you have not moved this round.'));
      }
      spend(ctx, c, `attack-${kind}`, 'standard');
      useDeclared(ctx, c, used);
      provokeThenResolve(ctx, c, 'attack', cmd as Cmd, attackProvokers(ctx.state, ctx.options, c, t, kind), `${c.name} makes a ${kind} attack`);
    },
  },
  defend: {
    actor: 'combatant',
    schema: cmdSchema('defend', {}),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      spend(ctx, c, 'defend', 'standard');
      const bonus = (ctx.options.encounterType === 'conflict' ? c.stats.socialDefense : c.stats.defense) + boost(ctx.state, c.id, 'defense');
      // "you make a defense check ... When making this check, you also roll the Fortune Die."
      const r = check(ctx, { who: c.id, bonus, dc: 10 + bonus, purpose: 'defend: active defense check', kind: 'defense', fortune: true });
      patchData(ctx, 'defending', c.id, { activeDefense: r.total }, { defense: r.total, until: 'the start of your next turn' });
      finish(ctx, c.id, []);
    },
  },
  recover: {
    actor: 'combatant',
    schema: cmdSchema('recover', { choice: z.enum(['damage', 'fatigue', 'resist']).default('damage'), effectId: idSchema.optional() }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      if (cmd.choice === 'resist' && !ctx.state.effects.some((e) => e.id === cmd.effectId && e.targetId === c.id)) {
        raise(ctx, err('INVALID_COMMAND', 'recover', 'Name an ongoing effect on you to resist.'));
      }
      spend(ctx, c, 'recover', 'standard');
      doRecover(ctx, c, cmd.choice as 'damage' | 'fatigue' | 'resist', cmd.effectId as string | undefined);
      finish(ctx, c.id, []);
    },
  },
  charge: {
    actor: 'combatant',
    schema: cmdSchema('charge', { targetId: idSchema, path: path.optional() }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      const t = target(ctx, cmd.targetId, c);
      if (cond(ctx.state, c.id, 'prone')) raise(ctx, err('ILLEGAL_ACTION', 'crawl', '"While prone, you can only move by crawling."'));
      const pc = posOf(c);
      const pt = posOf(t);
      if (!pc || !pt) raise(ctx, err('ILLEGAL_ACTION', 'charge', 'Both characters must be on the grid.'));
      // "at -1 to your speed rank in a relatively straight line towards your target"
      const max = squaresForRank(speedRank(ctx.state, c) - 1);
      const p = (cmd.path as Square[] | undefined) ?? lineToward(pc, pt, c.stats.reach, max);
      if (p.length === 0) raise(ctx, err('ILLEGAL_ACTION', 'charge', '"You rush forward to attack": a charge needs at least one square of movement.'));
      validatePath(ctx, c, p, max, 'charge');
      let prev = chebyshev(pc, pt);
      for (const step of p) {
        const d = chebyshev(step, pt);
        if (d >= prev) raise(ctx, err('ILLEGAL_ACTION', 'charge', '"in a relatively straight line towards your target": every square must bring you closer.'));
        prev = d;
      }
      if (prev > c.stats.reach) raise(ctx, err('ILLEGAL_ACTION', 'charge', `The charge ends out of reach of ${t.name} (speed ${max} squares).`));
      spend(ctx, c, 'charge', 'standard');
      startPath(ctx, c, 'charge', p, [], { kind: 'charge', targetId: t.id });
    },
  },
  ready: {
    actor: 'combatant',
    schema: cmdSchema('ready', {
      action: z.enum(READYABLE),
      params: z.record(z.string(), z.unknown()).default({}),
      trigger: z.object({ event: z.enum(['acts', 'moves', 'attacks', 'enters-reach']), by: idSchema.nullable().default(null), description: z.string().max(200).default('') }),
    }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      const action = cmd.action as Readyable;
      const as = typeOfReadied(ctx, c, action, cmd.params as Record<string, unknown>);
      spend(ctx, c, 'ready', 'standard');
      const trig = cmd.trigger as { event: 'acts'; by: string | null; description: string };
      patchData(ctx, 'readied', c.id, { readied: { action, params: plain(cmd.params as Record<string, unknown>), as, trigger: plain(trig), round: ctx.state.clock.round } }, { action, as, trigger: plain(trig) });
      finish(ctx, c.id, []);
    },
  },
  readied: {
    actor: 'combatant',
    reaction: true,
    schema: cmdSchema('readied', { targetId: idSchema.optional(), path: path.optional(), itemId: idSchema.optional(), quick: quickSub }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const r = c.data.readied;
      if (!r) return raise(ctx, err('ILLEGAL_ACTION', 'ready', `${c.name} has no readied action.`));
      if (ctx.state.reaction?.kind !== 'action-round.readied') return raise(ctx, err('ILLEGAL_ACTION', 'ready', '"you may take the readied action as a Reaction to that trigger": the trigger has not happened.'));
      useReaction(ctx, c, 'readied', { readied: null });
      if (cmd.quick) quickInReaction(ctx, c, cmd.quick as { action: 'draw'; itemId: string });
      const params = { ...r.params, ...Object.fromEntries(Object.entries(cmd).filter(([k, v]) => v !== undefined && ['targetId', 'path', 'itemId'].includes(k))) };
      emit(ctx, 'readied-taken', { combatantId: c.id, action: r.action });
      runReadied(ctx, c, r.action as Readyable, params);
    },
  },
  trick: {
    actor: 'combatant',
    schema: cmdSchema('trick', { targetId: idSchema, skill: skillName, opposing: z.tuple([skillName, skillName]), condition: z.string().min(1).max(40), hunch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      const t = target(ctx, cmd.targetId, c);
      const map = ctx.options.skillAbilities;
      const [a, b] = cmd.opposing as [string, string];
      const mine = map[(cmd.skill as string).toLowerCase()];
      const sa = map[a.toLowerCase()];
      const sb = map[b.toLowerCase()];
      if (!mine || !sa || !sb) raise(ctx, err('ILLEGAL_ACTION', 'trick', 'Trick skills must be listed in the skillAbilities option.'));
      if (sa.ability === sb.ability) raise(ctx, err('ILLEGAL_ACTION', 'trick', '"the better of any two skills of your choice so long as each is of a different ability".'));
      if (sa.group !== sb.group || mine.group !== sa.group) raise(ctx, err('ILLEGAL_ACTION', 'trick', '"but all must come from the same ability group".'));
      if (!ctx.options.lesserConditions.includes(cmd.condition as string)) raise(ctx, err('ILLEGAL_ACTION', 'trick', `"a lesser condition of your choice": ${ctx.options.lesserConditions.join(', ')}.`));
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      spend(ctx, c, 'trick', 'standard');
      useDeclared(ctx, c, used);
      const best = skillOf(t, a) >= skillOf(t, b) ? a : b;
      const r = opposedSkill(ctx, c, cmd.skill as string, t, best, `trick (${String(cmd.skill)}) vs ${t.name}'s ${best}`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      if (r.success) {
        // "your target is afflicted with a lesser condition of your choice ... until the end of your next round"
        addEffect(ctx, { name: `${String(cmd.condition)} (trick)`, condition: cmd.condition as string, targetId: t.id, sourceId: c.id, data: { kind: 'trick' }, expires: nextTurn(ctx.state, c.id, 'end') });
      }
      finish(ctx, c.id, []);
    },
  },
  stunt: {
    actor: 'combatant',
    schema: cmdSchema('stunt', { targetId: idSchema, benefit: benefitE, kind: kindE.default('close'), condition: z.string().max(40).optional(), itemId: idSchema.optional(), catch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      const t = target(ctx, cmd.targetId, c);
      attackGate(ctx, c, t, cmd.kind as AttackKind);
      const used = declareReactions(ctx, c, { raises: cmd.raises as number });
      spend(ctx, c, `stunt-${String(cmd.benefit)}`, 'standard');
      useDeclared(ctx, c, used);
      const full = { ...(cmd), disadvantage: stuntPenalty(t, cmd.benefit as Benefit, cmd.itemId as string | undefined) };
      provokeThenResolve(ctx, c, 'stunt', full, threatenersOf(ctx.state, ctx.options, c), `${c.name} attempts a stunt`);
    },
  },
  'counter-stunt': {
    actor: 'combatant',
    reaction: true,
    schema: cmdSchema('counter-stunt', { benefit: benefitE, condition: z.string().max(40).optional(), itemId: idSchema.optional(), quick: quickSub }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const w = ctx.state.reaction;
      if (!w || w.kind !== 'action-round.counter-stunt') return raise(ctx, err('ILLEGAL_ACTION', 'counter-stunt', '"If you lose the opposed check, the defender may immediately make an attempt": no stunt against you has just failed.'));
      const a = combatant(ctx.state, w.trigger.combatantId!);
      useReaction(ctx, c, 'counter-stunt');
      if (cmd.quick) quickInReaction(ctx, c, cmd.quick as { action: 'draw'; itemId: string });
      // "make another opposed damage vs. an appropriate defense check"
      const [s1, s2] = stuntSaves('close');
      const save = a.stats[s1] >= a.stats[s2] ? s1 : s2;
      const r = opposed(ctx, { who: c.id, bonus: damageRank(ctx.state, c, 'close'), purpose: `counter-stunt (${String(cmd.benefit)}) vs ${a.name}'s ${save}` }, { who: a.id, bonus: a.stats[save], purpose: `${save} vs counter-stunt` }, 'stunt');
      if (r.success) applyStunt(ctx, c.id, a.id, 'close', { benefit: cmd.benefit as Benefit, condition: cmd.condition as string | undefined, itemId: cmd.itemId as string | undefined }, r.degrees);
      else emit(ctx, 'stunt-failed', { combatantId: c.id, targetId: a.id, benefit: cmd.benefit, counter: true });
    },
  },
  assist: {
    actor: 'combatant',
    schema: cmdSchema('assist', { mode: z.enum(['skill', 'aid', 'coordinate', 'combine', 'distract']), allyId: idSchema, targetId: idSchema.optional(), powerId: idSchema.optional(), skill: skillName.optional(), hunch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      const ally = target(ctx, cmd.allyId, c);
      if (ally.side !== c.side) raise(ctx, err('ILLEGAL_ACTION', 'assist', `${ally.name} is not an ally.`));
      const mode = cmd.mode as string;
      const o = ctx.options;
      const s = ctx.state;
      if (mode === 'skill') {
        const order = s.clock.order;
        // "but must delay to the same point in the initiative order to do so"
        if (order[order.indexOf(c.id) + 1] !== ally.id) {
          raise(ctx, err('ILLEGAL_ACTION', 'assist-delay', `To assist ${ally.name}'s skill check you "must delay to the same point in the initiative order": delay, then act just before ${ally.name}.`));
        }
        if (!cmd.skill) raise(ctx, err('INVALID_COMMAND', 'assist', 'Name the skill.'));
      }
      const cg = mode === 'combine' ? combineGate(c, ally, cmd.powerId as string | undefined) : null;
      if (cg) raise(ctx, cg);
      let t: C | null = null;
      if (mode === 'aid' || mode === 'coordinate' || mode === 'distract') {
        t = target(ctx, cmd.targetId, c);
        const near = rangeGate(s, o, c, t, 'close') === null || rangeGate(s, o, c, t, 'ranged') === null;
        if (!near) raise(ctx, err('ILLEGAL_ACTION', 'assist', `"If you are in position to do so": ${t.name} is out of your reach and range.`));
      }
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      spend(ctx, c, `assist-${mode}`, 'standard');
      useDeclared(ctx, c, used);
      const until = nextTurn(ctx.state, c.id, 'start');
      if (mode === 'skill') {
        // "Success grants your ally +1 Advantage per degree ... the degrees of success (and failure) are added together"
        const r = skillCheck(ctx, c, cmd.skill as string, dcEasy(), `assist ${ally.name} (${String(cmd.skill)})`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
        const sum = combatant(ctx.state, ally.id).data.assistDegrees + signedDegrees(r);
        patchData(ctx, 'assisted', ally.id, { assistDegrees: sum }, { by: c.id, degrees: signedDegrees(r), advantage: ladder(sum) });
      } else if (mode === 'combine') {
        const r = skillCheck(ctx, c, (cmd.skill as string | undefined) ?? 'lore', dcHard(o), `combine with ${ally.name}`, { raises: cmd.raises as number });
        const powerIds = combinablePowers(c, ally, cmd.powerId as string | undefined).map((p) => p.id);
        if (r.success) addEffect(ctx, { name: `combine +${r.degrees}`, targetId: ally.id, sourceId: c.id, data: { kind: 'power-bonus', n: r.degrees, powerIds }, expires: until, beneficial: true });
      } else {
        const dc = mode === 'coordinate' ? 10 + (t!.data.activeDefense !== null ? t!.data.activeDefense - 10 : t!.stats.defense) : dcModerate(o);
        const r = check(ctx, { who: c.id, bonus: c.stats.attack.close, dc, purpose: `${mode} for ${ally.name} against ${t!.name}`, kind: 'attack', raises: cmd.raises as number, targetId: t!.id });
        if (r.success) {
          const kind = mode === 'aid' ? 'aid' : mode === 'distract' ? 'distract' : 'effect-bonus';
          // "until the start of your next turn"
          addEffect(ctx, { name: `${mode} +${r.degrees}`, targetId: ally.id, sourceId: c.id, data: { kind, n: r.degrees, against: t!.id }, expires: until, beneficial: true });
        }
      }
      finish(ctx, c.id, []);
    },
  },
  assess: {
    actor: 'combatant',
    schema: cmdSchema('assess', { targetId: idSchema, skill: z.string().regex(/^(insight|investigation|lore(:[a-z-]+)?)$/), benefit: z.enum(['analyze', 'appraisal']), hunch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'standard');
      target(ctx, cmd.targetId, c);
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      spend(ctx, c, `assess-${String(cmd.benefit)}`, 'standard');
      useDeclared(ctx, c, used);
      provokeThenResolve(ctx, c, 'assess', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} sizes up an opponent`);
    },
  },
  conceal: {
    actor: 'combatant',
    schema: cmdSchema('conceal', { assessorId: idSchema, skill: z.enum(['deception', 'stealth']) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      const a = target(ctx, cmd.assessorId, c);
      spend(ctx, c, 'conceal', 'move');
      const oppSkill = skillOf(a, 'insight') >= skillOf(a, 'perception') ? 'insight' : 'perception';
      const r = opposedSkill(ctx, c, cmd.skill as string, a, oppSkill, `conceal from ${a.name}`);
      if (r.success) {
        // "You can subtract 1 degree advantage per degrees of success."
        const cur = combatant(ctx.state, a.id).data.analyze[c.id] ?? 0;
        patchData(ctx, 'analysis-reduced', a.id, { analyze: { ...plain(a.data.analyze), [c.id]: Math.max(0, cur - r.degrees) } }, { by: c.id });
      }
      finish(ctx, c.id, []);
    },
  },
  move: {
    actor: 'combatant',
    schema: cmdSchema('move', { mode: z.enum(['walk', 'run', 'squeeze', 'crawl']), path }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const s = ctx.state;
      const o = ctx.options;
      const t = turnGate(s, c);
      if (t) raise(ctx, t);
      const mode = cmd.mode as string;
      const prone = cond(s, c.id, 'prone');
      if (prone && mode !== 'crawl') raise(ctx, err('ILLEGAL_ACTION', 'crawl', '"While prone, you can only move by crawling."'));
      if (!prone && mode === 'crawl') raise(ctx, err('ILLEGAL_ACTION', 'crawl', 'Crawling is how you move while prone; you are standing.'));
      const p = cmd.path as Square[];
      const open = c.data.move;
      if (open && open.remaining > 0 && open.mode === mode) {
        if (open.afterStandard) {
          raise(ctx, err('ILLEGAL_ACTION', 'no-split-move', '"You cannot, however, normally split up your move action before and after your standard action."'));
        }
        validatePath(ctx, c, p, open.remaining, 'move');
        patchData(ctx, 'move-continued', c.id, { move: { ...open, remaining: open.remaining - p.length } }, { mode });
        startPath(ctx, c, `move-${mode}`, p, [], { kind: 'finish', kinds: ['moves'] });
        return;
      }
      const b = budgetGate(s, o, c, 'move');
      if (b) {
        if (open && open.afterStandard && open.remaining > 0) {
          raise(ctx, err('ILLEGAL_ACTION', 'no-split-move', '"You cannot, however, normally split up your move action before and after your standard action."'));
        }
        raise(ctx, b);
      }
      let rank = speedRank(s, c);
      if (mode === 'run' && c.data.speedBonusRound !== s.clock.round) {
        const f = freeGate(s, c, 2);
        if (f) raise(ctx, f);
        spend(ctx, c, 'move-run', 'move');
        runChecks(ctx, c);
        rank = speedRank(ctx.state, combatant(ctx.state, c.id));
      } else {
        spend(ctx, c, `move-${mode}`, 'move');
      }
      if (mode === 'squeeze') rank -= 1;
      if (mode === 'crawl') rank -= 3;
      const max = squaresForRank(rank);
      validatePath(ctx, c, p, max, 'move');
      patchData(ctx, 'move-started', c.id, { move: { mode, remaining: max - p.length, afterStandard: false, split: false } }, { mode, squares: max });
      startPath(ctx, c, `move-${mode}`, p, [], { kind: 'finish', kinds: ['moves'] });
    },
  },
  stand: {
    actor: 'combatant',
    schema: cmdSchema('stand', { acrobatic: z.boolean().default(false) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      if (!cond(ctx.state, c.id, 'prone')) raise(ctx, err('ILLEGAL_ACTION', 'stand', `${c.name} is not prone.`));
      if (cmd.acrobatic) {
        gate(ctx, c, 'free');
        spend(ctx, c, 'stand-acrobatic', 'free');
        // "from prone to standing as a free action (with no Opportunity Action) by making an Acrobatics check with a Hard DC"
        const r = skillCheck(ctx, c, 'acrobatics', dcHard(ctx.options), 'stand up (Acrobatics, free action)');
        if (r.success) RESOLVE.stand!(ctx, cmd);
        return;
      }
      gate(ctx, c, 'move');
      spend(ctx, c, 'stand', 'move');
      provokeThenResolve(ctx, c, 'stand', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} stands up`);
    },
  },
  advance: advanceOrWithdraw('advance'),
  withdraw: advanceOrWithdraw('withdraw'),
  escape: {
    actor: 'combatant',
    schema: cmdSchema('escape', { skill: z.enum(['might', 'acrobatics']), path: path.optional() }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      const grab = ctx.state.effects.find((e) => e.targetId === c.id && (e.data as { kind?: string } | undefined)?.kind === 'grab');
      if (!grab || !grab.sourceId) return raise(ctx, err('ILLEGAL_ACTION', 'escape', `${c.name} is not grabbed.`));
      const g = combatant(ctx.state, grab.sourceId);
      const max = squaresForRank(speedRank(ctx.state, c) - 1);
      const p = cmd.path as Square[] | undefined;
      if (p) validatePath(ctx, c, p, max, 'escape');
      spend(ctx, c, 'escape', 'move');
      // "opposed by a Might or Dexterity skill check chosen by your opponent"
      const opp = skillOf(g, 'might') >= skillOf(g, 'dexterity') ? 'might' : 'dexterity';
      const r = opposedSkill(ctx, c, cmd.skill as string, g, opp, `escape from ${g.name}'s grab`);
      if (!r.success) {
        emit(ctx, 'escape-failed', { combatantId: c.id, grabberId: g.id });
        finish(ctx, c.id, []);
        return;
      }
      for (const e of ctx.state.effects.filter((x) => (x.targetId === c.id && x.sourceId === g.id && (x.data as { kind?: string }).kind === 'grab') || (x.targetId === g.id && (x.data as { kind?: string; of?: string }).kind === 'grabbing' && (x.data as { of?: string }).of === c.id))) {
        ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'escaped' });
      }
      emit(ctx, 'escaped', { combatantId: c.id, grabberId: g.id });
      // "You do not provoke an OA from your grabber for leaving their threatened square."
      if (p) startPath(ctx, c, 'escape', p, [g.id], { kind: 'finish', kinds: ['moves'] });
      else finish(ctx, c.id, []);
    },
  },
  retrieve: {
    actor: 'combatant',
    schema: cmdSchema('retrieve', { itemId: idSchema, to: z.enum(['hand', 'carried']).default('hand') }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      const own = c.items.find((i) => i.id === cmd.itemId);
      if (!own && !groundItemNear(ctx.state, c, cmd.itemId as string)) raise(ctx, err('INVALID_COMMAND', 'retrieve', `No item "${String(cmd.itemId)}" within reach.`));
      spend(ctx, c, 'retrieve', 'move');
      provokeThenResolve(ctx, c, 'retrieve', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} retrieves an object`);
    },
  },
  aim: {
    actor: 'combatant',
    schema: cmdSchema('aim', { targetId: idSchema }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      const t = target(ctx, cmd.targetId, c);
      if (c.data.aim && c.data.aim.targetId !== t.id) {
        raise(ctx, err('ILLEGAL_ACTION', 'aim-target', `"Once you aim, your next attack must be to attack the creature you were aiming at": ${c.name} is aiming at ${combatant(ctx.state, c.data.aim.targetId)?.name ?? 'someone else'}. Attack that target, or let the aim lapse.`));
      }
      spend(ctx, c, 'aim', 'move');
      provokeThenResolve(ctx, c, 'aim', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} takes aim`);
    },
  },
  'maintain-aim': {
    actor: 'combatant',
    schema: cmdSchema('maintain-aim', {}),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'free');
      if (!c.data.aim) raise(ctx, err('ILLEGAL_ACTION', 'aim', `${c.name} is not aiming.`));
      if (c.data.aim.maintainedTurn === c.data.turnsTaken) raise(ctx, err('ILLEGAL_ACTION', 'aim', 'The aim is already held this turn.'));
      spend(ctx, c, 'maintain-aim', 'free');
      patchData(ctx, 'aim-maintained', c.id, { aim: { ...c.data.aim, maintainedTurn: c.data.turnsTaken } });
    },
  },
  gambit: {
    actor: 'combatant',
    schema: cmdSchema('gambit', { skill: skillName, beneficiaryId: idSchema.optional(), movement: z.enum(['none', 'reduced', 'normal']).default('none'), path: path.optional(), hunch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      if (cmd.beneficiaryId) {
        const b = target(ctx, cmd.beneficiaryId);
        if (b.side !== c.side) raise(ctx, err('ILLEGAL_ACTION', 'gambit', '"Success grants you or an ally".'));
      }
      const movement = cmd.movement as 'none' | 'reduced' | 'normal';
      const p = cmd.path as Square[] | undefined;
      if (p && movement === 'none') raise(ctx, err('ILLEGAL_ACTION', 'gambit', 'To move during a gambit take -1 (speed -1 rank) or -2 (normal speed) Disadvantage: set movement.'));
      // "The character can move at his speed -1 rank, by taking a -1 Disadvantage, or at his normal rank by taking a -2 Disadvantage."
      if (p) validatePath(ctx, c, p, squaresForRank(speedRank(ctx.state, c) - (movement === 'reduced' ? 1 : 0)), 'gambit');
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      spend(ctx, c, 'gambit', 'move');
      useDeclared(ctx, c, used);
      provokeThenResolve(ctx, c, 'gambit', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} attempts a gambit`);
    },
  },
  command: {
    actor: 'combatant',
    schema: cmdSchema('command', { minionIds: z.array(idSchema).min(1).max(50), order: z.string().min(1).max(200) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      for (const id of cmd.minionIds as string[]) {
        const m = target(ctx, id, c);
        if (m.stats.commander !== c.id) raise(ctx, err('ILLEGAL_ACTION', 'command', `"a character or creature under your control": ${m.name} is not under ${c.name}'s control.`));
      }
      spend(ctx, c, 'command', 'move');
      emit(ctx, 'commanded', { combatantId: c.id, minionIds: plain(cmd.minionIds), order: cmd.order });
      finish(ctx, c.id, []);
    },
  },
  influence: {
    actor: 'combatant',
    schema: cmdSchema('influence', { targetId: idSchema, skill: z.enum(['persuasion', 'intimidation', 'deception', 'wits']), goal: z.enum(['improve', 'worsen', 'shift']), subject: z.string().max(64).optional(), hunch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      const t = target(ctx, cmd.targetId, c);
      const pc = posOf(c);
      const pt = posOf(t);
      if (!pc || !pt || chebyshev(pc, pt) > ctx.options.conversationRange) raise(ctx, err('ILLEGAL_ACTION', 'influence', `${t.name} is out of conversation range.`));
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      spend(ctx, c, 'influence', 'move');
      useDeclared(ctx, c, used);
      provokeThenResolve(ctx, c, 'influence', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} tries to influence ${t.name}`);
    },
  },
  draw: {
    actor: 'combatant',
    schema: cmdSchema('draw', { mode: z.enum(['draw', 'sheathe']).default('draw'), itemId: idSchema }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const it = ownItem(ctx, c, cmd.itemId as string);
      if (cmd.mode === 'draw' && isStored(it)) {
        // "If your weapon or object is stored in a pack or otherwise out of easy reach, treat this action as the retrieve or store objects action."
        return commands.retrieve!.handle(ctx, { ...cmd, type: 'retrieve', to: 'hand' } as never);
      }
      gate(ctx, c, 'quick');
      spend(ctx, c, cmd.mode as string, 'quick');
      drawItem(ctx, c, it.id, cmd.mode as 'draw' | 'sheathe');
      finish(ctx, c.id, []);
    },
  },
  manipulate: {
    actor: 'combatant',
    schema: cmdSchema('manipulate', { itemId: idSchema.optional(), description: z.string().max(200).optional() }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'quick');
      spend(ctx, c, 'manipulate', 'quick');
      if (cmd.itemId) pickUp(ctx, c, cmd.itemId as string, 'manipulate');
      else emit(ctx, 'manipulated', { combatantId: c.id, description: cmd.description ?? '' });
      finish(ctx, c.id, []);
    },
  },
  study: {
    actor: 'combatant',
    schema: cmdSchema('study', { skill: skillName, targetId: idSchema.optional(), opposedSkill: skillName.default('deception'), dc: z.number().int().min(0).max(100).optional(), subject: z.string().max(200).optional(), hunch: z.boolean().default(false), raises: raisesF }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'quick');
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      spend(ctx, c, 'study', 'quick');
      useDeclared(ctx, c, used);
      const r = cmd.targetId
        ? opposedSkill(ctx, c, cmd.skill as string, target(ctx, cmd.targetId, c), cmd.opposedSkill as string, `study ${String(cmd.targetId)}`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number })
        : skillCheck(ctx, c, cmd.skill as string, (cmd.dc as number | undefined) ?? dcModerate(ctx.options), `study ${String(cmd.subject ?? '')}`, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      emit(ctx, 'studied', { combatantId: c.id, targetId: cmd.targetId ?? null, learned: r.success, degrees: r.success ? r.degrees : 0 });
      finish(ctx, c.id, []);
    },
  },
  stance: {
    actor: 'combatant',
    schema: cmdSchema('stance', {
      penalty: z.object({ on: z.enum(['attack', 'defense', 'effect']), n: z.number().int().min(1).max(5) }),
      bonus: z.object({ on: z.enum(['attack', 'defense', 'effect']), n: z.number().int().min(1).max(5) }),
    }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'quick');
      const pen = cmd.penalty as { on: 'attack'; n: number };
      const bon = cmd.bonus as { on: 'attack'; n: number };
      if (c.data.attackedThisTurn) raise(ctx, err('ILLEGAL_ACTION', 'stance', '"Before you make an Attack on your turn": you have already attacked.'));
      if (pen.n !== bon.n) raise(ctx, err('ILLEGAL_ACTION', 'stance', '"add the same number (+1 to +5) as Advantage".'));
      if (pen.on === bon.on) raise(ctx, err('ILLEGAL_ACTION', 'stance', 'The penalty and the bonus must be on different things.'));
      spend(ctx, c, 'stance', 'quick');
      patchData(ctx, 'stance', c.id, { stance: { penalty: { ...pen }, bonus: { ...bon } } }, { until: 'the start of your next turn' });
    },
  },
  'switch-alternate': {
    actor: 'combatant',
    schema: cmdSchema('switch-alternate', { powerId: idSchema, alternate: z.string().min(1).max(64) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'quick');
      const p = powerOf(ctx, c, cmd.powerId as string);
      if (!p.alternates.includes(cmd.alternate as string) && cmd.alternate !== p.name) raise(ctx, err('ILLEGAL_ACTION', 'switch-alternate', `${p.name} has no alternate effect "${String(cmd.alternate)}".`));
      spend(ctx, c, 'switch-alternate', 'quick');
      patchData(ctx, 'alternate-switched', c.id, { alternates: { ...plain(c.data.alternates), [p.id]: cmd.alternate as string } }, { powerId: p.id, alternate: cmd.alternate });
    },
  },
  talk: {
    actor: 'combatant',
    schema: cmdSchema('talk', { text: z.string().min(1).max(280) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      // "speaking is a free action that you can perform even when it isn’t your turn"
      if (isIncapacitated(ctx.state, c)) raise(ctx, err('ILLEGAL_ACTION', 'incapacitated', `${c.name} cannot speak.`));
      const f = freeGate(ctx.state, c);
      if (f) raise(ctx, f);
      spend(ctx, c, 'talk', 'free');
      emit(ctx, 'said', { combatantId: c.id, text: cmd.text });
    },
  },
  drop: {
    actor: 'combatant',
    schema: cmdSchema('drop', { what: z.enum(['prone', 'item']), itemId: idSchema.optional() }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'free');
      if (cmd.what === 'prone') {
        if (cond(ctx.state, c.id, 'prone')) raise(ctx, err('ILLEGAL_ACTION', 'drop', 'Already prone.'));
        spend(ctx, c, 'drop-prone', 'free');
        addEffect(ctx, { name: 'prone', condition: 'prone', targetId: c.id, sourceId: c.id, expires: null });
        return;
      }
      const it = ownItem(ctx, c, String(cmd.itemId));
      if (!heldItems(c).some((h) => h.id === it.id)) raise(ctx, err('ILLEGAL_ACTION', 'drop', '"dropping a held item": it is not in hand.'));
      spend(ctx, c, 'drop-item', 'free');
      const items = plain(c.items).map((i) => (i.id === it.id ? { ...i, location: 'ground' as const, props: { ...(i.props ?? {}), square: plain(posOf(c)) } } : i));
      setItems(ctx, c, items, 'dropped', { itemId: it.id });
    },
  },
  ammo: {
    actor: 'combatant',
    schema: cmdSchema('ammo', { mode: z.enum(['draw', 'store']) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'free');
      spend(ctx, c, `ammo-${String(cmd.mode)}`, 'free');
      patchData(ctx, 'ammo', c.id, { ammo: cmd.mode === 'draw' }, { mode: cmd.mode });
    },
  },
  spend: {
    actor: 'combatant',
    schema: cmdSchema('spend', {
      pool: z.enum(['destiny', 'fate', 'corruption']).default('destiny'),
      use: z.enum(['coup', 'edit-scene', 'improve-roll', 'inspiration', 'recover', 'stunt']),
      choice: z.enum(['damage', 'fatigue']).default('fatigue'),
      benefit: benefitE.optional(),
      condition: z.string().max(40).optional(),
      note: z.string().max(200).optional(),
    }),
    handle(ctx, cmd) {
      spendDestiny(ctx, me(ctx, cmd), cmd);
    },
  },
  'opportunity-attack': {
    actor: 'combatant',
    reaction: true,
    schema: cmdSchema('opportunity-attack', { quick: quickSub }),
    handle(ctx, cmd) {
      const w = ctx.state.reaction;
      if (!w || w.kind !== 'action-round.opportunity-attack') return raise(ctx, err('ILLEGAL_ACTION', 'opportunity-attack', 'Nothing provoked an opportunity attack.'));
      const c = me(ctx, cmd);
      if (cmd.quick) quickInReaction(ctx, c, cmd.quick as { action: 'draw'; itemId: string });
      opportunityAttack(ctx, c.id, w);
    },
  },
  surge: {
    actor: 'combatant',
    reaction: true,
    schema: cmdSchema('surge', {
      benefit: z.enum(['additional-action', 'alternate-effect', 'boost', 'burst', 'edge', 'counter', 'resistance', 'retry']),
      trait: z.string().max(40).optional(),
      powerId: idSchema.optional(),
      alternate: z.string().max(64).optional(),
      effectId: idSchema.optional(),
      negate: z.enum(['disadvantages', 'advantages']).default('disadvantages'),
      note: z.string().max(200).optional(),
    }),
    handle(ctx, cmd) {
      surge(ctx, me(ctx, cmd), cmd);
    },
  },
  delay: {
    actor: 'combatant',
    schema: cmdSchema('delay', {}),
    handle(ctx, cmd) {
      delay(ctx, cmd.combatantId as string);
    },
  },
  'act-now': {
    actor: 'combatant',
    schema: cmdSchema('act-now', {}),
    handle(ctx, cmd) {
      actNow(ctx, cmd.combatantId as string);
    },
  },
  'use-power': {
    actor: 'combatant',
    schema: cmdSchema('use-power', { powerId: idSchema, targetIds: z.array(idSchema).max(50).default([]) }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const p = powerOf(ctx, c, cmd.powerId as string);
      const t = turnGate(ctx.state, c);
      if (t) raise(ctx, t);
      const targets = (cmd.targetIds as string[]).map((id) => target(ctx, id));
      if (p.range === 'personal' && targets.length === 0) targets.push(c);
      if (!p.area && targets.length > 1) raise(ctx, err('ILLEGAL_ACTION', 'powers', `${p.name} is not an area power: one target.`));
      for (const x of targets) {
        const why = powerTargetGate(ctx.state, ctx.options, c, p, x);
        if (why) raise(ctx, err('ILLEGAL_ACTION', `power-${p.range}`, `${x.name}: ${why}.`));
      }
      if (p.area && ctx.state.rs.areaPowerUsed.includes(c.id)) {
        raise(ctx, err('ILLEGAL_ACTION', 'one-area-power', '"you can only use one Area Power per round, regardless of action type used."'));
      }
      gate(ctx, c, p.action);
      spend(ctx, c, `power-${p.range}`, p.action);
      if (p.area) emit(ctx, 'area-power-used', { combatantId: c.id, powerId: p.id }, { rs: { areaPowerUsed: [...ctx.state.rs.areaPowerUsed, c.id] } });
      const full = { ...(cmd), targetIds: targets.map((x) => x.id) };
      const provokes = p.range === 'ranged' || p.range === 'gossip';
      provokeThenResolve(ctx, c, 'use-power', full, provokes ? threatenersOf(ctx.state, ctx.options, c) : [], `${c.name} uses ${p.name}`);
    },
  },
  'use-skill': {
    actor: 'combatant',
    schema: cmdSchema('use-skill', {
      skill: skillName,
      description: z.string().max(200).default(''),
      dc: z.union([z.number().int().min(0).max(100), z.enum(['easy', 'moderate', 'hard'])]).optional(),
      targetId: idSchema.optional(),
      opposedSkill: skillName.optional(),
      hunch: z.boolean().default(false),
      raises: raisesF,
    }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const t = turnGate(ctx.state, c);
      if (t) raise(ctx, t);
      if (cmd.targetId) target(ctx, cmd.targetId, c);
      // "Use GM’s discretion for both": the GM's ruling for this skill, else the defaults.
      const ruling = variableRuling(ctx.state, ctx.options, `skill:${(cmd.skill as string).toLowerCase()}`);
      const used = declareReactions(ctx, c, { hunch: cmd.hunch as boolean, raises: cmd.raises as number });
      payVariable(ctx, c, `use-skill:${String(cmd.skill)}`, ruling.type);
      useDeclared(ctx, c, used);
      provokeThenResolve(ctx, c, 'use-skill', cmd as Cmd, ruling.provokes ? threatenersOf(ctx.state, ctx.options, c) : [], `${c.name} uses ${String(cmd.skill)}`);
    },
  },
  'use-tool': {
    actor: 'combatant',
    schema: cmdSchema('use-tool', { itemId: idSchema, description: z.string().max(200).optional(), skill: skillName.optional(), dc: z.number().int().min(0).max(100).optional() }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const t = turnGate(ctx.state, c);
      if (t) raise(ctx, t);
      const it = ownItem(ctx, c, cmd.itemId as string);
      const ruling = variableRuling(ctx.state, ctx.options, `tool:${it.id}`, it);
      payVariable(ctx, c, `use-tool:${it.id}`, ruling.type);
      provokeThenResolve(ctx, c, 'use-tool', cmd as Cmd, ruling.provokes ? threatenersOf(ctx.state, ctx.options, c) : [], `${c.name} uses ${it.name}`);
    },
  },
  load: {
    actor: 'combatant',
    schema: cmdSchema('load', { itemId: idSchema }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      const t = turnGate(ctx.state, c);
      if (t) raise(ctx, t);
      const it = ownItem(ctx, c, cmd.itemId as string);
      if (!(it.tags ?? []).includes('complex')) raise(ctx, err('ILLEGAL_ACTION', 'load', `${it.name} is not a complex weapon.`));
      const r = ctx.state.rs.rulings[`load:${it.id}`];
      const type = r?.type ?? ((it.props ?? {})['loadAction'] as ActionType | undefined) ?? ctx.options.variableActionDefault;
      payVariable(ctx, c, 'load', type);
      // "loading a complex weapon always provokes an Opportunity Attack"
      provokeThenResolve(ctx, c, 'load', cmd as Cmd, threatenersOf(ctx.state, ctx.options, c), `${c.name} loads ${it.name}`);
    },
  },
  'set-free-action-limit': {
    actor: 'gm',
    duringReaction: true,
    inSetup: true,
    schema: commandSchema('set-free-action-limit', { limit: z.number().int().min(0).max(100) }),
    handle(ctx, cmd) {
      // "as many free actions in a round as the GM considers reasonable"
      const limit = cmd.limit as number;
      // free actions already taken beyond a lowered limit simply leave none for the rest of the round
      const data = Object.fromEntries(Object.values(ctx.state.combatants).filter((c) => c.data.free > limit).map((c) => [c.id, { free: limit }]));
      emit(ctx, 'free-action-limit-set', { limit }, { rs: { freeActionLimit: limit }, data });
    },
  },
  'set-ruling': {
    actor: 'gm',
    duringReaction: true,
    inSetup: true,
    schema: commandSchema('set-ruling', { key: z.string().regex(/^(skill|tool|load):[A-Za-z0-9_.:-]{1,64}$/), actionType: z.enum(['standard', 'move', 'quick', 'free', 'reaction', 'none']), provokes: z.boolean() }),
    handle(ctx, cmd) {
      const rulings = { ...plain(ctx.state.rs.rulings), [cmd.key as string]: { type: cmd.actionType as ActionType, provokes: cmd.provokes as boolean } };
      emit(ctx, 'ruling-set', { key: cmd.key, actionType: cmd.actionType, provokes: cmd.provokes }, { rs: { rulings } });
    },
  },
};

function advanceOrWithdraw(which: 'advance' | 'withdraw'): Spec {
  return {
    actor: 'combatant',
    schema: cmdSchema(which, { path }),
    handle(ctx, cmd) {
      const c = me(ctx, cmd);
      gate(ctx, c, 'move');
      if (cond(ctx.state, c.id, 'prone')) raise(ctx, err('ILLEGAL_ACTION', 'crawl', '"While prone, you can only move by crawling."'));
      // "You can move up to your normal speed -3 ranks (typically 5 feet)."
      const max = squaresForRank(speedRank(ctx.state, c) - 3);
      const p = cmd.path as Square[];
      validatePath(ctx, c, p, max, which);
      // "As long as you are moving towards (away from) the nearest enemy you do not provoke an OA for leaving a threatened square."
      const n = nearestEnemy(ctx.state, c);
      let ok = !!n && !!posOf(n);
      if (n && posOf(n)) {
        const np = posOf(n)!;
        let prev = chebyshev(posOf(c)!, np);
        for (const step of p) {
          const d = chebyshev(step, np);
          if (which === 'advance' ? d >= prev : d <= prev) ok = false;
          prev = d;
        }
      }
      spend(ctx, c, which, 'move');
      emit(ctx, which === 'advance' ? 'advancing' : 'withdrawing', { combatantId: c.id, nearestEnemy: n?.id ?? null, exemptFromOa: ok });
      startPath(ctx, c, which, p, ok ? 'all' : [], { kind: 'finish', kinds: ['moves'] });
    },
  };
}

// ---------------------------------------------------------------- run

function runChecks(ctx: ArCtx, c: C): void {
  const o = ctx.options;
  const round = ctx.state.clock.round;
  // "make a Athletics check with a Moderate DC (DC 10 + Power Level) as a free action to run faster"
  spend(ctx, combatant(ctx.state, c.id), 'run: Athletics check', 'free');
  const a = skillCheck(ctx, combatant(ctx.state, c.id), 'athletics', dcModerate(o), 'run (Athletics)');
  if (!a.success) {
    emit(ctx, 'run-failed', { combatantId: c.id });
    return;
  }
  const streak = c.data.lastRunRound === round - 1 ? c.data.runStreak + 1 : 0;
  patchData(ctx, 'running', c.id, { speedBonusRound: round, lastRunRound: round, runStreak: streak }, { streak });
  // "You can make a Moderate DC Endurance check as a free action to resist this Fatigue. Running for successive rounds
  // increases the degrees of success needed to resist the Fatigue by one degree for each successive round."
  spend(ctx, combatant(ctx.state, c.id), 'run: Endurance check', 'free');
  const e = skillCheck(ctx, combatant(ctx.state, c.id), 'endurance', dcModerate(o), `resist running fatigue (needs ${streak + 1} degree${streak ? 's' : ''})`);
  if (!(e.success && e.degrees >= streak + 1)) setFatigue(ctx, c.id, combatant(ctx.state, c.id).data.fatigue + 1, 'running');
}

// ---------------------------------------------------------------- recover, destiny, surge

function doRecover(ctx: ArCtx, c: C, choice: 'damage' | 'fatigue' | 'resist', effectId?: string): void {
  // "you gain 1 point of Stress, but remove your highest level of damage or fatigue"
  const cur = combatant(ctx.state, c.id);
  patchData(ctx, 'stress', c.id, { stress: cur.data.stress + 1 });
  if (choice === 'resist' && effectId) {
    resistanceCheck(ctx, c.id, effectId, 'recover');
  } else if (choice === 'fatigue' || (choice === 'damage' && cur.data.damage === 0 && cur.data.socialDamage === 0)) {
    if (cur.data.fatigue > 0) setFatigue(ctx, c.id, cur.data.fatigue - 1, 'recover');
  } else {
    const track = cur.data.damage >= cur.data.socialDamage ? 'damage' : 'socialDamage';
    patchData(ctx, 'recovered', c.id, { [track]: cur.data[track] - 1 } as Partial<Data>, { track });
  }
  const after = combatant(ctx.state, c.id);
  if (after.data.damage < ctx.options.damageLimit && after.data.socialDamage < ctx.options.damageLimit) {
    for (const e of ctx.state.effects.filter((x) => x.targetId === c.id && x.condition === 'incapacitated' && x.sourceId === null)) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'recovered' });
  }
}

function spendDestiny(ctx: ArCtx, c: C, cmd: Cmd): void {
  const pool = cmd.pool as 'destiny' | 'fate' | 'corruption';
  const use = cmd.use as string;
  if (c.data[pool] <= 0) raise(ctx, err('BUDGET_EXHAUSTED', 'destiny', `${c.name} has no ${pool} to spend.`));
  // "If unconscious, or unable to take free actions for some other reason, you can still spend ... to attempt to use the Recover action": only that.
  if (use !== 'recover' && isIncapacitated(ctx.state, c)) raise(ctx, err('ILLEGAL_ACTION', 'destiny-unconscious', `${c.name} cannot take free actions: "If unconscious ... you can still spend Destiny, Fate, or Corruption to attempt to use the Recover action, but must roll a 6" (only Recover).`));
  const last = ctx.state.rs.lastCheck[c.id];
  if (use === 'coup' && !(last && last.success)) raise(ctx, err('ILLEGAL_ACTION', 'destiny', '"COUP: ... increase the Degree of success on a successful check": your last check did not succeed.'));
  if (use === 'improve-roll' && !last) raise(ctx, err('ILLEGAL_ACTION', 'destiny', 'No check of yours to improve ("You cannot spend ... on die rolls made by the GM or other players").'));
  if (use === 'stunt' && !(last && last.success && last.attack && ctx.state.combatants[last.attack.targetId])) raise(ctx, err('ILLEGAL_ACTION', 'destiny', '"STUNT: ... immediately add a Stunt to a successful Attack": your last check was not a successful attack.'));
  if (use === 'stunt' && !cmd.benefit) raise(ctx, err('INVALID_COMMAND', 'destiny', 'Choose the stunt benefit.'));
  // "Unless otherwise noted, spending Destiny, Fate, or Corruption is a free action, taking no time"
  const die = ctx.roll(`1${ctx.options.destinyDie}`, `${pool}: ${use}`, { combatantId: c.id }).total;
  const onTurn = ctx.state.clock.current === c.id && !ctx.options.delayAfterFreeAction; // a free action on your turn: no delay after it
  patchData(ctx, 'spent-destiny', c.id, { [pool]: c.data[pool] - 1, ...(onTurn ? { acted: true } : {}) } as Partial<Data>, { pool, use, die });
  const half = Math.ceil(die / 2);
  switch (use) {
    case 'coup': {
      // "determined by the number rolled on the die used (half the number, rounded up, for determining Degrees of Success"
      const l = { ...plain(last!), degrees: last!.degrees + half };
      emit(ctx, 'check-adjusted', { combatantId: c.id, rollId: l.id, degrees: l.degrees, by: 'coup' }, { lastCheck: { [c.id]: l } });
      return;
    }
    case 'improve-roll': {
      // "gain a bonus equal to the number rolled on a failed check or to boost a successful check"
      const l = plain(last!);
      const wasHit = l.success;
      l.total += die;
      ({ success: l.success, degrees: l.degrees } = degreesOf(l.total, l.dc, ctx.options.degreeStep));
      emit(ctx, 'check-adjusted', { combatantId: c.id, rollId: l.id, total: l.total, success: l.success, degrees: l.degrees, by: 'improve-roll' }, { lastCheck: { [c.id]: l } });
      if (!wasHit && l.success && l.kind === 'attack' && l.attack && ctx.state.combatants[l.attack.targetId]) {
        // A missed attack that now hits deals its damage.
        emit(ctx, 'attack-resolved', { combatantId: c.id, targetId: l.attack.targetId, kind: l.attack.kind, hit: true, action: 'improve-roll' });
        dealDamage(ctx, c.id, l.attack.targetId, l.attack.kind as AttackKind, {});
      }
      return;
    }
    case 'edit-scene':
      emit(ctx, 'scene-edited', { combatantId: c.id, die, advantage: half, note: cmd.note ?? null });
      return;
    case 'inspiration':
      emit(ctx, 'inspired', { combatantId: c.id, die, note: cmd.note ?? null });
      return;
    case 'recover': {
      // "immediately use the Recover action without taking an action, but it does still add Stress ... If unconscious ... must roll a 6"
      if (isIncapacitated(ctx.state, c) && die < 6) {
        emit(ctx, 'destiny-wasted', { combatantId: c.id, die });
        if (cond(ctx.state, c.id, 'dying') && die === 1) patchData(ctx, 'death-save-failed', c.id, { deathSaveFailures: c.data.deathSaveFailures + 1 });
        return;
      }
      if (c.data.surgePending) {
        // "If you spend Destiny before the start of the turn following the Surge to remove the fatigue (preemptive Recover), the character suffers no adverse effects."
        patchData(ctx, 'surge-fatigue-averted', c.id, { surgePending: false, surgeDeferred: false }, { stress: 1 });
        patchData(ctx, 'stress', c.id, { stress: combatant(ctx.state, c.id).data.stress + 1 });
        return;
      }
      doRecover(ctx, c, cmd.choice as 'damage' | 'fatigue');
      return;
    }
    case 'stunt': {
      const a = last!.attack!;
      applyStuntViaDestiny(ctx, c, a.targetId, a.kind as AttackKind, cmd);
      return;
    }
  }
}

function applyStuntViaDestiny(ctx: ArCtx, c: C, targetId: string, kind: AttackKind, cmd: Cmd): void {
  const t = combatant(ctx.state, targetId);
  const [s1, s2] = stuntSaves(kind);
  const save = t.stats[s1] >= t.stats[s2] ? s1 : s2;
  const r = opposed(ctx, { who: c.id, bonus: damageRank(ctx.state, c, kind), purpose: `destiny stunt (${String(cmd.benefit)})` }, { who: t.id, bonus: t.stats[save], purpose: `${save} vs stunt` }, 'stunt');
  if (r.success) applyStunt(ctx, c.id, t.id, kind, { benefit: cmd.benefit as Benefit, condition: cmd.condition as string | undefined }, r.degrees);
  else emit(ctx, 'stunt-failed', { combatantId: c.id, targetId: t.id, benefit: cmd.benefit });
}

function surge(ctx: ArCtx, c: C, cmd: Cmd): void {
  const s = ctx.state;
  const benefit = cmd.benefit as string;
  if (benefit === 'alternate-effect' && !(cmd.powerId && cmd.alternate)) raise(ctx, err('INVALID_COMMAND', 'surge', 'Name the power and the alternate effect.'));
  if (benefit === 'boost' && !cmd.trait) raise(ctx, err('INVALID_COMMAND', 'surge', 'Name the trait to boost.'));
  if (benefit === 'resistance' && !s.effects.some((e) => e.id === cmd.effectId && e.targetId === c.id)) raise(ctx, err('INVALID_COMMAND', 'surge', 'Name an ongoing effect on you.'));
  // "Using a Surge is a Reaction and can be performed at any time, but is limited to once per turn."
  useReaction(ctx, c, `surge-${benefit}`, { surgePending: true });
  const cur = combatant(ctx.state, c.id);
  switch (benefit) {
    case 'additional-action':
      // "Gain an additional standard action during your turn, which can be exchanged for a move, quick, or free action"
      if (s.clock.current === c.id) patchData(ctx, 'surge-action', c.id, { slots: { ...cur.data.slots, standard: cur.data.slots.standard + 1 } });
      else patchData(ctx, 'surge-action', c.id, { extraStandard: cur.data.extraStandard + 1 });
      break;
    case 'alternate-effect':
      patchData(ctx, 'surge-alternate', c.id, { alternates: { ...plain(cur.data.alternates), [cmd.powerId as string]: cmd.alternate as string } }, { until: 'the end of the encounter' });
      break;
    case 'boost':
      addEffect(ctx, { name: `boost ${String(cmd.trait)} +1`, targetId: c.id, sourceId: c.id, data: { kind: 'boost', trait: String(cmd.trait).toLowerCase() }, expires: nextTurn(s, c.id, 'end'), beneficial: true });
      break;
    case 'burst':
      addEffect(ctx, { name: `burst (${String(cmd.negate)})`, targetId: c.id, sourceId: c.id, data: { kind: 'burst', negate: cmd.negate }, expires: nextTurn(s, c.id, 'end'), beneficial: true });
      break;
    case 'edge':
      patchData(ctx, 'surge-edge', c.id, { edges: cur.data.edges + 1 }, { until: 'the end of the encounter' });
      break;
    case 'counter':
      emit(ctx, 'surge-counter', { combatantId: c.id, note: cmd.note ?? null });
      break;
    case 'resistance':
      resistanceCheck(ctx, c.id, cmd.effectId as string, 'surge');
      break;
    case 'retry':
      patchData(ctx, 'surge-retry', c.id, { retry: true });
      break;
  }
}

function quickInReaction(ctx: ArCtx, c: C, q: { action: 'draw' | 'sheathe' | 'manipulate'; itemId: string }): void {
  // "may even use it as part of a reaction, so long as you did not use it during your last turn"
  const why = quickGate(ctx.state, c);
  if (why) raise(ctx, err('ILLEGAL_ACTION', 'quick-in-reaction', why));
  payQuick(ctx, c);
  const cur = combatant(ctx.state, c.id);
  if (q.action === 'manipulate') pickUp(ctx, cur, q.itemId, 'quick-in-reaction');
  else drawItem(ctx, cur, q.itemId, q.action, 'quick-in-reaction');
}

function runReadied(ctx: ArCtx, c: C, action: Readyable, params: Record<string, unknown>): void {
  const s = ctx.state;
  const o = ctx.options;
  switch (action) {
    case 'attack':
    case 'stunt': {
      const t = target(ctx, params['targetId'], c);
      const kind = (params['kind'] as AttackKind | undefined) ?? 'close';
      attackGate(ctx, c, t, kind);
      if (action === 'attack') resolveAttack(ctx, c.id, t.id, kind, { reaction: true, action: 'readied attack' });
      else {
        const b = (params['benefit'] as Benefit | undefined) ?? 'push';
        resolveAttack(ctx, c.id, t.id, kind, { reaction: true, action: 'readied stunt', disadvantage: stuntPenalty(t, b), stunt: { benefit: b, condition: params['condition'] as string | undefined } });
      }
      return;
    }
    case 'move': {
      const p = params['path'] as Square[] | undefined;
      if (!p || !Array.isArray(p)) return raise(ctx, err('INVALID_COMMAND', 'ready', 'Give the path of the readied move.'));
      validatePath(ctx, c, p, squaresForRank(speedRank(s, c)), 'ready');
      walkPath(ctx, { t: 'path', actorId: c.id, action: 'readied move', path: plain(p), index: 0, exempt: 'all', oaAt: -1, then: { kind: 'none' } }, true);
      return;
    }
    case 'aim': {
      const t = target(ctx, params['targetId'], c);
      const bonus = Math.min(o.maxAdvantage, (c.data.aim?.targetId === t.id ? c.data.aim.bonus : 0) + 1);
      patchData(ctx, 'aimed', c.id, { aim: { targetId: t.id, bonus, maintainedTurn: c.data.turnsTaken } }, { targetId: t.id, bonus });
      return;
    }
    case 'draw':
      drawItem(ctx, c, String(params['itemId']), (params['mode'] as 'draw' | 'sheathe' | undefined) ?? 'draw', 'ready');
      return;
    case 'manipulate':
      if (params['itemId']) pickUp(ctx, c, String(params['itemId']), 'ready');
      else emit(ctx, 'manipulated', { combatantId: c.id, description: params['description'] ?? '' });
      return;
    case 'use-power': {
      const p = powerOf(ctx, c, String(params['powerId']));
      const ids = (params['targetIds'] as string[] | undefined) ?? (params['targetId'] ? [String(params['targetId'])] : []);
      if (p.area && s.rs.areaPowerUsed.includes(c.id)) raise(ctx, err('ILLEGAL_ACTION', 'one-area-power', '"you can only use one Area Power per round, regardless of action type used."'));
      for (const id of ids) {
        const why = powerTargetGate(s, o, c, p, target(ctx, id));
        if (why) raise(ctx, err('ILLEGAL_ACTION', `power-${p.range}`, why));
      }
      if (p.area) emit(ctx, 'area-power-used', { combatantId: c.id, powerId: p.id }, { rs: { areaPowerUsed: [...s.rs.areaPowerUsed, c.id] } });
      resolvePower(ctx, { combatantId: c.id, powerId: p.id, targetIds: ids }, true);
      return;
    }
  }
}

export { slotE, skillOf, type TriggerKind };
