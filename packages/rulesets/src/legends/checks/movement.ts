import { ruleError, type Actor, type Command, type EngineError, type ReactionWindow } from '@fray/engine';
import { watchedBy } from '../flow/rounds.js';
import { breakoutDegrees, type Breakout } from '../mechanics/space.js';
import {
  isEnemy,
  membersOfEngagement,
  membersOfGroup,
  opts,
  posOf,
  type LCombatant,
  type LState,
  type PendingMove,
  type Position,
} from '../state/index.js';
import { RULE } from '../catalogue.js';

/** Every "why not" of the movement phase: who decides, where to, the roll, rushing, reactive and grouped-up movement. */

const REACT_EARLIER =
  '"You cannot prepare reactive movement in relation to characters earlier than you in turn order (in other words, you cannot react to reactive movement)."';
const NO_RUSH = '"You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."';

/** "all characters (beginning with the topmost in turn order and proceeding down the list) decide whether or not to move" */
export function checkMovementDecider(s: LState, id: string): EngineError | null {
  if (s.clock.phase !== 'movement') return ruleError('WRONG_PHASE', RULE.movementPhase, 'Movement happens in the movement phase.');
  if (s.rs.pending.length > 0) {
    const name = s.combatants[s.rs.pending[0]!.combatantId]?.name;
    return ruleError('NOT_YOUR_TURN', RULE.movement, `Waiting for ${name} to finish their movement.`);
  }
  if (s.rs.queue[0] === id) return null;
  const why = s.rs.movers.includes(id)
    ? '"all characters (beginning with the topmost in turn order and proceeding down the list) decide whether or not to move"'
    : 'this character has no movement this phase ("There is no movement phase during the first round of combat" unless an entire side is surprised; carried and fallen characters do not move on their own).';
  return ruleError('NOT_YOUR_TURN', RULE.movementOrder, `It is not ${s.combatants[id]?.name}'s movement decision: ${why}`);
}

/** A move of one's own while the group is moving together; uncontested escapes are the GM's to grant. */
export function checkOwnMove(groupMoving: boolean, by: Actor, uncontested: boolean | undefined): EngineError | null {
  if (groupMoving) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.groupedMovement,
      'Your group is moving together: agree (groupMove) or stay ("If there is any lengthy disagreement about the group\'s movement choices, the entire group fails to move").',
    );
  }
  if (uncontested && by.role === 'player')
    return ruleError('NOT_AUTHORIZED', RULE.outnumbering, 'Only the GM says the enemy does not wish to interfere.');
  return null;
}

/** A zone the GM defined. */
export function checkZone(s: LState, zone: string): EngineError | null {
  return s.rs.zones[zone] ? null : ruleError('INVALID_COMMAND', RULE.zones, `No zone "${zone}".`);
}

/** Joining a character: someone else who is there; an enemy's engagement, an ally's group. */
export function checkJoin(
  c: LCombatant,
  t: LCombatant | undefined,
  joinId: string | undefined,
  mode: 'group' | 'engage' | 'near',
): EngineError | null {
  if (!t || t.id === c.id) return ruleError('UNKNOWN_TARGET', RULE.movement, `No one "${joinId}" to move to.`);
  if (mode === 'engage' && !isEnemy(c, t)) return ruleError('ILLEGAL_ACTION', RULE.engagement, `${t.name} is not an enemy.`);
  if (mode === 'group' && isEnemy(c, t)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.grouping,
      '"Allied characters keeping in close proximity to one another are referred to as grouped-up."',
    );
  }
  return null;
}

/** The group or engagement an arrival makes stays within its size ("cannot usually be larger than 10"). */
export function checkArrivalSizes(s: LState, to: Position, out: readonly { id: string; to: Position }[]): EngineError | null {
  const o = opts(s);
  if (to.group) {
    const ids = new Set([...membersOfGroup(s, to.group).map((x) => x.id), ...out.filter((x) => x.to.group === to.group).map((x) => x.id)]);
    if (ids.size > o.maxGroupSize)
      return ruleError('ILLEGAL_ACTION', RULE.grouping, `A group "cannot usually be larger than ${o.maxGroupSize}".`);
  }
  if (to.engagement) {
    const e = to.engagement;
    const ids = new Set([...membersOfEngagement(s, e).map((x) => x.id), ...out.filter((x) => x.to.engagement === e).map((x) => x.id)]);
    if (ids.size > o.maxEngagementSize) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.engagement,
        `"Very large engagements of more than ${o.maxEngagementSize} characters should be split up"`,
      );
    }
  }
  return null;
}

/** A movement roll: a movement that needs one, within medium range, not carried, into no area an enemy group guards. */
export function checkMovementRoll(s: LState, c: LCombatant, to: Position, steps: number): EngineError | null {
  if (steps === 0) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.movement,
      '"You do not need to roll dice or observe any rules for minor movements, such as darting between grouped-up allies or engaged enemies."',
    );
  }
  if (!Number.isFinite(steps)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.movementRange,
      'That is more than a medium-range movement away ("Long range ... describes distances at least 1 zone apart").',
    );
  }
  if (c.data.carriedBy)
    return ruleError('ILLEGAL_ACTION', RULE.carrying, '"You may not do any major actions nor make any SPD rolls while being carried"');
  return checkGuardedArea(s, c, to);
}

/**
 * "If the enemy is using group defense to ... prevent access to an area, bypassing group defense allows you to ... move
 * into the blocked area during the next round's movement phase."
 */
