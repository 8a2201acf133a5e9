import { ensure } from '@fray/engine';
import { RULE } from '../catalogue/index.js';
import {
  checkAreaPower,
  checkAttackRange,
  checkBudget,
  checkPath,
  checkPower,
  checkPowerTargets,
  checkQuick,
  checkReadiedTrigger,
  checkSurge,
} from '../checks/index.js';
import { emit, patchData, plain, type ArCtx } from '../events.js';
import { stuntPenalty } from '../mechanics/combat.js';
import { resolveAttack } from './resolve/attack.js';
import { payQuick, spend, useReaction } from './resolve/budget.js';
import { addEffect, nextTurn, resistanceCheck } from './resolve/effects.js';
import { drawItem, pickUp } from './resolve/items.js';
import { walkPath } from './resolve/path.js';
import { resolvePower } from './resolve/power.js';
import { finish } from './resolve/windows.js';
import {
  combatant,
  speedRank,
  squaresForRank,
  type AttackKind,
  type Benefit,
  type C,
  type Readied,
  type Slot,
  type Square,
} from '../state/index.js';
import { command, me, target } from './kit.js';
import { S, type In, type READYABLE } from './schemas.js';

/** Ready and the readied action, Surge, and a quick action inside a reaction. */

type Readyable = (typeof READYABLE)[number];

function typeOfReadied(c: C, action: Readyable, params: Record<string, unknown>): Slot {
  if (action === 'attack' || action === 'stunt') return 'standard';
  if (action === 'move' || action === 'aim') return 'move';
  if (action === 'draw' || action === 'manipulate') return 'quick';
  const id = String(params['powerId']);
  ensure(checkPower(c, id));
  const p = c.stats.powers.find((x) => x.id === id);
  return !p || p.action === 'free' ? 'quick' : p.action;
}

const ready = command({
  schema: S.ready,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkBudget(ctx.state, c, 'standard'));
    const as = typeOfReadied(c, cmd.action, cmd.params);
    spend(ctx, c, 'ready', 'standard');
    const trigger = plain(cmd.trigger);
    const readied: Readied = { action: cmd.action, params: plain(cmd.params), as, trigger, round: ctx.state.clock.round };
    patchData(ctx, 'readied', c.id, { readied }, { action: cmd.action, as, trigger: plain(trigger) });
    finish(ctx, c.id, []);
  },
});

const readiedAction = command({
  schema: S.readied,
  actor: 'combatant',
  reaction: true,
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkReadiedTrigger(ctx.state, c));
    const r = c.data.readied!;
    useReaction(ctx, c, 'readied', { readied: null });
    if (cmd.quick) quickInReaction(ctx, c, cmd.quick);
    const params: Record<string, unknown> = { ...r.params };
    if (cmd.targetId !== undefined) params['targetId'] = cmd.targetId;
    if (cmd.path !== undefined) params['path'] = cmd.path;
    if (cmd.itemId !== undefined) params['itemId'] = cmd.itemId;
    emit(ctx, 'readied-taken', { combatantId: c.id, action: r.action });
    runReadied(ctx, combatant(ctx.state, c.id), r.action, params);
  },
});

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const KINDS: AttackKind[] = ['close', 'ranged', 'court', 'rumor'];
const BENEFITS: Benefit[] = ['afflict', 'disarm', 'grab', 'pull', 'push', 'break'];
const isSquare = (v: unknown): v is Square =>
  typeof v === 'object' && v !== null && 'x' in v && 'y' in v && typeof v.x === 'number' && typeof v.y === 'number';
const squares = (v: unknown): Square[] | null => (Array.isArray(v) && v.every(isSquare) ? v : null);

function readiedAttack(ctx: ArCtx, c: C, action: 'attack' | 'stunt', params: Record<string, unknown>): void {
  const t = target(ctx, str(params['targetId']), c);
  const kind = KINDS.find((k) => k === params['kind']) ?? 'close';
  ensure(checkAttackRange(ctx.options, c, t, kind));
  if (action === 'attack') return void resolveAttack(ctx, c.id, t.id, kind, { reaction: true, action: 'readied attack' });
  const b = BENEFITS.find((x) => x === params['benefit']) ?? 'push';
  resolveAttack(ctx, c.id, t.id, kind, {
    reaction: true,
    action: 'readied stunt',
    disadvantage: stuntPenalty(t, b),
    stunt: { benefit: b, condition: str(params['condition']) },
  });
}

function readiedPower(ctx: ArCtx, c: C, params: Record<string, unknown>): void {
  const id = String(params['powerId']);
  ensure(checkPower(c, id));
  const p = c.stats.powers.find((x) => x.id === id)!;
  const list = params['targetIds'];
  const ids = Array.isArray(list) ? list.map(String) : params['targetId'] ? [String(params['targetId'])] : [];
  ensure(checkAreaPower(ctx.state, c, p));
  const targets = ids.map((x) => target(ctx, x));
  ensure(checkPowerTargets(ctx.options, c, p, targets));
  if (p.area)
    emit(ctx, 'area-power-used', { combatantId: c.id, powerId: p.id }, { rs: { areaPowerUsed: [...ctx.state.rs.areaPowerUsed, c.id] } });
  resolvePower(ctx, { combatantId: c.id, powerId: p.id, targetIds: ids }, true);
}

