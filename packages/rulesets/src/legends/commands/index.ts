import { actCommands } from './act.js';
import { attackCommands } from './attack.js';
import { defenseCommands } from './defense.js';
import { gmCommands } from './gm.js';
import { movementCommands } from './movement.js';
import { setupCommands } from './setup.js';
import { turnCommands } from './turns.js';

export { adjustVital } from './gm.js';

/** Every command of the legends ruleset, by group. */
export const commands = {
  ...setupCommands,
  ...gmCommands,
  ...turnCommands,
  ...movementCommands,
  ...defenseCommands,
  ...actCommands,
  ...attackCommands,
};
