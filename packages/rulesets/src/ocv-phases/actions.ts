import { hexDistance, hexNeighbors, type EngineError, type Hex, type Item, type ReactionWindow } from '@fray/engine';
import { advance, st, takeRecovery, type C } from './clock.js';
import {
  baseOcv,
  clone,
  combine,
  conditionOcv,
  conditions,
  effectiveDcv,
  err,
  halfMove,
  hexKey,
  incapable,
  isEnemy,
  lineOfSight,
  nextPhaseOrdinal,
  phaseOrdinal,
  opts,
  phaseKey,
  pos,
  threatens,
  touched,
  unawareNow,
  useOf,
  type Hold,
  type Job,
  type S,
  type Trigger,
} from './model.js';
import { ROW, TYPE_LABEL, type ActionType, type Row } from './table.js';

// ---------------------------------------------------------------------------------------------
// Checks (shared by the handlers and legalActions): an EngineError, or null when allowed.

export const stunned = (s: S, id: string): boolean => conditions(s, id).includes('stunned');

/** may take its regular action now */
export function turnError(s: S, id: string): EngineError | null {
  if (s.reaction) return err('REACTION_PENDING', 'interrupts', 'An interruption is being resolved.');
  if (s.clock.current !== id) {
    return err('NOT_YOUR_TURN', 'initiative-order', 'Characters act in order, counting down from highest result to lowest: it is not this character\'s action.');
  }
  if (incapable(s, id)) return err('ILLEGAL_ACTION', 'incapable', "You can't take actions (for example, because you're unconscious or paralysed).");
  return null;
}

export function isRestricted(s: S, id: string): boolean {
  return s.rs.phase === 'surprise' || s.combatants[id]!.data.restricted;
}

/**
 * "In a normal Phase, you can perform an attack action and a move action, two move actions, or a
 * full-phase action. You can also perform one or more free actions."
 */
export function budgetError(s: S, id: string, type: ActionType): EngineError | null {
  const d = s.combatants[id]!.data;
  if (type === 'none') return null;
  if (type === 'free') {
    const limit = opts(s).freeActionLimit;
    if (limit !== null && d.free >= limit) {
      return err('BUDGET_EXHAUSTED', 'free-actions', `Free actions don't take any time at all, though there may be limits: at most ${limit} a Phase here.`);
    }
    return null;
  }
  const restricted = isRestricted(s, id);
  if (type === 'full') {
    if (restricted) {
      return err('ILLEGAL_ACTION', 'restricted-phase', "You are restricted to a single attack action or a single move action: you can't take a full-phase action (though you can start or complete one by using a move action).");
    }
    if (d.full || d.slots > 0) {
      return err('ILLEGAL_ACTION', 'full-phase', "A full-phase action requires an entire phase to complete: it can't be coupled with an attack or a move action.");
    }
    return null;
  }
  if (d.full) return err('ILLEGAL_ACTION', 'full-phase', "A full-phase action requires an entire phase to complete: it can't be coupled with an attack or a move action.");
  const cap = restricted ? 1 : 2;
  if (d.slots >= cap) {
    return restricted
      ? err('BUDGET_EXHAUSTED', 'restricted-phase', 'In this Phase you are limited to taking only a single move action or attack action.')
      : err('BUDGET_EXHAUSTED', 'action-types', 'In a normal Phase, you can perform an attack action and a move action, two move actions, or a full-phase action.');
  }
  if (type === 'attack' && d.attacks >= 1) {
    return err('BUDGET_EXHAUSTED', 'action-types', 'In a normal Phase, you can perform an attack action and a move action, or two move actions — not two attack actions.');
  }
  return null;
}

export function stunnedError(s: S, id: string, row: string): EngineError | null {
  if (stunned(s, id) && row !== 'recover-stunned') {
    return err('ILLEGAL_ACTION', 'stunned', 'A Stunned character must Recover from being Stunned (a full-phase action) before anything else.');
  }
  return null;
}

function occupant(s: S, h: Hex, except: string): string | null {
  for (const c of Object.values(s.combatants)) {
    if (c.id === except || !c.position) continue;
    const p = c.position as Hex;
    if (p.q === h.q && p.r === h.r) return c.id;
  }
  return null;
}