function runReadied(ctx: ArCtx, c: C, action: string, params: Record<string, unknown>): void {
  switch (action) {
    case 'attack':
    case 'stunt':
      return readiedAttack(ctx, c, action, params);
    case 'move': {
      const p = squares(params['path']);
      ensure(
        p
          ? checkPath(ctx.state, c, p, squaresForRank(speedRank(ctx.state, c)), RULE.ready)
          : { code: 'INVALID_COMMAND', rule: RULE.ready, message: 'Give the path of the readied move.' },
      );
      return walkPath(
        ctx,
        {
          t: 'path',
          actorId: c.id,
          action: 'readied move',
          path: plain(p ?? []),
          index: 0,
          exempt: 'all',
          oaAt: -1,
          then: { kind: 'none' },
        },
        true,
      );
    }
    case 'aim': {
      const t = target(ctx, str(params['targetId']), c);
      const bonus = Math.min(ctx.options.maxAdvantage, (c.data.aim?.targetId === t.id ? c.data.aim.bonus : 0) + 1);
      return patchData(
        ctx,
        'aimed',
        c.id,
        { aim: { targetId: t.id, bonus, maintainedTurn: c.data.turnsTaken } },
        { targetId: t.id, bonus },
      );
    }
    case 'draw':
      return drawItem(ctx, c, String(params['itemId']), params['mode'] === 'sheathe' ? 'sheathe' : 'draw', RULE.ready);
    case 'manipulate':
      if (params['itemId']) return pickUp(ctx, c, String(params['itemId']), RULE.ready);
      return emit(ctx, 'manipulated', { combatantId: c.id, description: str(params['description']) ?? '' });
    case 'use-power':
      return readiedPower(ctx, c, params);
  }
}

/** "may even use it as part of a reaction, so long as you did not use it during your last turn" */
export function quickInReaction(ctx: ArCtx, c: C, q: NonNullable<In<'readied'>['quick']>): void {
  ensure(checkQuick(ctx.state, c));
  payQuick(ctx, c);
  const cur = combatant(ctx.state, c.id);
  if (q.action === 'manipulate') pickUp(ctx, cur, q.itemId, RULE.quickInReaction);
  else drawItem(ctx, cur, q.itemId, q.action, RULE.quickInReaction);
}

const surge = command({
  schema: S.surge,
  actor: 'combatant',
  reaction: true,
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    const s = ctx.state;
    ensure(checkSurge(s, c, cmd));
    // "Using a Surge is a Reaction and can be performed at any time, but is limited to once per turn."
    useReaction(ctx, c, `surge-${cmd.benefit}`, { surgePending: true });
    surgeBenefit(ctx, c.id, cmd);
  },
});

function surgeBenefit(ctx: ArCtx, id: string, cmd: In<'surge'>): void {
  const s = ctx.state;
  const cur = combatant(s, id);
  switch (cmd.benefit) {
    case 'additional-action':
      // "Gain an additional standard action during your turn, which can be exchanged for a move, quick, or free action"
      if (s.clock.current === id)
        return patchData(ctx, 'surge-action', id, { slots: { ...cur.data.slots, standard: cur.data.slots.standard + 1 } });
      return patchData(ctx, 'surge-action', id, { extraStandard: cur.data.extraStandard + 1 });
    case 'alternate-effect':
      return patchData(
        ctx,
        'surge-alternate',
        id,
        { alternates: { ...plain(cur.data.alternates), [cmd.powerId ?? '']: cmd.alternate ?? '' } },
        { until: 'the end of the encounter' },
      );
    case 'boost':
      return void addEffect(ctx, {
        name: `boost ${String(cmd.trait)} +1`,
        targetId: id,
        sourceId: id,
        data: { kind: 'boost', trait: String(cmd.trait).toLowerCase() },
        expires: nextTurn(s, id, 'end'),
        beneficial: true,
      });
    case 'burst':
      return void addEffect(ctx, {
        name: `burst (${cmd.negate})`,
        targetId: id,
        sourceId: id,
        data: { kind: 'burst', negate: cmd.negate },
        expires: nextTurn(s, id, 'end'),
        beneficial: true,
      });
    case 'edge':
      return patchData(ctx, 'surge-edge', id, { edges: cur.data.edges + 1 }, { until: 'the end of the encounter' });
    case 'counter':
      return emit(ctx, 'surge-counter', { combatantId: id, note: cmd.note ?? null });
    case 'resistance':
      return void resistanceCheck(ctx, id, cmd.effectId ?? '', 'surge');
    case 'retry':
      return patchData(ctx, 'surge-retry', id, { retry: true });
  }
}

export const reactionCommands = { ready, readied: readiedAction, surge };
