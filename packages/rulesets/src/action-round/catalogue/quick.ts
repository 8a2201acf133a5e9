import { item, skill, target, type ActionDef } from './define.js';

/** The quick actions. */
export const QUICK: ActionDef[] = [
  {
    id: 'draw',
    label: 'Draw weapon',
    type: 'quick',
    oa: 'no',
    command: 'draw',
    template: { mode: 'draw' },
    params: [item],
    rule: 'Drawing and putting weapons away requires a quick action',
  },
  {
    id: 'sheathe',
    label: 'Sheathe weapon',
    type: 'quick',
    oa: 'no',
    command: 'draw',
    template: { mode: 'sheathe' },
    params: [item],
    rule: 'Drawing and putting weapons away requires a quick action',
  },
  {
    id: 'manipulate',
    label: 'Pick up or manipulate object',
    type: 'quick',
    oa: 'no',
    command: 'manipulate',
    params: [
      { ...item, optional: true },
      { name: 'description', kind: 'text', optional: true },
    ],
    rule: 'Picking up or manipulating an object requires a quick action',
  },
  {
    id: 'study',
    label: 'Study',
    type: 'quick',
    oa: 'no',
    command: 'study',
    params: [skill, { ...target, optional: true }],
    rule: 'learn something useful or interesting ... with an appropriate opposed Skill check as a quick action',
  },
  {
    id: 'stance',
    label: 'Stance',
    type: 'quick',
    oa: 'no',
    command: 'stance',
    params: [
      { name: 'penalty', kind: 'text' },
      { name: 'bonus', kind: 'text' },
    ],
    rule: 'Before you make an Attack on your turn, you can take between -1 to -5 Disadvantage ... and add the same number',
  },
  {
    id: 'switch-alternate',
    label: 'Switch alternate effect',
    type: 'quick',
    oa: 'no',
    command: 'switch-alternate',
    params: [
      // the choices (the combatant's powers, their alternates) come with its legal action
      { name: 'powerId', label: 'Power', kind: 'choice' },
      { name: 'alternate', label: 'Alternate effect', kind: 'choice' },
    ],
    rule: 'Switching between Alternate Effects of a power requires a quick action',
  },
];