function hexError(s: S, id: string, from: Hex, to: Hex, last: boolean): EngineError | null {
  if (hexDistance(from, to) !== 1) return err('INVALID_COMMAND', 'hexes', `Hex ${hexKey(to)} is not next to ${hexKey(from)}: a path goes hex by hex.`);
  if (s.rs.map.blocking.includes(hexKey(to))) return err('ILLEGAL_ACTION', 'hexes', `Hex ${hexKey(to)} is blocked.`);
  const o = occupant(s, to, id);
  if (o) {
    if (last) return err('ILLEGAL_ACTION', 'hexes', `Hex ${hexKey(to)} is occupied by ${s.combatants[o]!.name}.`);
    if (isEnemy(s, id, o) || !opts(s).passThroughAllies) return err('ILLEGAL_ACTION', 'hexes', `${s.combatants[o]!.name} stands in hex ${hexKey(to)}.`);
  }
  return null;
}

/** "You can move 1 hex in any Phase when you don't perform any other kind of movement." */
export function stepError(s: S, id: string, to?: Hex, readied = false): EngineError | null {
  const c = s.combatants[id]!;
  const d = c.data;
  if (d.stepped) return err('ILLEGAL_ACTION', 'one-step', "You can't take more than one 1-hex step in a Phase.");
  if (d.moved) return err('ILLEGAL_ACTION', 'step-no-move', readied
    ? "You can take a 1-hex step as part of your readied action, but only if you don't otherwise move any distance during the Phase."
    : "You can't take a 1-hex step in the same Phase when you move any distance.");
  if (c.stats.move <= 1) return err('ILLEGAL_ACTION', 'step-slow', "Any character with a total movement of 1 hex or less can't take a 1-hex step.");
  const p = pos(s, id);
  if (!p) return err('ILLEGAL_ACTION', 'hexes', 'This character is not on the map.');
  const m = s.rs.map;
  const hampered = (h: Hex) => m.difficult.includes(hexKey(h)) || m.dark.includes(hexKey(h));
  if (hampered(p) || (to && hampered(to)) || conditions(s, id).includes('darkness')) {
    return err('ILLEGAL_ACTION', 'step-terrain', 'You can only take a 1-hex step if your movement isn\'t hampered by difficult terrain or darkness.');
  }
  if (to) return hexError(s, id, p, to, true);
  return null;
}

export function moveAllowance(s: S, id: string, row: string): number {
  const st = s.combatants[id]!.stats;
  switch (row) {
    case 'move-half':
      return halfMove(s, id);
    case 'crawl':
      return 1;
    case 'move-noncombat':
      return st.noncombatMove ?? st.move * 2;
    case 'withdraw':
      return opts(s).withdrawDistance === 'half' ? halfMove(s, id) : st.move;
    default:
      return st.move;
  }
}

export function pathError(s: S, id: string, row: string, path: Hex[]): EngineError | null {
  const d = s.combatants[id]!.data;
  if (d.stepped) return err('ILLEGAL_ACTION', 'step-no-move', "You can't take a 1-hex step in the same Phase when you move any distance.");
  if (conditions(s, id).includes('prone') && row !== 'crawl') {
    return err('ILLEGAL_ACTION', 'prone', 'A prone character can only crawl (or stand up from prone first).');
  }
  let p = pos(s, id);
  if (!p) return err('ILLEGAL_ACTION', 'hexes', 'This character is not on the map.');
  if (path.length === 0) return null;
  let cost = 0;
  for (let i = 0; i < path.length; i++) {
    const h = path[i]!;
    const e = hexError(s, id, p, h, i === path.length - 1);
    if (e) return e;
    cost += s.rs.map.difficult.includes(hexKey(h)) ? opts(s).difficultTerrainCost : 1;
    p = h;
  }
  const allowance = moveAllowance(s, id, row);
  if (cost > allowance) return err('ILLEGAL_ACTION', 'movement', `${ROW[row]!.label}: at most ${allowance} hexes of movement (this path costs ${cost}).`);
  return null;
}

