import type { Ruleset } from '@fray/engine';
import { legends } from './legends/index.js';
import { ocvPhases } from './ocv-phases/index.js';
import { actionPoints } from './action-points/index.js';
import { actionRound } from './action-round/index.js';
import { freeform } from './freeform/index.js';

/**
 * Every ruleset Fray knows. Adding a ruleset: a folder under src/<id>/ and one line here.
 */
export const registry: Record<string, Ruleset> = {
  legends,
  'action-points': actionPoints,
  'ocv-phases': ocvPhases,
  'action-round': actionRound,
  freeform,
};
