import { commandKit, type Ctx } from '@fray/engine';
import type { FreeformOptions } from '../options.js';
import type { RS } from '../state.js';

/** freeform's `defineCommand`: handlers typed by their schemas. */
export const command = commandKit<RS, FreeformOptions>();
export type FCtx = Ctx<RS, FreeformOptions>;

export const byGm = (ctx: FCtx): boolean => ctx.command.by.role !== 'player';
