import { expireEffects, hasCondition, makeEffect, type EngineError, type EngineEvent, type Ruleset, type Effect } from '@fray/engine';
import type { ArCtx } from './checks.js';
import type { Options } from './options.js';
import { isIncapacitated, posOf, threatens, enemiesOf, type C } from './space.js';
import { plain, type Data, type Patch, type Slot, type State } from './state.js';

export const RULE = (name: string): string => `action-round.${name}`;

export function err(code: EngineError['code'], rule: string, message: string): EngineError {
  return { code, rule: RULE(rule), message };
}

export function raise(ctx: ArCtx, e: EngineError): never {
  return ctx.fail(e.code, e.rule, e.message);
}

const eventTypes = new Map<string, string>();
/** `action-round.<fact>`, the same string each time (a new one per event is hashed again wherever it is looked up). */
function eventType(fact: string): string {
  let t = eventTypes.get(fact);
  if (t === undefined) eventTypes.set(fact, (t = `action-round.${fact}`));
  return t;
}

export function emit(ctx: ArCtx, type: string, fields: Record<string, unknown>, patch: Patch = {}): void {
  ctx.emit({ ...fields, ...patch, type: eventType(type) } as EngineEvent);
}

export function patchData(ctx: ArCtx, type: string, id: string, patch: Partial<Data>, fields?: Record<string, unknown>): void {
  // what emit(ctx, type, { combatantId: id, ...fields }, { data: { [id]: patch } }) builds (the same
  // keys in the same order), in one object literal instead of three spreads; without fields, no
  // spread (of an empty object: the same keys in the same order)
  ctx.emit((fields === undefined ? { combatantId: id, data: { [id]: patch }, type: eventType(type) } : { combatantId: id, ...fields, data: { [id]: patch }, type: eventType(type) }) as EngineEvent);
}

export function combatant(s: State, id: string): C {
  return s.combatants[id] as C;
}

export function secondsPerRound(o: Options): number {
  if (o.roundLength === 'six-seconds') return 6;
  if (o.roundLength === 'six-minutes') return 360;
  return o.encounterType === 'conflict' ? 360 : 6;
}

// ---------------------------------------------------------------- the budget

export const TYPE_RULES: Record<Slot, { rule: string; text: string }> = {
  standard: { rule: 'one-standard', text: 'You’re limited to one standard action each round.' },
  move: { rule: 'one-move', text: 'A move action (or substitute an additional move action for your standard action).' },
  quick: { rule: 'one-quick', text: 'A quick action (or substitute an additional quick action for your move action).' },
};

/**
 * Which slot pays for an action of a type: its own, else a bigger one ("substitute an additional
 * move action for your standard action ... an additional quick action for your move action").
 * Slots are nested, so taking the smallest that fits never blocks a later action that could fit.
 */
export function slotFor(d: Data, type: Slot): Slot | null {
  if (type === 'quick' && d.slots.quick > 0) return 'quick';
  if (type !== 'standard' && d.slots.move > 0) return 'move';
  if (d.slots.standard > 0) return 'standard';
  return null;
}

/** Is it this combatant's turn and can it act at all? */
export function turnGate(s: State, c: C): EngineError | null {
  if (s.clock.current !== c.id) {
    if (c.data.delaying) return err('NOT_YOUR_TURN', 'delay', `${c.name} is delaying: take the delayed turn (act-now) first.`);
    return err('NOT_YOUR_TURN', 'turns', `It is not ${c.name}'s turn: "Each character has a turn to take actions."`);
  }
  if (isIncapacitated(s, c)) return err('ILLEGAL_ACTION', 'incapacitated', `${c.name} is incapacitated and cannot take actions.`);
  return null;
}

export function budgetGate(s: State, o: Options, c: C, type: Slot | 'free'): EngineError | null {
  const t = turnGate(s, c);
  if (t) return t;
  if (type === 'free') return freeGate(s, c);
  if (slotFor(c.data, type) === null) {
    const r = TYPE_RULES[type];
    return err('BUDGET_EXHAUSTED', r.rule, `${c.name} has no ${type} action left this turn. ${r.text}`);
  }
  return null;
}

