import { actCommands } from './act.js';
import { gmCommands } from './gm.js';
import { reactionCommands } from './reactions.js';
import { turnCommands } from './turn.js';

/** Every command of the ruleset, by type. */
export const commands = { ...actCommands, ...turnCommands, ...reactionCommands, ...gmCommands };