/** "You can strike any adjacent opponent with a melee attack. You can fire at any target that is within the attack's maximum range and in line of sight with a ranged attack." */
export function targetError(s: S, id: string, targetId: string, ranged: number | null, from?: Hex): EngineError | null {
  const t = s.combatants[targetId];
  if (!t) return err('UNKNOWN_TARGET', 'attack', `No target "${targetId}".`);
  if (targetId === id) return err('ILLEGAL_ACTION', 'attack', 'A character cannot attack itself.');
  const a = from ?? pos(s, id);
  const b = pos(s, targetId);
  if (!a || !b) return err('ILLEGAL_ACTION', 'hexes', 'Both characters must be on the map.');
  const dist = hexDistance(a, b);
  if (ranged === null) {
    if (dist > s.combatants[id]!.stats.reach) {
      return err('ILLEGAL_ACTION', 'melee-reach', `You can strike any adjacent opponent with a melee attack (reach ${s.combatants[id]!.stats.reach}; ${t.name} is ${dist} hexes away).`);
    }
    return null;
  }
  if (dist > ranged) return err('ILLEGAL_ACTION', 'ranged', `${t.name} is ${dist} hexes away, beyond the attack's maximum range of ${ranged}.`);
  if (!lineOfSight(s, a, b)) return err('ILLEGAL_ACTION', 'line-of-sight', `${t.name} is not in line of sight.`);
  return null;
}

/** who would make an attack of opportunity against `mover` for this opportunity */
export function aooFrom(s: S, mover: string, hex: Hex, opportunity: string | null): string[] {
  const out: string[] = [];
  for (const id of s.rs.order) {
    if (!isEnemy(s, id, mover) || !threatens(s, id, hex)) continue;
    if (aooBlock(s, id) || (opportunity && s.combatants[id]!.data.opportunities.includes(opportunity))) continue;
    out.push(id);
  }
  return out;
}

/** why this character cannot make an attack of opportunity now (regardless of the opportunity) */
export function aooBlock(s: S, id: string): EngineError | null {
  const c = s.combatants[id]!;
  if (c.data.dodging) return err('ILLEGAL_ACTION', 'aoo-dodge', 'You cannot make an attack of opportunity if you have used the dodge manoeuvre.');
  if (incapable(s, id) || stunned(s, id)) return err('ILLEGAL_ACTION', 'incapable', 'This character cannot act.');
  if (unawareNow(s, id)) return err('ILLEGAL_ACTION', 'surprise', "Characters who are unaware at the start of battle don't get to act in the Surprise Phase.");
  const limit = c.stats.combatReflexes ? opts(s).combatReflexesLimit || Infinity : 1;
  if (c.data.aoos >= limit) {
    return err('BUDGET_EXHAUSTED', 'aoo-one-per-phase', c.stats.combatReflexes
      ? `Combat Reflexes: at most ${limit} attacks of opportunity a Phase here.`
      : 'An attack of opportunity is a single melee attack, and you can only make one per Phase.');
  }
  return null;
}

/** "You can abort to any defensive attack or move action before your initiative value comes up in a Phase" */
export function abortError(s: S, id: string): EngineError | null {
  const c = s.combatants[id]!;
  if (c.data.abortLock) {
    return err('ILLEGAL_ACTION', 'abort-lockout', 'If you aborted your action from the following Phase, you cannot Abort your next action until after your Initiative in the following Phase.');
  }
  if (s.clock.current === id && s.rs.jobs.length === 0) {
    return err('ILLEGAL_ACTION', 'abort', 'Aborting is taking a defensive action when it is not your action: on your own action, take it directly.');
  }
  if (s.rs.jobs.some((j) => j.actor === id)) return err('ILLEGAL_ACTION', 'abort', 'A character cannot abort in the middle of its own action.');
  if (incapable(s, id) || stunned(s, id)) return err('ILLEGAL_ACTION', 'incapable', 'This character cannot act.');
  if (unawareNow(s, id)) return err('ILLEGAL_ACTION', 'surprise', "Characters who are unaware at the start of battle don't get to act in the Surprise Phase.");
  if (s.rs.phase === 'post-turn') return err('WRONG_PHASE', 'abort', 'Nobody acts in the Post-Turn period.');
  return null;
}

// ---------------------------------------------------------------------------------------------
// Performing actions