/** The free-action limit: the `freeActionLimit` option, changed at the table by the GM's `set-free-action-limit`. */
export function freeGate(s: State, c: C, n = 1): EngineError | null {
  const limit = s.rs.freeActionLimit;
  if (c.data.free + n > limit) {
    return err('BUDGET_EXHAUSTED', 'free-actions', `${c.name} has used the ${limit} free actions the GM allows ("as many free actions in a round as the GM considers reasonable").`);
  }
  return null;
}

/** Spend an action of `type` from the turn budget (an event). */
export function spend(ctx: ArCtx, c: C, action: string, type: Slot | 'free'): Slot | 'free' {
  const d = c.data;
  if (type === 'free') {
    // "You cannot delay if you have already taken an action on your turn": a free action on your own turn is one.
    const own = ctx.state.clock.current === c.id && !ctx.options.delayAfterFreeAction;
    patchData(ctx, 'spent', c.id, own ? { free: d.free + 1, acted: true } : { free: d.free + 1 }, { action, actionType: type, slot: 'free' });
    return 'free';
  }
  const slot = slotFor(d, type)!;
  const slots = { ...d.slots, [slot]: d.slots[slot] - 1 };
  const patch: Partial<Data> = { slots, acted: true };
  if (slot === 'quick') patch.quickUsedThisTurn = true;
  if (type === 'standard') {
    patch.standardTaken = true;
    // "You cannot, however, normally split up your move action before and after your standard action."
    if (d.move && d.move.remaining > 0 && !ctx.options.allowSplitMove) patch.move = { ...d.move, afterStandard: true };
  }
  patchData(ctx, 'spent', c.id, patch, { action, actionType: type, slot });
  return slot;
}

// ---------------------------------------------------------------- reactions

export function hasReacted(s: State, o: Options, c: C): boolean {
  return o.reactionScope === 'any-turn' ? c.data.reactedSeq === s.rs.turnSeq : c.data.reactedCycle === c.data.turnsTaken;
}

/** May this combatant take a reaction now? `readied` = the reaction is the readied action itself. */
export function reactionGate(s: State, o: Options, c: C, readied = false): EngineError | null {
  if (isIncapacitated(s, c)) return err('ILLEGAL_ACTION', 'incapacitated', `${c.name} is incapacitated and cannot react.`);
  if (!readied && c.data.readied) {
    return err('ILLEGAL_ACTION', 'ready-concentration', `${c.name} is waiting with a readied action: "until you take your readied action, you cannot take any other Reactions".`);
  }
  if (hasReacted(s, o, c)) {
    return err('BUDGET_EXHAUSTED', 'one-reaction', `${c.name} has already reacted this turn: "as many reactions as are called for, with a limit of one per Turn".`);
  }
  return null;
}

export function useReaction(ctx: ArCtx, c: C, reaction: string, extra: Partial<Data> = {}): void {
  const e = reactionGate(ctx.state, ctx.options, c, reaction === 'readied');
  if (e) raise(ctx, e);
  patchData(ctx, 'reacted', c.id, { reactedSeq: ctx.state.rs.turnSeq, reactedCycle: c.data.turnsTaken, ...extra }, { reaction });
}

