import { actionCommands } from './actions.js';
import { attackCommands } from './attack.js';
import { gmCommands } from './gm.js';
import { initiativeCommands } from './initiative.js';
import { movementCommands } from './movement.js';
import { reactionCommands } from './reactions.js';

/** Every command of `ocv-phases`, by group. */
export const commands = {
  ...attackCommands,
  ...movementCommands,
  ...actionCommands,
  ...initiativeCommands,
  ...reactionCommands,
  ...gmCommands,
};
