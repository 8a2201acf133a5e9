import { attackCommands } from './attack.js';
import { defenseCommands } from './defense.js';
import { destinyCommands } from './destiny.js';
import { gmCommands } from './gm.js';
import { itemCommands } from './items.js';
import { movementCommands } from './movement.js';
import { powerCommands } from './powers.js';
import { reactionCommands } from './reactions.js';
import { skillCommands } from './skills.js';
import { turnCommands } from './turns.js';

/** Every command of the ruleset, by group. */
export const commands = {
  ...attackCommands,
  ...defenseCommands,
  ...movementCommands,
  ...reactionCommands,
  ...skillCommands,
  ...itemCommands,
  ...powerCommands,
  ...destinyCommands,
  ...turnCommands,
  ...gmCommands,
};

export { adjustVital } from './gm.js';
