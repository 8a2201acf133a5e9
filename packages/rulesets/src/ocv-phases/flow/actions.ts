import { ensure, type Hex, type Item } from '@fray/engine';
import { ROW, type ActionType, type Row } from '../catalogue.js';
import { checkHex, checkProvokeRuling, checkStep, checkTarget, type ProvokeFields } from '../checks/index.js';
import { emit } from '../events.js';
import { useOf } from '../mechanics/combat-values.js';
import { hexCopy } from '../mechanics/jobs.js';
import { aooFrom, triggered, abortOffer } from '../mechanics/opportunity.js';
import { conditions, occupant, opts, pos, st, type C, type Job } from '../state/index.js';
import { attackRoll } from './attack.js';
import { takeRecovery } from './clock.js';
import { openAoo, openBefore } from './windows.js';

/**
 * Whether a provoking row is negated: "Yes (skill check negates)" by a skill roll (3d6 under the
 * named skill) or the GM's word; "Usually (varies)" by the GM's ruling or the default.
 */
export function negation(ctx: C, id: string, row: Row, cmd: ProvokeFields): boolean {
  const s = st(ctx);
  ensure(checkProvokeRuling(s, id, row, cmd, ctx.command.by.role !== 'player'));
  if (row.provokes === 'varies') return cmd.provokes !== undefined ? !cmd.provokes : opts(s).usuallyVaries === 'does-not-provoke';
  if (row.provokes !== 'skill') return false;
  if (cmd.negated !== undefined) return cmd.negated;
  const skill = cmd.skill;
  const target = skill === undefined ? undefined : s.combatants[id]!.stats.skills[skill];
  if (skill === undefined || target === undefined) return false;
  const r = ctx.roll('3d6', `${skill} skill check (${target}-) to negate an attack of opportunity`, { combatantId: id });
  const success = r.total <= target;
  emit(ctx, { type: 'ocv-phases.skill-check', combatantId: id, skill, target, rollId: r.id, total: r.total, success });
  return success;
}

const copyOrNull = (h: Hex | null): Hex | null => (h ? hexCopy(h) : null);

/** Declare an action (spend its place in the Phase) and run it. */
export function declare(ctx: C, job: Job, type: ActionType): void {
  const s = st(ctx);
  const c = s.combatants[job.actor]!;
  // A late delayed action at the end of the Phase (or any held delay) is taken by acting.
  if (job.via === 'regular' && c.data.hold?.kind === 'delay' && s.clock.current === job.actor) {
    emit(ctx, { type: 'ocv-phases.hold-taken', combatantId: job.actor, kind: 'delay', before: null });
  }
  const row = ROW[job.row]!;
  const use =
    row.via === 'attack' || row.via === 'defend' || job.row === 'move-by' || job.row === 'move-through' ? useOf(s, job.row) : undefined;
  if (use && row.multi && job.targetIds.length > 1) use.ocv -= opts(s).multipleTargetPenalty * (job.targetIds.length - 1);
  emit(ctx, {
    type: 'ocv-phases.declared',
    combatantId: job.actor,
    row: job.row,
    actionType: type,
    via: job.via,
    use,
    targets: job.targetIds,
  });
  runJob(ctx, job);
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
        if (aborters.length)
          parts.push(`the target may abort to a defensive action (${aborters.map((x) => s.combatants[x]!.name).join(', ')})`);
        return openBefore(ctx, { ...job, stage: 'provoke' }, eligible, `${name}: ${row.label} — ${parts.join('; ')}`);
      }
    }
    job = { ...job, stage: 'provoke' };
  }
  if (job.stage === 'provoke') {
    job = { ...job, stage: 'resolve' };
    if (job.step) {
      // "You can take a 1-hex step as part of your readied action" (taken first)
      const e = checkStep(s, job.actor, job.step, true);
      if (e) emit(ctx, { type: 'ocv-phases.acted', combatantId: job.actor, row: 'step', note: `no step: ${e.message}` });
      else
        emit(ctx, {
          type: 'ocv-phases.moved',
          combatantId: job.actor,
          from: copyOrNull(pos(s, job.actor)),
          to: hexCopy(job.step),
          step: true,
        });
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

/**
 * "never ending in an occupied hex": a move stopped in an ally's hex (the way ahead blocked, or the
 * mover no longer capable of acting) ends instead in the last hex it held alone.
 */
export function stepBack(ctx: C, job: Job): void {
  const s = st(ctx);
  const here = pos(s, job.actor);
  const back = job.back;
  if (!back || !here || !occupant(s, here, job.actor) || occupant(s, back, job.actor)) return;
  emit(ctx, {
    type: 'ocv-phases.moved',
    combatantId: job.actor,
    from: hexCopy(here),
    to: hexCopy(back),
    step: job.row === 'step' || undefined,
  });
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
    const blocked = checkHex(s, job.actor, here, next, path.length === 1);
    if (blocked) {
      emit(ctx, { type: 'ocv-phases.interrupted', combatantId: job.actor, row: job.row, reason: blocked.message });
      stepBack(ctx, { ...job, back });
      break;
    }
    if (!occupant(s, here, job.actor)) back = hexCopy(here);
    emit(ctx, {
      type: 'ocv-phases.moved',
      combatantId: job.actor,
      from: hexCopy(here),
      to: hexCopy(next),
      step: job.row === 'step' || undefined,
    });
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
      const e = checkTarget(s, job.actor, t, null);
      if (e) emit(ctx, { type: 'ocv-phases.acted', combatantId: job.actor, row: job.row, note: `no attack: ${e.message}` });
      else attackRoll(ctx, job.actor, t, job.row, { ocvModifier: job.ocvModifier, ranged: false, aoo: false, interrupt: false });
    }
  }
  finish(ctx, job);
}

