import type { Ruleset } from '@fray/engine';
import { ocvPhases } from './ocv-phases/index.js';

/**
 * Every ruleset Fray knows. Adding a ruleset: a folder under src/<id>/ and one line here.
 */
export const registry: Record<string, Ruleset> = {
  'ocv-phases': ocvPhases,
};
