import { chebyshev } from '@fray/engine';
import { AOO_WINDOW, READY_WINDOW, actionDef } from '../catalogue/index.js';
import { plain, resolve } from '../commands/resolve.js';
import { emit } from '../events/index.js';
import { progressSubtypes, shapeOf, type Shape } from '../mechanics/shape.js';
import { canMakeAoO, provocation, threateningFoes } from '../mechanics/threat.js';
import { alive, canAct, optsOf, posOf, st, type C, type Pending, type S, type Sq, type Step, type X } from '../state.js';

/**
 * The pipeline of one AP spent (or one simple action taken): attacks of opportunity before it,
 * readied triggers, movement square by square, resolution. A step that offers a reaction opens a
 * window and waits; `onReactionClosed` drives the rest.
 */

/** A new unit of the pipeline for `c`. */
export function newPending(
  ctx: X,
  c: C,
  action: string,
  params: Pending['params'],
  penalty: number,
  recKey: string | null,
  complete: boolean,
  readied = false,
): Pending {
  return { uid: ctx.newId('p'), actorId: c.id, action, params: plain(params), penalty, recKey, complete, readied };
}

function shapeFor(s: S, c: C, p: Pending): Shape {
  const def = actionDef(p.action)!;
  const sh = shapeOf(s, c, def, p.params);
  const rec = p.recKey ? c.data.inProgress.find((r) => r.key === p.recKey) : undefined;
  return rec ? { ...sh, subtypes: progressSubtypes(s, c, rec) } : sh;
}

/** The steps of one AP spent (or one simple action taken): attacks of opportunity first, then readied triggers, movement, resolution. */
export function stepsFor(s: S, c: C, p: Pending, first: boolean): Step[] {
  const sh = shapeFor(s, c, p);
  const steps: Step[] = [{ t: 'aoo', p, atRoll: p.complete }];
  const kinds = first ? ['acts'] : [];
  if (sh.tags.includes('spell')) kinds.push('casts');
  if (kinds.length) steps.push({ t: 'ready', p, kinds });
  if (p.complete) {
    if (sh.subtypes.includes('attack') && p.params.targetId) steps.push({ t: 'ready', p, kinds: ['attacked'] });
    if (sh.tags.includes('path') && p.params.path && p.action !== 'overrun')
      steps.push({ t: 'move', p, path: p.params.path, offered: [], from: null });
    steps.push({ t: 'resolve', p });
    if (sh.tags.includes('path')) steps.push({ t: 'ready', p, kinds: ['moves-adjacent'] });
  }
  return steps;
}

/** Run the steps in order until one opens a reaction window (the rest wait in its `resume`) or none is left. */
export function drive(ctx: X, queue: Step[]): void {
  while (queue.length > 0) {
    const step = queue.shift()!;
    const s = st(ctx);
    const actor = s.combatants[step.p.actorId];
    if (step.t !== 'ready' && (!actor || !alive(actor))) {
      emit(ctx, {
        type: 'action-points.action-lost',
        combatantId: step.p.actorId,
        action: step.p.action,
        key: step.p.recKey,
        reason: 'the actor is down',
      });
      queue = queue.filter((x) => x.p.uid !== step.p.uid);
      continue;
    }
    if (!actor) continue;
    switch (step.t) {
      case 'aoo':
        if (offerAoO(ctx, s, actor, step, queue)) return;
        break;
      case 'ready':
        if (offerReady(ctx, s, actor, step, queue)) return;
        break;
      case 'move': {
        if (walk(ctx, actor, step, queue)) return;
        break;
      }
      case 'resolve':
        resolve(ctx, step.p);
        break;
    }
  }
}

/** Attacks of opportunity before the AP is spent: a window for the foes the action provokes who can still make one. */
function offerAoO(ctx: X, s: S, actor: C, step: Extract<Step, { t: 'aoo' }>, queue: Step[]): boolean {
  const sh = shapeFor(s, actor, step.p);
  const prov = provocation(s, actor, sh, step.p.params, step.atRoll, false);
  if (!prov) return false;
  const eligible = prov.from.filter((id) => canMakeAoO(s, s.combatants[id]!));
  if (eligible.length === 0) return false;
  ctx.openReaction({
    kind: AOO_WINDOW,
    trigger: { combatantId: actor.id, action: step.p.action, description: `${actor.name}: ${sh.def.label} provokes (${prov.reason})` },
    eligible,
    allowed: ['attackOfOpportunity', 'spendAoo'],
    resume: plain({ queue }),
    deadlineSeconds: 30,
  });
  return true;
}