export function newJob(actor: string, row: string, via: Job['via'], over: Partial<Job> = {}): Job {
  return {
    actor,
    row,
    via,
    stage: 'trigger',
    targetIds: [],
    path: [],
    itemId: null,
    ranged: null,
    ocvModifier: 0,
    noProvoke: false,
    leaveChecked: false,
    fullAction: null,
    step: null,
    ...over,
  };
}

/**
 * Whether a provoking row is negated: "Yes (skill check negates)" by a skill roll (3d6 under the
 * named skill) or the GM's word; "Usually (varies)" by the GM's ruling or the default.
 */
export function negation(ctx: C, id: string, row: Row, cmd: { skill?: string; negated?: boolean; provokes?: boolean }): boolean {
  const s = st(ctx);
  const gm = ctx.command.by.role !== 'player';
  const o = opts(s);
  if (row.provokes === 'varies') {
    if (cmd.provokes !== undefined) {
      if (!gm) ctx.fail('NOT_AUTHORIZED', 'ocv-phases.usually-varies', '"Usually (varies)": whether this provokes is the GM\'s ruling.');
      return !cmd.provokes;
    }
    return o.usuallyVaries === 'does-not-provoke';
  }
  if (row.provokes !== 'skill') return false;
  if (cmd.negated !== undefined) {
    if (!gm || o.skillCheckNegates === 'never') ctx.fail('NOT_AUTHORIZED', 'ocv-phases.skill-check-negates', 'Only the GM rules a skill check as negating the attack of opportunity.');
    return cmd.negated;
  }
  if (cmd.skill === undefined) return false;
  if (o.skillCheckNegates !== 'roll') ctx.fail('ILLEGAL_ACTION', 'ocv-phases.skill-check-negates', 'Skill checks against attacks of opportunity are the GM\'s call in this encounter.');
  const target = s.combatants[id]!.stats.skills[cmd.skill];
  if (target === undefined) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.skill-check-negates', `${s.combatants[id]!.name} has no skill "${cmd.skill}".`);
  const r = ctx.roll('3d6', `${cmd.skill} skill check (${target}-) to negate an attack of opportunity`, { combatantId: id });
  const success = r.total <= target!;
  ctx.emit({ type: 'ocv-phases.skill-check', combatantId: id, skill: cmd.skill, target, rollId: r.id, total: r.total, success });
  return success;
}

/** Declare an action (spend its place in the Phase) and run it. */
export function declare(ctx: C, job: Job, type: ActionType): void {
  const s = st(ctx);
  const c = s.combatants[job.actor]!;
  // A late delayed action at the end of the Phase (or any held delay) is taken by acting.
  if (job.via === 'regular' && c.data.hold?.kind === 'delay' && s.clock.current === job.actor) {
    ctx.emit({ type: 'ocv-phases.hold-taken', combatantId: job.actor, kind: 'delay', before: null });
  }
  const row = ROW[job.row]!;
  const use = row.via === 'attack' || row.via === 'defend' || job.row === 'move-by' || job.row === 'move-through' ? useOf(s, job.row) : undefined;
  if (use && row.multi && job.targetIds.length > 1) use.ocv -= opts(s).multipleTargetPenalty * (job.targetIds.length - 1);
  ctx.emit({ type: 'ocv-phases.declared', combatantId: job.actor, row: job.row, actionType: type, via: job.via, use, targets: job.targetIds });
  runJob(ctx, job);
}

function triggered(s: S, job: Job, event: 'attacks' | 'moves' | 'acts', hex?: Hex): string[] {
  const out: string[] = [];
  for (const id of s.rs.order) {
    const c = s.combatants[id]!;
    const h = c.data.hold;
    if (!h || h.kind !== 'ready' || id === job.actor || s.clock.current === id) continue;
    if (incapable(s, id) || stunned(s, id) || unawareNow(s, id)) continue;
    const t = h.trigger;
    if (t.by !== null && t.by !== job.actor) continue;
    if (t.by === null && !isEnemy(s, id, job.actor)) continue;
    if (hex) {
      if (t.on === 'enters-reach' && threatens(s, id, hex)) out.push(id);
    } else if (t.on === 'acts' || t.on === event) out.push(id);
  }
  return out;
}

