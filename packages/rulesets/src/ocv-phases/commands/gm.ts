import { commandKit, commandSchema, ensure, idSchema, type Hex } from '@fray/engine';
import { z } from 'zod';
import { checkAwarenessInSetup, checkClockStopped, checkKnown } from '../checks/index.js';
import { emit } from '../events.js';
import { advance } from '../flow/clock.js';
import type { OcvPhasesOptions } from '../options.js';
import { hexKey, hexSchema, st, type C, type RS } from '../state/index.js';

const command = commandKit<RS, OcvPhasesOptions>();

/**
 * The GM's damage or healing (`combatant.adjust` on `stun` or `endurance`): the current pool falls
 * by the damage or rises by the healing, never above the maximum (like a Recovery).
 */
export function adjustVital(ctx: C, id: string, vital: string, amount: number): void {
  const c = st(ctx).combatants[id]!;
  const key = vital === 'endurance' ? 'endurance' : 'stun';
  const next = amount > 0 ? c.data[key] - amount : Math.min(c.stats[key], c.data[key] - amount);
  emit(
    ctx,
    key === 'stun'
      ? { type: 'ocv-phases.pools', combatantId: id, stun: next }
      : { type: 'ocv-phases.pools', combatantId: id, endurance: next },
  );
}

const keys = (hs: Hex[]): string[] => [...new Set(hs.map(hexKey))];

/** GM tools: awareness at the start, the map, STUN and END, restriction, the clock. */
export const gmCommands = {
  setAwareness: command({
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('setAwareness', { combatantId: idSchema, aware: z.boolean() }),
    handle(ctx, cmd) {
      const s = st(ctx);
      ensure(checkKnown(s, cmd.combatantId));
      ensure(checkAwarenessInSetup(s));
      emit(ctx, { type: 'ocv-phases.awareness', combatantId: cmd.combatantId, aware: cmd.aware });
    },
  }),
  setMap: command({
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('setMap', {
      blocking: z.array(hexSchema).max(5000).default([]),
      difficult: z.array(hexSchema).max(5000).default([]),
      dark: z.array(hexSchema).max(5000).default([]),
    }),
    handle(ctx, cmd) {
      emit(ctx, {
        type: 'ocv-phases.map-set',
        map: { blocking: keys(cmd.blocking), difficult: keys(cmd.difficult), dark: keys(cmd.dark) },
      });
    },
  }),
  adjustPools: command({
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('adjustPools', {
      combatantId: idSchema,
      stun: z.number().int().min(-5000).max(5000).optional(),
      endurance: z.number().int().min(-5000).max(5000).optional(),
    }),
    handle(ctx, cmd) {
      ensure(checkKnown(st(ctx), cmd.combatantId));
      emit(ctx, { type: 'ocv-phases.pools', combatantId: cmd.combatantId, stun: cmd.stun, endurance: cmd.endurance });
    },
  }),
  restrict: command({
    actor: 'gm',
    duringReaction: true,
    schema: commandSchema('restrict', { combatantId: idSchema, restricted: z.boolean() }),
    handle(ctx, cmd) {
      ensure(checkKnown(st(ctx), cmd.combatantId));
      emit(ctx, { type: 'ocv-phases.restricted', combatantId: cmd.combatantId, restricted: cmd.restricted });
    },
  }),
  resumeClock: command({
    actor: 'gm',
    schema: commandSchema('resumeClock', {}),
    handle(ctx) {
      ensure(checkClockStopped(st(ctx)));
      advance(ctx);
    },
  }),
};