/** "when the trigger you designate occurs, you can take that action": a window for the creatures whose trigger this is. */
function offerReady(ctx: X, s: S, actor: C, step: Extract<Step, { t: 'ready' }>, queue: Step[]): boolean {
  const readiers = matchingReadiers(s, actor, step.p, step.kinds);
  if (readiers.length === 0) return false;
  ctx.openReaction({
    kind: READY_WINDOW,
    trigger: {
      combatantId: actor.id,
      action: step.p.action,
      description: `${actor.name}: ${actionDef(step.p.action)?.label ?? step.p.action} (${step.kinds.join(', ')})`,
    },
    eligible: readiers,
    allowed: ['completeReady'],
    resume: plain({ queue }),
    deadlineSeconds: 30,
  });
  return true;
}

function matchingReadiers(s: S, actor: C, p: Pending, kinds: string[]): string[] {
  const out: string[] = [];
  for (const r of Object.values(s.combatants)) {
    const ready = r.data.ready;
    if (!ready || r.id === actor.id || !canAct(s, r) || r.side === actor.side) continue;
    if (r.data.reactionsThisPhase >= optsOf(s).reactionsPerPhase) continue;
    if (ready.trigger.sourceId && ready.trigger.sourceId !== actor.id) continue;
    if (!kinds.includes(ready.trigger.kind)) continue;
    if (ready.trigger.kind === 'attacked' && p.params.targetId !== r.id) continue;
    if (ready.trigger.kind === 'moves-adjacent') {
      const a = posOf(actor);
      const b = posOf(r);
      if (!a || !b || chebyshev(a, b) > 1) continue;
    }
    out.push(r.id);
  }
  return out;
}

/** Walk a path square by square; leaving a square threatened by a foe not yet offered opens a window first. */
function walk(ctx: X, actor: C, step: Extract<Step, { t: 'move' }>, queue: Step[]): boolean {
  const s = st(ctx);
  const provokes = shapeFor(s, actor, step.p).subtypes.includes('move');
  let pos = posOf(actor)!;
  const start = step.from ?? pos;
  const walked: Sq[] = [];
  for (let i = 0; i < step.path.length; i++) {
    const next = step.path[i]!;
    if (provokes) {
      const from = threateningFoes(s, actor, pos)
        .filter((f) => !step.offered.includes(f.id) && canMakeAoO(s, f))
        .map((f) => f.id);
      if (from.length > 0) {
        if (walked.length)
          emit(ctx, { type: 'action-points.moved', combatantId: actor.id, from: plain(posOf(actor)), to: plain(pos), path: plain(walked) });
        ctx.openReaction({
          kind: AOO_WINDOW,
          trigger: {
            combatantId: actor.id,
            action: step.p.action,
            description: `${actor.name} leaves a threatened square (${pos.x},${pos.y})`,
          },
          eligible: from,
          allowed: ['attackOfOpportunity', 'spendAoo'],
          resume: plain({ queue: [{ ...step, path: step.path.slice(i), offered: [...step.offered, ...from], from: start }, ...queue] }),
          deadlineSeconds: 30,
        });
        return true;
      }
    }
    const blocker = Object.values(s.combatants).find(
      (o) => o.id !== actor.id && o.side !== actor.side && alive(o) && posOf(o)?.x === next.x && posOf(o)?.y === next.y,
    );
    if (blocker) {
      emit(ctx, {
        type: 'action-points.movement-stopped',
        combatantId: actor.id,
        at: plain(pos),
        reason: `${blocker.name} blocks the way`,
      });
      break;
    }
    pos = next;
    walked.push(pos);
  }
  if (walked.length)
    emit(ctx, { type: 'action-points.moved', combatantId: actor.id, from: plain(posOf(actor)), to: plain(pos), path: plain(walked) });
  return false;
}