export function abortOffer(s: S, job: Job): string[] {
  if (!opts(s).offerAbort) return [];
  const row = ROW[job.row]!;
  if (!row.attackRoll) return [];
  return job.targetIds.filter((t) => s.combatants[t] && t !== job.actor && !abortError(s, t) && !s.combatants[t]!.data.dodging);
}

function deadline(s: S): { deadlineSeconds?: number } {
  const d = opts(s).reactionDeadlineSeconds;
  return d === null ? {} : { deadlineSeconds: d };
}

function pushJob(ctx: C, job: Job): void {
  ctx.emit({ type: 'ocv-phases.job-pushed', combatantId: job.actor, job });
}

function openBefore(ctx: C, job: Job, eligible: string[], description: string): void {
  pushJob(ctx, job);
  ctx.openReaction({
    kind: 'ocv-phases.before-action',
    trigger: { combatantId: job.actor, action: job.row, description },
    eligible,
    allowed: ['takeReadied', 'abort'],
    resume: { actor: job.actor, row: job.row },
    ...deadline(st(ctx)),
  });
}

function openAoo(ctx: C, job: Job, from: string[], opportunity: string, reason: string): void {
  ctx.emit({ type: 'ocv-phases.provoked', combatantId: job.actor, from, opportunity, reason });
  pushJob(ctx, job);
  const name = st(ctx).combatants[job.actor]!.name;
  ctx.openReaction({
    kind: 'ocv-phases.attack-of-opportunity',
    trigger: { combatantId: job.actor, action: job.row, description: `${name} provokes an attack of opportunity: ${reason}` },
    eligible: from,
    allowed: ['opportunityAttack'],
    resume: { actor: job.actor, row: job.row, opportunity },
    ...deadline(st(ctx)),
  });
}

export function runJob(ctx: C, job: Job): void {
  const s = st(ctx);
  const row = ROW[job.row]!;
  if (job.stage === 'trigger') {
    if (job.via === 'regular') {
      const ev = row.attackRoll ? 'attacks' : row.moves ? 'moves' : 'acts';
      const readied = triggered(s, job, ev);
      const aborters = abortOffer(s, job).filter((t) => !readied.includes(t));
      const eligible = [...readied, ...aborters];
      if (eligible.length > 0) {
        const name = s.combatants[job.actor]!.name;
        const parts = [];
        if (readied.length) parts.push(`readied actions may go first (${readied.map((x) => s.combatants[x]!.name).join(', ')})`);
        if (aborters.length) parts.push(`the target may abort to a defensive action (${aborters.map((x) => s.combatants[x]!.name).join(', ')})`);
        return openBefore(ctx, { ...job, stage: 'provoke' }, eligible, `${name}: ${row.label} — ${parts.join('; ')}`);
      }
    }
    job = { ...job, stage: 'provoke' };
  }
  if (job.stage === 'provoke') {
    job = { ...job, stage: 'resolve' };
    if (job.step) {
      // "You can take a 1-hex step as part of your readied action" (taken first)
      const e = stepError(s, job.actor, job.step, true);
      if (e) ctx.emit({ type: 'ocv-phases.acted', combatantId: job.actor, row: 'step', note: `no step: ${e.message}` });
      else ctx.emit({ type: 'ocv-phases.moved', combatantId: job.actor, from: hexCopy(pos(s, job.actor)), to: hexCopy(job.step), step: true });
      job = { ...job, step: null };
    }
    if (!row.moves && row.provokes !== 'no' && !job.noProvoke) {
      const p = pos(s, job.actor);
      if (p) {
        const opportunity = `act:${job.actor}:${ctx.newId('o')}`;
        const from = aooFrom(s, job.actor, p, opportunity);
        if (from.length > 0) return openAoo(ctx, job, from, opportunity, `${row.label} in a threatened hex`);
      }
    }
  }
  if (row.moves) return runMove(ctx, job);
  resolve(ctx, job);
}

/** a plain copy of a hex read from the draft: an event must not keep a draft, revoked after the command */
const hexCopy = <T extends Hex | null>(h: T): T => (h ? ({ q: h.q, r: h.r } as T) : h);

