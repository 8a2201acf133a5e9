import { ruleError, type EngineError, type ReactionWindow } from '@fray/engine';
import { RULE } from '../catalogue/index.js';
import { rangeWhy } from '../mechanics/combat.js';
import { threatens } from '../mechanics/space.js';
import type { Options } from '../options.js';
import { movedThisRound, posOf, type AttackKind, type C, type State } from '../state/index.js';
import { checkReadiedWaits } from './turn.js';

/** Why an attack, a stunt, an assist or a reaction attack may not happen. */

/** A combatant to act on: it exists, and (with `self`) it is not the actor. */
export function checkTarget(s: State, id: string | undefined, self?: C): EngineError | null {
  const t = id === undefined ? undefined : s.combatants[id];
  if (!t) return ruleError('UNKNOWN_TARGET', RULE.targets, `No combatant "${String(id)}".`);
  if (self && t.id === self.id) return ruleError('ILLEGAL_ACTION', RULE.targets, 'You cannot target yourself with that.');
  return null;
}

/** Both on the grid (charge, influence). */
export function checkOnGrid(a: C, t: C, rule: string): EngineError | null {
  return posOf(a) && posOf(t) ? null : ruleError('ILLEGAL_ACTION', rule, 'Both characters must be on the grid.');
}

/** The reach, range or conversation condition of the attack kind (catalogue: attack-close, -ranged, -court, -rumor). */
export function checkAttackRange(o: Options, a: C, t: C, kind: AttackKind): EngineError | null {
  const why = rangeWhy(o, a, t, kind);
  return why ? ruleError('ILLEGAL_ACTION', RULE.attack[kind], `${t.name} is not a legal target for a ${kind} attack: ${why}.`) : null;
}

/** SLAM: "When you move before an attack, you can slam right into your target". */
export function checkSlam(s: State, c: C): EngineError | null {
  return movedThisRound(s, c)
    ? null
    : ruleError(
        'ILLEGAL_ACTION',
        RULE.slam,
        '"When you move before an attack, you can slam right into your target": you have not moved this round.',
      );
}

/**
 * OPPORTUNITY ATTACK: only in the window a provoking action opened, against the provoker's square.
 * A readied character is never offered one: "until you take your readied action, you cannot take
 * any other Reactions" (checked first, so it is the refusal whether a window is open or not).
 */
export function checkOpportunityAttack(s: State, o: Options, c: C): EngineError | null {
  const w = s.reaction;
  const mover = w?.trigger.combatantId ? s.combatants[w.trigger.combatantId] : undefined;
  const p = mover ? posOf(mover) : null;
  if (c.data.readied && (!p || threatens(s, o, c, p))) return checkReadiedWaits(c);
  if (!w || w.kind !== RULE.opportunityAttack)
    return ruleError('ILLEGAL_ACTION', RULE.opportunityAttack, 'Nothing provoked an opportunity attack.');
  if (!mover || !p) return ruleError('UNKNOWN_TARGET', RULE.opportunityAttack, 'The provoking character is gone.');
  if (!threatens(s, o, c, p))
    return ruleError('ILLEGAL_ACTION', RULE.opportunityAttack, `${c.name} does not threaten ${mover.name}'s square.`);
  return null;
}

/** COUNTER-STUNT: "If you lose the opposed check, the defender may immediately make an attempt to use a Stunt on you as a Reaction". */
export function checkCounterStunt(w: ReactionWindow | null): EngineError | null {
  if (w && w.kind === RULE.counterStunt && w.trigger.combatantId) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.counterStunt,
    '"If you lose the opposed check, the defender may immediately make an attempt": no stunt against you has just failed.',
  );
}

/** READY: "you may take the readied action as a Reaction to that trigger". */
export function checkReadiedTrigger(s: State, c: C): EngineError | null {
  if (!c.data.readied) return ruleError('ILLEGAL_ACTION', RULE.ready, `${c.name} has no readied action.`);
  if (s.reaction?.kind !== RULE.readied)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.ready,
      '"you may take the readied action as a Reaction to that trigger": the trigger has not happened.',
    );
  return null;
}

