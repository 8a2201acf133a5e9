import type { LCtx } from '../state/index.js';
import type { LegendsEvent } from './types.js';

export type { LegendsEvent } from './types.js';
export { evolve } from './evolve.js';
export { copyData, copyRs, sameRs } from './copy.js';

/**
 * Emit one of the ruleset's events. Events must not hold pieces of the draft state (they outlive the command): the
 * few events that carry objects read from the state copy them (clone) where they are built.
 */
export function emit(ctx: LCtx, e: LegendsEvent): void {
  ctx.emit(e);
}
