import type { ActionDef } from './define.js';

/** What takes no action at all: delaying, taking the delayed turn, resistance checks. */
export const NO_ACTION: ActionDef[] = [
  {
    id: 'delay',
    label: 'Delay',
    type: 'none',
    oa: 'no',
    command: 'delay',
    rule: 'You cannot delay if you have already taken an action on your turn, or if you are unable to take actions',
  },
  {
    id: 'act-now',
    label: 'Take delayed turn',
    type: 'none',
    oa: 'no',
    command: 'act-now',
    rule: 'At any point after any other character in the conflict has acted, you can choose to take your turn',
  },
  {
    id: 'resistance-check',
    label: 'End turn (resistance checks are made then)',
    type: 'none',
    oa: 'no',
    command: 'turn.end',
    rule: 'certain die rolls like resistance checks, for example, are not considered actions at all',
    notes: 'made automatically at the end of your turn',
  },
];