/**
 * "never ending in an occupied hex": a move stopped in an ally's hex (the way ahead blocked, or the
 * mover no longer capable of acting) ends instead in the last hex it held alone.
 */
function stepBack(ctx: C, job: Job): void {
  const s = st(ctx);
  const here = pos(s, job.actor);
  const back = job.back;
  if (!back || !here || !occupant(s, here, job.actor) || occupant(s, back, job.actor)) return;
  ctx.emit({ type: 'ocv-phases.moved', combatantId: job.actor, from: hexCopy(here), to: hexCopy(back), step: job.row === 'step' || undefined });
}

function runMove(ctx: C, job: Job): void {
  const row = ROW[job.row]!;
  const provoking = row.provokes !== 'no' && !job.noProvoke && job.row !== 'step';
  const opportunity = `move:${job.actor}`;
  let path = job.path;
  let leaveChecked = job.leaveChecked;
  let back = job.back;
  // `back` rides along only while the mover shares a hex with an ally
  const carry = (j: Job): Job => {
    const { back: _old, ...rest } = j;
    return back ? { ...rest, back } : rest;
  };
  while (path.length > 0) {
    const s = st(ctx);
    const here = pos(s, job.actor)!;
    const next = path[0]!;
    if (!leaveChecked && provoking) {
      const from = aooFrom(s, job.actor, here, opportunity);
      if (from.length > 0) {
        return openAoo(ctx, carry({ ...job, path, leaveChecked: true }), from, opportunity, 'moving out of a threatened hex');
      }
    }
    // the way may have changed while the action was interrupted
    const blocked = hexError(s, job.actor, here, next, path.length === 1);
    if (blocked) {
      ctx.emit({ type: 'ocv-phases.interrupted', combatantId: job.actor, row: job.row, reason: blocked.message });
      stepBack(ctx, { ...job, back });
      break;
    }
    if (!occupant(s, here, job.actor)) back = hexCopy(here);
    ctx.emit({ type: 'ocv-phases.moved', combatantId: job.actor, from: hexCopy(here), to: hexCopy(next), step: job.row === 'step' || undefined });
    path = path.slice(1);
    leaveChecked = false;
    if (!occupant(st(ctx), next, job.actor)) back = undefined;
    const readied = job.via === 'regular' ? triggered(st(ctx), job, 'moves', next) : [];
    if (readied.length > 0) {
      const name = s.combatants[job.actor]!.name;
      return openBefore(ctx, carry({ ...job, path, leaveChecked: false, stage: 'resolve' }), readied, `${name} comes into reach`);
    }
  }
  if (job.row === 'move-by' || job.row === 'move-through') {
    const s = st(ctx);
    for (const t of job.targetIds) {
      if (!s.combatants[t]) continue;
      const e = targetError(s, job.actor, t, null);
      if (e) ctx.emit({ type: 'ocv-phases.acted', combatantId: job.actor, row: job.row, note: `no attack: ${e.message}` });
      else attackRoll(ctx, job.actor, t, job.row, { ocvModifier: job.ocvModifier, ranged: false, aoo: false, interrupt: false });
    }
  }
  finish(ctx, job);
}

function finish(ctx: C, job: Job): void {
  ctx.emit({ type: 'ocv-phases.acted', combatantId: job.actor, row: job.row, via: job.via, targets: job.targetIds.length ? job.targetIds : undefined });
}

function setItem(ctx: C, id: string, itemId: string | null, to: Item['location'], from: Item['location'][]): void {
  const c = st(ctx).combatants[id]!;
  if (!itemId) return;
  const items = c.items.map((i) => ({ ...i }));
  const it = items.find((i) => i.id === itemId);
  if (!it || !from.includes(it.location)) return;
  it.location = to;
  ctx.emit({ type: 'combatant.updated', combatantId: id, changes: { items } });
}

function removeCondition(ctx: C, id: string, condition: string): void {
  for (const e of st(ctx).effects.filter((x) => x.targetId === id && x.condition === condition)) {
    ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'action' });
  }
}