function finish(ctx: C, job: Job): void {
  emit(ctx, {
    type: 'ocv-phases.acted',
    combatantId: job.actor,
    row: job.row,
    via: job.via,
    targets: job.targetIds.length ? job.targetIds : undefined,
  });
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

const HANDS: Item['location'][] = ['left-hand', 'right-hand', 'both-hands'];

function resolve(ctx: C, job: Job): void {
  const via = ROW[job.row]!.via;
  if (via === 'attack') resolveAttack(ctx, job);
  else if (via === 'act') resolveAct(ctx, job);
  else if (via === 'free') resolveFree(ctx, job);
  finish(ctx, job);
}

function resolveAttack(ctx: C, job: Job): void {
  const s = st(ctx);
  const id = job.actor;
  const braced = s.combatants[id]!.data.braced && job.ranged !== null ? opts(s).braceOcv : 0;
  for (const t of job.targetIds) {
    if (!st(ctx).combatants[t]) continue;
    const e = checkTarget(st(ctx), id, t, job.ranged);
    if (e) {
      emit(ctx, { type: 'ocv-phases.acted', combatantId: id, row: job.row, note: `no attack on ${t}: ${e.message}` });
      continue;
    }
    attackRoll(ctx, id, t, job.row, {
      ocvModifier: job.ocvModifier + braced,
      ranged: job.ranged !== null,
      aoo: false,
      interrupt: job.via === 'readied',
    });
  }
}

function resolveAct(ctx: C, job: Job): void {
  const s = st(ctx);
  const id = job.actor;
  switch (job.row) {
    case 'draw-focus':
    case 'retrieve-focus': {
      const it = s.combatants[id]!.items.find((i) => i.id === job.itemId);
      if (it && HANDS.includes(it.location)) setItem(ctx, id, job.itemId, 'carried', HANDS);
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
      emit(ctx, { type: 'ocv-phases.full-started', combatantId: id, action: job.fullAction });
      break;
    case 'complete-full-phase': {
      const started = s.combatants[id]!.data.fullStarted;
      emit(ctx, { type: 'ocv-phases.full-started', combatantId: id, action: null });
      if (started === 'recovery') takeRecovery(ctx, id, 'action');
      if (started === 'recover-stunned') removeCondition(ctx, id, 'stunned');
      if (started === 'retrieve-focus') resolve(ctx, { ...job, row: 'retrieve-focus' });
      break;
    }
  }
}

function resolveFree(ctx: C, job: Job): void {
  const s = st(ctx);
  const id = job.actor;
  if (job.row === 'drop-item') setItem(ctx, id, job.itemId, 'ground', HANDS);
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
}
