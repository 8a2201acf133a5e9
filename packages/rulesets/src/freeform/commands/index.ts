import { actionCommands } from './actions.js';
import { gmCommands } from './gm.js';
import { turnCommands } from './turns.js';

export const commands = { ...actionCommands, ...turnCommands, ...gmCommands };
