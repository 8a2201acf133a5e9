import { ruleError, type EngineError } from '@fray/engine';
import { RULE, type Row } from '../catalogue.js';
import { conditions, opts, type S } from '../state/index.js';

/** The rows of the table that need a state first: Stunned to recover, prone to stand, a started full-phase action to complete. */
export function checkActPrerequisite(s: S, id: string, rowId: string): EngineError | null {
  if (rowId === 'recover-stunned' && !conditions(s, id).includes('stunned')) {
    return ruleError('ILLEGAL_ACTION', RULE.stunned, 'Recover from being Stunned: this character is not Stunned.');
  }
  if (rowId === 'stand-up' && !conditions(s, id).includes('prone'))
    return ruleError('ILLEGAL_ACTION', RULE.prone, 'Stand up from prone: this character is not prone.');
  if (rowId === 'complete-full-phase' && !s.combatants[id]!.data.fullStarted) {
    return ruleError('ILLEGAL_ACTION', RULE.startFullPhase, 'No full-phase action has been started: start it with a move action first.');
  }
  return null;
}

/** "(though you can start or complete a full-phase action by using a move action)": name the one started. */
export function checkFullActionNamed(rowId: string, fullAction: string | undefined): EngineError | null {
  if (rowId === 'start-full-phase' && !fullAction)
    return ruleError('INVALID_COMMAND', RULE.startFullPhase, 'Name the full-phase action to start.');
  return null;
}

const ITEM_ROWS = ['draw-focus', 'retrieve-focus', 'pick-up'];

/** The item a focus or pick-up row names is the character's, and an item picked up lies on the ground. */
export function checkItem(s: S, id: string, rowId: string, itemId: string | undefined): EngineError | null {
  if (!ITEM_ROWS.includes(rowId) || !itemId) return null;
  const c = s.combatants[id]!;
  const it = c.items.find((i) => i.id === itemId);
  if (!it) return ruleError('INVALID_COMMAND', RULE.items, `${c.name} has no item "${itemId}".`);
  if (rowId === 'pick-up' && it.location !== 'ground') return ruleError('ILLEGAL_ACTION', RULE.items, `${it.name} is not on the ground.`);
  return null;
}

/** What a command may say about its provocation: a skill to roll, the GM's ruling. */
export interface ProvokeFields {
  skill?: string | undefined;
  negated?: boolean | undefined;
  provokes?: boolean | undefined;
}

/**
 * Who rules on a provocation: "Usually (varies)" is the GM's ruling; "Yes (skill check negates)"
 * is negated by a roll under a skill the character has (option `skillCheckNegates`) or by the GM.
 */
export function checkProvokeRuling(s: S, id: string, row: Row, cmd: ProvokeFields, gm: boolean): EngineError | null {
  const o = opts(s);
  if (row.provokes === 'varies') {
    if (cmd.provokes !== undefined && !gm)
      return ruleError('NOT_AUTHORIZED', RULE.usuallyVaries, '"Usually (varies)": whether this provokes is the GM\'s ruling.');
    return null;
  }
  if (row.provokes !== 'skill') return null;
  if (cmd.negated !== undefined) {
    if (!gm || o.skillCheckNegates === 'never')
      return ruleError('NOT_AUTHORIZED', RULE.skillCheckNegates, 'Only the GM rules that a skill check negates the attack of opportunity.');
    return null;
  }
  if (cmd.skill === undefined) return null;
  if (o.skillCheckNegates !== 'roll')
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.skillCheckNegates,
      "Skill checks against attacks of opportunity are the GM's call in this encounter.",
    );
  const c = s.combatants[id]!;
  if (c.stats.skills[cmd.skill] === undefined)
    return ruleError('ILLEGAL_ACTION', RULE.skillCheckNegates, `${c.name} has no skill "${cmd.skill}".`);
  return null;
}