function checkGuardedArea(s: LState, c: LCombatant, to: Position): EngineError | null {
  const area = to.area;
  if (area === null) return null;
  for (const [g, d] of Object.entries(s.rs.defense)) {
    const m = membersOfGroup(s, g)[0];
    if (!m || !isEnemy(c, m) || posOf(m).zone !== to.zone || !d.objects.some((o) => o.area === area)) continue;
    if (c.data.bypassedRound !== s.clock.round - 1) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.groupDefenseArea,
        `${m.name}'s group prevents access to ${area}: bypass their group defense in the action phase first.`,
      );
    }
  }
  return null;
}

/** Breakout tactics only on a roll outnumbering dice affect. */
export function checkBreakoutUse(escaping: boolean, breakout: Breakout | undefined): EngineError | null {
  if (escaping || breakoutDegrees(breakout) === 0) return null;
  return ruleError('ILLEGAL_ACTION', RULE.breakout, 'Breakout tactics apply only to rolls affected by outnumbering dice.');
}

/** "You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury." */
export function checkRush(c: LCombatant, rush: 'self' | 'external'): EngineError | null {
  if (c.stats.encumbrance >= 2 || c.stats.mobilityInjury > 0) return ruleError('ILLEGAL_ACTION', RULE.rushing, NO_RUSH);
  if (rush === 'external' && c.stats.externalSPD <= 0)
    return ruleError('ILLEGAL_ACTION', RULE.rushing, 'No SPD from an outside source to rush with.');
  return null;
}

/** Finishing a movement: one's own roll, and the first one waiting (a group's members finish in any order). */
export function checkFinishMove(s: LState, id: string, p: PendingMove | undefined): EngineError | null {
  if (!p) return ruleError('ILLEGAL_ACTION', RULE.movement, `${s.combatants[id]!.name} has no movement roll to finish.`);
  if (!p.group && s.rs.pending.find((x) => !x.finished)?.combatantId !== id) {
    return ruleError('NOT_YOUR_TURN', RULE.movement, 'Another movement is being finished first.');
  }
  return null;
}

/** "If your roll result in normal movement is such that you would be able to rush for increased distance (but you did not rush), you may prepare a rush as reactive movement" */
export function checkPrepareRush(s: LState, c: LCombatant, p: PendingMove, rush: 'none' | 'self' | 'external'): EngineError | null {
  if (rush !== 'none' || p.margin + c.stats.SPD < opts(s).rushMediumMargin || p.reactive) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.reactiveMovement,
      'A rush can be prepared only when you could have rushed for increased distance but did not.',
    );
  }
  return checkRush(c, 'self');
}

/** "The other character must be below you in turn order" / "Groups may prepare reactive movement in relation to characters later than their last character" */
export function checkWatch(s: LState, ids: readonly string[], watch: string): EngineError | null {
  const order = s.clock.order;
  const last = Math.max(...ids.map((id) => order.indexOf(id)));
  const w = order.indexOf(watch);
  return w < 0 || w <= last ? ruleError('ILLEGAL_ACTION', RULE.reactiveMovement, REACT_EARLIER) : null;
}

/** Reactive movement answers "a later character's movement": one still to decide. */
export function checkWatchStillToMove(s: LState, watch: string): EngineError | null {
  if (s.rs.queue.includes(watch)) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.reactiveMovement,
    'Reactive movement answers "a later character\'s movement": that character has no movement decision left.',
  );
}

/** Grouped-up movement and reactions prepared as a group: "Characters who are grouped-up can move together, if all agree to do so." */
export function checkGrouped(c: LCombatant, quote: boolean): EngineError | null {
  if (posOf(c).group) return null;
  const why = quote ? '"Characters who are grouped-up can move together, if all agree to do so."' : `${c.name} is not grouped-up.`;
  return ruleError('ILLEGAL_ACTION', RULE.groupedMovement, why);
}

/** A group moves together only while every member is still to decide. */
export function checkGroupStillToMove(s: LState, members: readonly string[]): EngineError | null {
  if (!members.some((m) => !s.rs.queue.includes(m))) return null;
  return ruleError('ILLEGAL_ACTION', RULE.groupedMovement, 'Some members already decided their movement this phase.');
}

/**
 * A reactive movement from someone who prepared none for the movement that opened the window: "you may prepare reactive
 * movement as a response to a later character's movement" (in the movement phase, before it happens).
 */
export function noPreparedReaction(s: LState, c: LCombatant, w: ReactionWindow | null): EngineError {
  const watched = w ? (watchedBy(w) ?? [w.trigger.combatantId]) : [];
  const names = watched.flatMap((id) => (id === null ? [] : [s.combatants[id]?.name ?? id]));
  const whom = names.length > 0 ? ` against ${names.join(', ')}'s movement` : ' for this';
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.reactiveMovement,
    `${c.name} prepared no reactive movement${whom}: "you may prepare reactive movement as a response to a later character's movement", and only a prepared reaction may answer it.`,
  );
}

/** The engine's hook for a reaction from someone the open window does not ask: a `react` names the reactive movement rule. */
export function refuseReaction(s: LState, command: Command): EngineError | null {
  const c = typeof command.combatantId === 'string' ? s.combatants[command.combatantId] : undefined;
  const w = s.reaction;
  if (command.type !== 'react' || !c || w?.kind !== 'legends.reactive-movement') return null;
  const answered = w.responses[c.id];
  if (answered === 'passed') {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.reactiveMovement,
      `${c.name} declined this reactive movement already: "You may always decline to use a reaction you've prepared".`,
    );
  }
  if (answered === 'reacted') return ruleError('ILLEGAL_ACTION', RULE.reactiveMovement, `${c.name} used this reactive movement already.`);
  return noPreparedReaction(s, c, w);
}
