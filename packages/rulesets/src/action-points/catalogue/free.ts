import { free, type ActionDef } from './define.js';

/** Free actions (0 AP). */
export const FREE: ActionDef[] = [
  free(
    'cast-defensively',
    'Cast defensively',
    [],
    'Cast Defensively ... If you succeed, that spell loses the complex subtype for that casting. If you fail, you lose the spell.',
  ),
  free('cease-concentrating', 'Cease concentrating on a spell', ['thought'], 'Cease Concentrating on a Spell'),
  free('draw-nock', 'Draw and nock an arrow', [], 'Draw and Nock an Arrow ... used only immediately prior to making an attack with a bow.'),
  free('drop-item', 'Drop an item', [], 'Drop an Item'),
  free('drop-prone', 'Drop prone', [], 'Drop Prone: You drop prone within your space.'),
  free(
    'fight-defensively',
    'Fight defensively',
    ['thought'],
    'Fight Defensively: At the start of your round of actions ... -4 penalty on all attack rolls, ... +2 dodge bonus to AC',
  ),
  free('prepare-components', 'Prepare spell components or focus', [], 'Prepare Spell Components or a Spell Focus'),
  free('recall-knowledge', 'Recall knowledge', ['thought'], 'Recall Knowledge'),
  free('speak', 'Speak', ['thought', 'anytime'], "Speak ... this action can be taken even when on another creature's initiative"),
  free('free-ability', 'Use a free-action ability', [], 'Use a Free-Action Ability'),
  free(
    'five-foot-step',
    '5-foot step (full-round action)',
    [],
    'When taking a full-round action you may take a 5-foot step as a free action (for 0 AP) before, during, or after the action',
    {
      tags: ['path'],
    },
  ),
  free(
    'end-grapple',
    'End a grapple you initiated',
    [],
    'you must either take this action at the start of each subsequent round or end the grapple as a free action',
  ),
];
