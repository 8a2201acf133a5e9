import type { Hex } from '@fray/engine';
import type { Job } from '../state/index.js';

/** An action to run (see `Job`): its stage, targets, path and rulings. */
export function newJob(actor: string, row: string, via: Job['via'], over: Partial<Job> = {}): Job {
  return {
    actor,
    row,
    via,
    stage: 'trigger',
    targetIds: [],
    path: [],
    itemId: null,
    ranged: null,
    ocvModifier: 0,
    noProvoke: false,
    leaveChecked: false,
    fullAction: null,
    step: null,
    ...over,
  };
}

/** a plain copy of a hex read from the draft: an event must not keep a draft, revoked after the command */
export function hexCopy(h: Hex): Hex {
  return { q: h.q, r: h.r };
}
