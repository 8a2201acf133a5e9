import { commandKit } from '@fray/engine';
import type { LegendsOptions } from '../options.js';
import type { LRS } from '../state/index.js';

/** The command builder of the legends ruleset: a handler typed by its schema, on the legends state. */
export const command = commandKit<LRS, LegendsOptions>();



/** A GM tool: usable in setup and while a reaction window is open. */
export const gmTool = { actor: 'gm' as const, inSetup: true, duringReaction: true };
