import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { z } from 'zod';
import { ACTION_IDS, actionDef, type ActionDef } from '../catalogue/index.js';
import { checkContinue, checkFreeBudget, evaluate } from '../checks/index.js';
import { emit } from '../events/index.js';
import { settle } from '../flow/index.js';
import { drive, newPending, stepsFor } from '../flow/pipeline.js';
import { PHASES } from '../mechanics/phases.js';
import { isReload, type Shape } from '../mechanics/shape.js';
import {
  actParamsShape,
  before,
  consecutiveInProgress,
  optsOf,
  st,
  type ActParams,
  type C,
  type InProgress,
  type RS,
  type S,
  type X,
} from '../state.js';
import type { Options } from '../options.js';
import { castDefensively, spoil } from './rolls.js';
import { plain } from './resolve.js';

/** Taking an action (`act`) and spending another AP on an advanced action in progress (`continue`). */

const command = commandKit<RS, Options>();

/** Free actions that resolve at once, with nothing to roll or move. */
const AT_ONCE = new Set(['speak', 'recall-knowledge', 'prepare-components', 'free-ability', 'cease-concentrating', 'drop-item']);

/** "When you declare an advanced action, you spend 1 AP immediately": the record of its progress, and the defensive casting if asked. */
function startAdvanced(ctx: X, s: S, c: C, def: ActionDef, sh: Shape, p: ActParams, penalty: number): void {
  const rec: InProgress = {
    key: ctx.newId('a'),
    action: def.id,
    cost: sh.cost,
    spent: 1,
    consecutive: sh.consecutive,
    fullRound: sh.type === 'full-round',
    startedRound: s.rs.round,
    startedPhase: s.rs.phaseIdx,
    lastRound: s.rs.round,
    lastPhase: s.rs.phaseIdx,
    attackPenalty: penalty,
    defensive: false,
    params: p,
  };
  emit(ctx, { type: 'action-points.advanced-started', combatantId: c.id, advanced: plain(rec) });
  if (p.defensively && def.tags.includes('spell')) {
    ensure(checkFreeBudget(s, c));
    emit(ctx, {
      type: 'action-points.action-taken',
      combatantId: c.id,
      action: 'cast-defensively',
      actionType: 'free',
      subtypes: [],
      phase: PHASES[s.rs.phaseIdx]!,
      penalty: 0,
    });
    if (!castDefensively(ctx, st(ctx).combatants[c.id]!, rec)) return;
  }
  const pend = newPending(ctx, c, def.id, p, penalty, rec.key, rec.spent >= rec.cost);
  drive(ctx, stepsFor(st(ctx), st(ctx).combatants[c.id]!, pend, true));
}

const act = command({
  actor: 'combatant',
  schema: commandSchema('act', { combatantId: idSchema, action: z.enum(ACTION_IDS), ...actParamsShape }),
  handle(ctx, cmd) {
    const s = before(ctx);
    const { type: _t, by: _b, combatantId, action, ...p } = cmd;
    const c = s.combatants[combatantId]!;
    const def = actionDef(action)!;
    const e = evaluate(s, c, def, p, true);
    ensure(e.blocked);
    const sh = e.sh;
    if (e.spoils) spoil(ctx, c, e.spoils, `AP spent on ${def.label}`);
    const penalty = sh.subtypes.includes('attack') ? 0 - optsOf(s).attackPenaltyStep * c.data.attacksThisRound : 0;
    if (sh.cost > 0) emit(ctx, { type: 'action-points.ap-spent', combatantId: c.id, amount: 1, action: def.id });
    const phase = PHASES[s.rs.phaseIdx]!;
    emit(ctx, {
      type: 'action-points.action-taken',
      combatantId: c.id,
      action: def.id,
      actionType: sh.type,
      subtypes: sh.subtypes,
      phase,
      penalty,
      ...(isReload(sh) ? { reload: true } : {}),
    });
    if (def.id === 'cast-defensively') {
      const me = st(ctx).combatants[c.id]!;
      const rec = me.data.inProgress.find((r) => actionDef(r.action)?.tags.includes('spell') && !r.defensive && r.spent < r.cost)!;
      castDefensively(ctx, me, rec);
      return;
    }
    if (AT_ONCE.has(def.id)) {
      emit(ctx, {
        type: 'action-points.resolved',
        combatantId: c.id,
        action: def.id,
        key: null,
        readied: false,
        outcome: {},
        ...(p.text ? { text: p.text } : {}),
      });
      return;
    }
    if (sh.type === 'advanced' || sh.type === 'full-round') startAdvanced(ctx, s, c, def, sh, p, penalty);
    else drive(ctx, stepsFor(st(ctx), st(ctx).combatants[c.id]!, newPending(ctx, c, def.id, p, penalty, null, true), true));
    settle(ctx);
  },
});

const continueAction = command({
  actor: 'combatant',
  schema: commandSchema('continue', { combatantId: idSchema, key: idSchema.optional() }),
  handle(ctx, cmd) {
    const s = before(ctx);
    const c = s.combatants[cmd.combatantId]!;
    const rec = cmd.key ? c.data.inProgress.find((r) => r.key === cmd.key) : (consecutiveInProgress(c) ?? c.data.inProgress[0]);
    ensure(checkContinue(s, c, rec));
    const r = rec!;
    const spent = r.spent + 1;
    const other = consecutiveInProgress(c);
    if (other && other.key !== r.key) spoil(ctx, c, other, `AP spent on ${actionDef(r.action)!.label}`);
    emit(ctx, { type: 'action-points.ap-spent', combatantId: c.id, amount: 1, action: r.action });
    emit(ctx, { type: 'action-points.advanced-progressed', combatantId: c.id, key: r.key, spent, round: s.rs.round, phase: s.rs.phaseIdx });
    const pend = newPending(ctx, c, r.action, r.params, r.attackPenalty, r.key, spent >= r.cost);
    drive(ctx, stepsFor(st(ctx), st(ctx).combatants[c.id]!, pend, false));
    settle(ctx);
  },
});

export const actCommands = { act, continue: continueAction };
