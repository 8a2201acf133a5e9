import { ruleError, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue.js';
import { defenseLoad, outnumberedDice } from '../mechanics/defense.js';
import type { Breakout } from '../mechanics/space.js';
import { hasCond, membersOfGroup, opts, type GroupDefense, type LCombatant, type LState } from '../state/index.js';

/** Every "why not" of group defense: who declares, when, who may be protected, how many. */

/** Declaring: a grouped-up character, at the end of the movement phase (or when fallen defenders force a new choice). */
export function checkDeclareDefense(s: LState, c: LCombatant, g: string | null, added: readonly string[]): EngineError | null {
  if (!g) return ruleError('ILLEGAL_ACTION', RULE.groupDefense, `${c.name} is not grouped-up: groups "gain access to group defense".`);
  if (s.rs.overflow.includes(g)) {
    if (added.length === 0) return null;
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.groupDefenseFallenDefenders,
      'After defenders fall the group chooses "who to prioritize and keep defending": nobody new.',
    );
  }
  if (s.clock.phase !== 'group-defense' || !s.rs.queue.includes(g)) {
    return ruleError(
      'WRONG_PHASE',
      RULE.groupDefenseTiming,
      '"Which characters or objects are defended via group defense must be decided at the end of the movement phase."',
    );
  }
  return null;
}

/** Who may be protected, and "a group can protect 1/3 of its members via group defense". */
export function checkDefense(s: LState, g: string, d: GroupDefense): EngineError | null {
  const members = membersOfGroup(s, g);
  for (const id of d.protected) {
    const m = members.find((x) => x.id === id);
    if (!m) return ruleError('ILLEGAL_ACTION', RULE.groupDefense, `${s.combatants[id]?.name ?? id} is not in the group.`);
    if (m.data.carriedBy)
      return ruleError('ILLEGAL_ACTION', RULE.carrying, '"You do not count for group defense nor for outnumbering dice" while carried.');
    // "Characters already in a grapple cannot begin to be defended via group defense"
    if (hasCond(s, id, ['grappled', 'grappling']) && !(s.rs.defense[g]?.protected.includes(id) ?? false)) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.groupDefenseGrapple,
        '"Characters already in a grapple cannot begin to be defended via group defense"',
      );
    }
  }
  const { load, defenders, ratio } = defenseLoad(s, g, d);
  if (load * ratio <= defenders * 4) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.groupDefenseRatio,
    `"a group can protect 1/3 of its members via group defense (that is, 1 protected character per 2 non-protected characters)": ${defenders} defender(s) at 1:${ratio} cannot protect ${load / 4} character(s).`,
  );
}

/** The GM breaks down a group defense there is. */
export function checkBreakDefense(s: LState, group: string): EngineError | null {
  return s.rs.defense[group] ? null : ruleError('INVALID_COMMAND', RULE.groupDefense, `Group "${group}" has no group defense.`);
}

/** Breakout tactics' "Remove 1 Hindrance" on a roll with nothing it may remove: refused, and nothing is spent. */
export function checkRemoveHindrance(
  s: LState,
  c: LCombatant,
  base: number,
  breakout: Breakout | undefined,
  uncontested = false,
): EngineError | null {
  if (!breakout?.removeHindrance) return null;
  const od = outnumberedDice(s, c, base, breakout, uncontested);
  if (od.removable > 0) return null;
  const what =
    opts(s).breakoutRemovesHindrance === 'roll'
      ? 'this roll has no Hindrance'
      : `the outnumbering dice give no Hindrance (${od.mine} against ${od.theirs})`;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.breakoutRemoveHindrance,
    `Breakout tactics' "Remove 1 Hindrance" has nothing to remove: ${what}. Nothing was spent.`,
  );
}
