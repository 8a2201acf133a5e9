import { commandKit, commandSchema, idSchema, refuse, ruleError } from '@fray/engine';
import { z } from 'zod';
import { AOO_WINDOW, READY_WINDOW, RULE } from '../catalogue/index.js';
import { emit } from '../events/index.js';
import { enterPhase, settle } from '../flow/index.js';
import { canMakeAoO, threatens } from '../mechanics/threat.js';
import { posOf, st, type RS, type X } from '../state.js';
import type { Options } from '../options.js';
import { damage, spoil } from './rolls.js';

/** The GM's rulings: awareness before combat, hit points, moving on to the next phase, spoiling, provoking, triggering a readied action. */

const command = commandKit<RS, Options>();

const noCombatant = () => ruleError('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');

/** "Determine which characters are aware of their opponents." */
const setAware = command({
  actor: 'gm',
  inSetup: true,
  schema: commandSchema('setAware', { combatantId: idSchema, aware: z.boolean() }),
  handle(ctx, cmd) {
    if (ctx.state.status !== 'setup')
      refuse(
        ruleError(
          'COMBAT_ALREADY_STARTED',
          RULE.awareness,
          '"Determine which characters are aware of their opponents" before combat starts.',
        ),
      );
    if (!ctx.state.combatants[cmd.combatantId]) refuse(noCombatant());
    emit(ctx, { type: 'action-points.awareness-set', combatantId: cmd.combatantId, aware: cmd.aware });
  },
});

const setHp = command({
  actor: 'gm',
  duringReaction: true,
  inSetup: true,
  schema: commandSchema('setHp', { combatantId: idSchema, hp: z.number().int().min(-1000).max(100000) }),
  handle(ctx, cmd) {
    if (!ctx.state.combatants[cmd.combatantId]) refuse(noCombatant());
    emit(ctx, { type: 'action-points.hp-set', combatantId: cmd.combatantId, hp: cmd.hp });
    settle(ctx);
  },
});

const advancePhase = command({
  actor: 'gm',
  schema: commandSchema('advancePhase', {}),
  handle(ctx) {
    enterPhase(ctx, st(ctx).rs.phaseIdx + 1);
  },
});

const spoilCommand = command({
  actor: 'gm',
  duringReaction: true,
  schema: commandSchema('spoil', {
    combatantId: idSchema,
    key: idSchema.optional(),
    reason: z.string().min(1).max(200).default('GM ruling'),
  }),
  handle(ctx, cmd) {
    const c = st(ctx).combatants[cmd.combatantId];
    const rec = c?.data.inProgress.find((r) => !cmd.key || r.key === cmd.key);
    if (!c || !rec) return refuse(ruleError('INVALID_COMMAND', RULE.advanced, 'No advanced action in progress.'));
    spoil(ctx, c, rec, cmd.reason);
  },
});

const provoke = command({
  actor: 'gm',
  schema: commandSchema('provoke', {
    combatantId: idSchema,
    from: z.array(idSchema).max(50).optional(),
    reason: z.string().min(1).max(200),
  }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const c = s.combatants[cmd.combatantId];
    if (!c) return refuse(noCombatant());
    const from = (
      cmd.from ??
      Object.values(s.combatants)
        .filter((f) => f.side !== c.side && threatens(s, f, posOf(c)))
        .map((f) => f.id)
    ).filter((fid) => s.combatants[fid] && canMakeAoO(s, s.combatants[fid]));
    if (from.length === 0)
      return refuse(ruleError('ILLEGAL_ACTION', RULE.attackOfOpportunity, 'Nobody can make an attack of opportunity.'));
    emit(ctx, { type: 'action-points.provoked', combatantId: c.id, reason: cmd.reason });
    ctx.openReaction({
      kind: AOO_WINDOW,
      trigger: { combatantId: c.id, action: 'gm', description: cmd.reason },
      eligible: from,
      allowed: ['attackOfOpportunity', 'spendAoo'],
      resume: { queue: [] },
    });
  },
});

const triggerReady = command({
  actor: 'gm',
  schema: commandSchema('triggerReady', { combatantId: idSchema, sourceId: idSchema.optional() }),
  handle(ctx, cmd) {
    const c = st(ctx).combatants[cmd.combatantId];
    if (!c?.data.ready) return refuse(ruleError('ILLEGAL_ACTION', RULE.ready, 'That combatant has no readied action.'));
    ctx.openReaction({
      kind: READY_WINDOW,
      trigger: { combatantId: cmd.sourceId ?? null, action: 'gm', description: c.data.ready.trigger.description },
      eligible: [c.id],
      allowed: ['completeReady'],
      resume: { queue: [] },
    });
  },
});

export const gmCommands = { setAware, setHp, advancePhase, spoil: spoilCommand, provoke, triggerReady };

/**
 * The GM's damage or healing (`combatant.adjust` on `hp`): damage goes through the same path as an
 * attack's ("a creature dropped to 0 hp loses its advanced actions in progress"); healing sets the
 * hit points, never above the maximum.
 */
export function adjustVital(ctx: X, id: string, _vital: string, amount: number): void {
  const c = st(ctx).combatants[id]!;
  if (amount > 0) damage(ctx, c, amount, null);
  else emit(ctx, { type: 'action-points.hp-set', combatantId: id, hp: Math.min(c.stats.hp, c.data.hp - amount) });
  settle(ctx);
}