function resolve(ctx: C, job: Job): void {
  const s = st(ctx);
  const id = job.actor;
  const row = ROW[job.row]!;
  const hands: Item['location'][] = ['left-hand', 'right-hand', 'both-hands'];
  switch (row.via) {
    case 'attack': {
      const braced = s.combatants[id]!.data.braced && job.ranged !== null ? opts(s).braceOcv : 0;
      for (const t of job.targetIds) {
        if (!st(ctx).combatants[t]) continue;
        const e = targetError(st(ctx), id, t, job.ranged);
        if (e) {
          ctx.emit({ type: 'ocv-phases.acted', combatantId: id, row: job.row, note: `no attack on ${t}: ${e.message}` });
          continue;
        }
        attackRoll(ctx, id, t, job.row, { ocvModifier: job.ocvModifier + braced, ranged: job.ranged !== null, aoo: false, interrupt: job.via === 'readied' });
      }
      break;
    }
    case 'act':
      switch (job.row) {
        case 'draw-focus':
        case 'retrieve-focus': {
          const it = s.combatants[id]!.items.find((i) => i.id === job.itemId);
          if (it && hands.includes(it.location)) setItem(ctx, id, job.itemId, 'carried', hands);
          else setItem(ctx, id, job.itemId, 'right-hand', ['carried']);
          break;
        }
        case 'pick-up':
          setItem(ctx, id, job.itemId, 'right-hand', ['ground']);
          break;
        case 'stand-up':
          removeCondition(ctx, id, 'prone');
          break;
        case 'recover-stunned':
          removeCondition(ctx, id, 'stunned');
          break;
        case 'recovery':
          takeRecovery(ctx, id, 'action');
          break;
        case 'start-full-phase':
          ctx.emit({ type: 'ocv-phases.full-started', combatantId: id, action: job.fullAction });
          break;
        case 'complete-full-phase': {
          const started = s.combatants[id]!.data.fullStarted;
          ctx.emit({ type: 'ocv-phases.full-started', combatantId: id, action: null });
          if (started === 'recovery') takeRecovery(ctx, id, 'action');
          if (started === 'recover-stunned') removeCondition(ctx, id, 'stunned');
          if (started === 'retrieve-focus') resolve(ctx, { ...job, row: 'retrieve-focus' });
          break;
        }
      }
      break;
    case 'free':
      if (job.row === 'drop-item') setItem(ctx, id, job.itemId, 'ground', hands);
      if (job.row === 'drop-prone' && !conditions(s, id).includes('prone')) {
        ctx.emit({
          type: 'effect.applied',
          effect: {
            id: ctx.newId('e'),
            name: 'Prone',
            condition: 'prone',
            targetId: id,
            sourceId: id,
            duration: null,
            expires: null,
            startedAt: { round: s.clock.round, phase: s.clock.phase, current: s.clock.current },
          },
        });
      }
      break;
    default:
      break;
  }
  finish(ctx, job);
}

/**
 * "The attacker rolls 3d6 and adds their OCV (including modifiers such as combat levels). The
 * target number is 10 plus the defender's DCV (including modifiers such as being Stunned or
 * underwater)." Hits when the total meets or beats the target number.
 */
export function attackRoll(
  ctx: C,
  attacker: string,
  target: string,
  rowId: string,
  o: { ocvModifier: number; ranged: boolean; aoo: boolean; interrupt: boolean },
): boolean {
  const s = st(ctx);
  const a = s.combatants[attacker]!;
  const t = s.combatants[target]!;
  const use = useOf(s, rowId);
  const uses = o.aoo ? [...a.data.manoeuvres, use] : a.data.manoeuvres.length ? a.data.manoeuvres : [use];
  const mOcv = combine(uses.map((u) => u.ocv));
  const ocv = Math.max(0, baseOcv(s, attacker) + mOcv + conditionOcv(s, attacker) + o.ocvModifier);
  const { dcv, parts } = effectiveDcv(s, target);
  const need = 10 + dcv;
  const r = ctx.roll(`3d6+${ocv}`, `${o.aoo ? 'attack of opportunity' : 'attack roll'}: ${a.name} (${ROW[rowId]!.label}, OCV ${ocv}) vs ${t.name} (DCV ${dcv}), needs ${need}`, {
    combatantId: attacker,
  });
  const hit = r.total >= need;
  ctx.emit({
    type: 'ocv-phases.attack-resolved',
    combatantId: attacker,
    targetId: target,
    row: rowId,
    rollId: r.id,
    ocv,
    dcv,
    dcvModifiers: parts,
    need,
    total: r.total,
    hit,
    aoo: o.aoo || undefined,
    use: o.aoo ? use : undefined,
  });
  if (hit && o.interrupt && opts(s).pauseAfterInterruptHit && st(ctx).rs.jobs.some((j) => j.actor === target)) {
    ctx.emit({ type: 'ocv-phases.pause', combatantId: target });
  }
  return hit;
}

