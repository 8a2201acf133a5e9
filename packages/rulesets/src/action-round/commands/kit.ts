import { commandKit, ensure } from '@fray/engine';
import { checkBudget, checkTarget } from '../checks/index.js';
import type { ArCtx } from '../events.js';
import { threatenersOf } from '../mechanics/threat.js';
import type { Options } from '../options.js';
import { runDeferred } from './resolve/deferred.js';
import type { DeferredAction } from './resolve/deferred-types.js';
import { plain } from '../events.js';
import { openOa } from './resolve/windows.js';
import { combatant, type C, type RS, type Slot } from '../state/index.js';

/** What every command group shares: the typed command builder, the actor, targets, the budget gate, provoking. */
export const command = commandKit<RS, Options>();

export const me = (ctx: ArCtx, cmd: { combatantId: string }): C => combatant(ctx.state, cmd.combatantId);

export function target(ctx: ArCtx, id: string | undefined, self?: C): C {
  ensure(checkTarget(ctx.state, id, self));
  return combatant(ctx.state, id ?? '');
}

/** The turn and a slot of `type` (or a free action). */
export function gate(ctx: ArCtx, c: C, type: Slot | 'free'): void {
  ensure(checkBudget(ctx.state, c, type));
}

/** Let threatening enemies react before the action resolves ("the provoking action resumes" on close). */
export function provokeThenResolve(ctx: ArCtx, c: C, d: DeferredAction, provokers: C[], description: string): void {
  // the window keeps a plain copy of the action; none is made when no one may react
  if (provokers.length === 0 || !openOa(ctx, c, provokers, d.action, description, plain(d))) runDeferred(ctx, d);
}
/** Every enemy threatening `c` ([OA] actions). */
export const threateners = (ctx: ArCtx, c: C): C[] => threatenersOf(ctx.state, ctx.options, c);