/** ASSIST: an ally, and (aid, coordinate, distract) "If you are in position to do so". */
export function checkAlly(c: C, ally: C): EngineError | null {
  return ally.side === c.side ? null : ruleError('ILLEGAL_ACTION', RULE.assist, `${ally.name} is not an ally.`);
}
export function checkAssistReach(o: Options, c: C, t: C): EngineError | null {
  if (rangeWhy(o, c, t, 'close') === null || rangeWhy(o, c, t, 'ranged') === null) return null;
  return ruleError('ILLEGAL_ACTION', RULE.assist, `"If you are in position to do so": ${t.name} is out of your reach and range.`);
}
/** "but must delay to the same point in the initiative order to do so" */
export function checkAssistDelay(s: State, c: C, ally: C): EngineError | null {
  const order = s.clock.order;
  if (order[order.indexOf(c.id) + 1] === ally.id) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.assistDelay,
    `To assist ${ally.name}'s skill check you "must delay to the same point in the initiative order": delay, then act just before ${ally.name}.`,
  );
}

/** AIM: "Once you aim, your next attack must be to attack the creature you were aiming at". */
export function checkAimTarget(s: State, c: C, t: C): EngineError | null {
  if (!c.data.aim || c.data.aim.targetId === t.id) return null;
  const at = s.combatants[c.data.aim.targetId]?.name ?? 'someone else';
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.aimTarget,
    `"Once you aim, your next attack must be to attack the creature you were aiming at": ${c.name} is aiming at ${at}. Attack that target, or let the aim lapse.`,
  );
}
/** MAINTAIN AIM: "it requires a free action to maintain your aim": once a turn, while aiming. */
export function checkMaintainAim(c: C): EngineError | null {
  if (!c.data.aim) return ruleError('ILLEGAL_ACTION', RULE.aim, `${c.name} is not aiming.`);
  if (c.data.aim.maintainedTurn === c.data.turnsTaken) return ruleError('ILLEGAL_ACTION', RULE.aim, 'The aim is already held this turn.');
  return null;
}

type StanceSide = { on: 'attack' | 'defense' | 'effect'; n: number };
/** STANCE: "Before you make an Attack on your turn, you can take between -1 to -5 Disadvantage ... and add the same number". */
export function checkStance(c: C, pen: StanceSide, bon: StanceSide): EngineError | null {
  if (c.data.attackedThisTurn)
    return ruleError('ILLEGAL_ACTION', RULE.stance, '"Before you make an Attack on your turn": you have already attacked.');
  if (pen.n !== bon.n) return ruleError('ILLEGAL_ACTION', RULE.stance, '"add the same number (+1 to +5) as Advantage".');
  if (pen.on === bon.on) return ruleError('ILLEGAL_ACTION', RULE.stance, 'The penalty and the bonus must be on different things.');
  return null;
}

/** TRICK: "opposed by the better of any two skills of your choice so long as each is of a different ability, but all must come from the same ability group". */
export function checkTrick(o: Options, skill: string, opposing: [string, string], condition: string): EngineError | null {
  const map = o.skillAbilities;
  const mine = map[skill.toLowerCase()];
  const sa = map[opposing[0].toLowerCase()];
  const sb = map[opposing[1].toLowerCase()];
  if (!mine || !sa || !sb) return ruleError('ILLEGAL_ACTION', RULE.trick, 'Trick skills must be listed in the skillAbilities option.');
  if (sa.ability === sb.ability)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.trick,
      '"the better of any two skills of your choice so long as each is of a different ability".',
    );
  if (sa.group !== sb.group || mine.group !== sa.group)
    return ruleError('ILLEGAL_ACTION', RULE.trick, '"but all must come from the same ability group".');
  if (!o.lesserConditions.includes(condition))
    return ruleError('ILLEGAL_ACTION', RULE.trick, `"a lesser condition of your choice": ${o.lesserConditions.join(', ')}.`);
  return null;
}