// ---------------------------------------------------------------------------------------------
// Reaction windows

/** Run interrupted actions until one waits on a window or none is left. */
export function drain(ctx: C): void {
  for (let guard = 0; guard < 200; guard++) {
    const s = st(ctx);
    if (s.reaction || s.status !== 'active') return;
    const top = s.rs.jobs[s.rs.jobs.length - 1];
    if (!top) {
      if (s.rs.pauseFor) ctx.emit({ type: 'ocv-phases.pause', combatantId: null });
      if (s.clock.current === null) advance(ctx);
      return;
    }
    if (s.rs.pauseFor) {
      if (!s.rs.jobs.some((j) => j.actor === s.rs.pauseFor)) ctx.emit({ type: 'ocv-phases.pause', combatantId: null });
      else if (s.rs.pauseFor === top.actor) {
        const who = top.actor;
        ctx.emit({ type: 'ocv-phases.pause', combatantId: null });
        ctx.openReaction({
          kind: 'ocv-phases.continue',
          trigger: { combatantId: who, action: top.row, description: `${s.combatants[who]!.name} was hit: the GM may apply the results before the action continues ("assuming he is still capable of doing so")` },
          eligible: [who],
          allowed: [],
          resume: null,
          ...deadline(s),
        });
        return;
      }
    }
    ctx.emit({ type: 'ocv-phases.job-popped', combatantId: top.actor });
    if (!s.combatants[top.actor] || incapable(s, top.actor)) {
      ctx.emit({ type: 'ocv-phases.interrupted', combatantId: top.actor, row: top.row, reason: 'no longer capable of acting' });
      if (s.combatants[top.actor]) stepBack(ctx, top);
      continue;
    }
    runJob(ctx, clone(top));
  }
}


export function onReactionClosed(ctx: C, w: ReactionWindow): void {
  const s = st(ctx);
  const intents = s.rs.intents.filter((i) => i.windowId === w.id);
  if (intents.length) ctx.emit({ type: 'ocv-phases.intents-taken', windowId: w.id });
  for (let i = intents.length - 1; i >= 0; i--) {
    const it = intents[i]!;
    pushJob(ctx, { ...it.job, stage: 'provoke' });
  }
  drain(ctx);
}

// ---------------------------------------------------------------------------------------------
// Initiative actions

export function holdOf(s: S, id: string): Hold | null {
  return s.combatants[id]!.data.hold;
}

/** The character next up (for "act immediately ahead of" / "before X's action"). */
export function nextUp(s: S): string | null {
  const cur = s.clock.current;
  if (cur && !touched(s.combatants[cur]!.data)) return cur;
  const order = s.rs.phase === 'surprise' ? s.rs.order.filter((x) => !s.rs.unaware.includes(x)) : s.rs.order;
  return order.find((x) => !s.rs.passed.includes(x)) ?? null;
}

/**
 * What an abort gives up: before the character's Initiative slot this Phase, this Phase's action
 * (locked until that slot); while holding a delay from this Phase, the delayed action; after
 * acting, the following Phase's action (locked until after its Initiative then).
 */
export function abortCost(s: S, id: string): { givesUp: 'this' | 'next'; lock: number | null } {
  const before = !s.rs.passed.includes(id) && !s.rs.spent.includes(id);
  if (before) return { givesUp: 'this', lock: phaseOrdinal(s.rs) };
  const h = s.combatants[id]!.data.hold;
  if (h?.kind === 'delay' && h.key === phaseKey(s.rs)) return { givesUp: 'this', lock: null };
  return { givesUp: 'next', lock: nextPhaseOrdinal(s.rs) };
}

export type ReadyTrigger = Trigger;
export { TYPE_LABEL, hexNeighbors };