/** Enemies that threaten the combatant's square and could make an opportunity attack now. */
export function threatenersOf(s: State, o: Options, c: C, except: string[] = []): C[] {
  const p = posOf(c);
  if (!p) return [];
  return enemiesOf(s, c)
    .filter((e) => !except.includes(e.id) && threatens(s, o, e, p) !== null && reactionGate(s, o, e) === null)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

// ---------------------------------------------------------------- effects

export interface Marker {
  of: string;
  at: 'start' | 'end';
  turn: number;
}

const noRuleset = {} as Ruleset;

export function addEffect(
  ctx: ArCtx,
  init: { name: string; condition?: string; targetId: string; sourceId: string | null; data?: Record<string, unknown>; expires: Marker | null; beneficial?: boolean },
): string {
  const effect: Effect = makeEffect(ctx as never, noRuleset, {
    name: init.name,
    condition: init.condition,
    targetId: init.targetId,
    sourceId: init.sourceId,
    duration: null,
    data: { ...(init.data ?? {}), ...(init.beneficial !== undefined ? { beneficial: init.beneficial } : {}) },
  });
  if (init.expires) {
    effect.duration = { unit: init.expires.at === 'start' ? 'until-start-of-turn' : 'until-end-of-turn', count: 1 };
    effect.expires = { ...init.expires };
  }
  ctx.emit({ type: 'effect.applied', effect, gmOnly: effect.gmOnly || undefined });
  return effect.id;
}

/** "until the end of your next turn" / "until the start of your next turn" of a combatant. */
export function nextTurn(s: State, id: string, at: 'start' | 'end'): Marker {
  const c = combatant(s, id);
  return { of: id, at, turn: c.data.turnsTaken + 1 };
}
/** "until the end of your turn": this turn if it is yours now, else your next. */
export function thisOrNextTurnEnd(s: State, id: string): Marker {
  const c = combatant(s, id);
  return { of: id, at: 'end', turn: s.clock.current === id ? c.data.turnsTaken : c.data.turnsTaken + 1 };
}

export function effectsOn(s: State, id: string, kind: string): Effect[] {
  return s.effects.filter((e) => e.targetId === id && (e.data as { kind?: string } | undefined)?.kind === kind);
}

export function expireAt(ctx: ArCtx, id: string, at: 'start' | 'end', filter: (e: Effect) => boolean = () => true): void {
  const c = combatant(ctx.state, id);
  expireEffects(ctx as never, (e) => {
    const m = e.expires as Marker | null;
    return !!m && m.of === id && m.at === at && m.turn <= c.data.turnsTaken && filter(e);
  });
}

export const cond = (s: State, id: string, name: string): boolean => hasCondition(s as never, id, name);

/** Boosted trait (Surge: BOOST "+1 rank until the end of the character’s next turn"). */
export function boost(s: State, id: string, trait: string): number {
  return effectsOn(s, id, 'boost').filter((e) => (e.data as { trait: string }).trait === trait).length;
}
/** A Surge BURST on `id` that negates `what` ("Negate Disadvantages or opponents Advantages until the end of the character's next turn"). */
export const hasBurst = (s: State, id: string, what: 'disadvantages' | 'advantages' = 'disadvantages'): boolean =>
  effectsOn(s, id, 'burst').some((e) => ((e.data as { negate?: string }).negate ?? 'disadvantages') === what);
/** What of a modifier `v` on a check of `selfId` against `opponentId` a BURST leaves: its own Disadvantages, or the opponent's Advantages, are negated. */
export const afterBurst = (s: State, selfId: string, opponentId: string, v: number): number =>
  (v < 0 && hasBurst(s, selfId, 'disadvantages')) || (v > 0 && hasBurst(s, opponentId, 'advantages')) ? 0 : v;

// ---------------------------------------------------------------- damage

/** Apply damage levels; at the damage limit the character is incapacitated. */
export function takeDamage(ctx: ArCtx, id: string, levels: number, track: 'damage' | 'socialDamage', source: string): void {
  if (levels <= 0) return;
  const c = combatant(ctx.state, id);
  const value = c.data[track] + levels;
  patchData(ctx, 'damaged', id, { [track]: value } as Partial<Data>, { levels, track, source });
  if (value >= ctx.options.damageLimit && !cond(ctx.state, id, 'incapacitated')) {
    addEffect(ctx, { name: 'Incapacitated', condition: 'incapacitated', targetId: id, sourceId: null, expires: null });
  }
}

export function setFatigue(ctx: ArCtx, id: string, fatigue: number, reason: string): void {
  const f = Math.max(0, Math.min(3, fatigue));
  patchData(ctx, 'fatigue', id, { fatigue: f }, { fatigue: f, level: ['fresh', 'fatigued', 'exhausted', 'incapacitated'][f], reason });
}

export function dataOf(c: C): Data {
  return plain(c.data);
}

export function isCurrent(s: State, id: string): boolean {
  return s.clock.current === id;
}

export { isIncapacitated };
