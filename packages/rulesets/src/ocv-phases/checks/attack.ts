import { hexDistance, ruleError, type EngineError, type Hex } from '@fray/engine';
import { AOO_IDS, ROW, RULE } from '../catalogue.js';
import { lineOfSight } from '../mechanics/combat-values.js';
import { incapable, opts, pos, stunned, unawareNow, type S } from '../state/index.js';

/** "You can strike any adjacent opponent with a melee attack. You can fire at any target that is within the attack's maximum range and in line of sight with a ranged attack." */
export function checkTarget(s: S, id: string, targetId: string, ranged: number | null, from?: Hex): EngineError | null {
  const t = s.combatants[targetId];
  if (!t) return ruleError('UNKNOWN_TARGET', RULE.attack, `No target "${targetId}".`);
  if (targetId === id) return ruleError('ILLEGAL_ACTION', RULE.attack, 'A character cannot attack itself.');
  const a = from ?? pos(s, id);
  const b = pos(s, targetId);
  if (!a || !b) return ruleError('ILLEGAL_ACTION', RULE.hexes, 'Both characters must be on the map.');
  const dist = hexDistance(a, b);
  if (ranged === null) {
    const reach = s.combatants[id]!.stats.reach;
    if (dist > reach)
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.meleeReach,
        `You can strike any adjacent opponent with a melee attack (reach ${reach}; ${t.name} is ${dist} hexes away).`,
      );
    return null;
  }
  if (dist > ranged)
    return ruleError('ILLEGAL_ACTION', RULE.ranged, `${t.name} is ${dist} hexes away, beyond the attack's maximum range of ${ranged}.`);
  if (!lineOfSight(s, a, b)) return ruleError('ILLEGAL_ACTION', RULE.lineOfSight, `${t.name} is not in line of sight.`);
  return null;
}

const MELEE_ONLY = new Set(['grab', 'disarm', 'sweep', 'haymaker']);

/** The targets named for a manoeuvre: one (several for Rapid Fire and Sweep), each distinct; melee manoeuvres have no range. */
export function checkTargetList(rowId: string, targets: string[], range: number | null): EngineError | null {
  const row = ROW[rowId]!;
  if (targets.length === 0) return ruleError('INVALID_COMMAND', RULE.attack, 'Name the target.');
  if (!row.multi && targets.length > 1) return ruleError('INVALID_COMMAND', RULE.attack, `${row.label} has a single target.`);
  if (new Set(targets).size !== targets.length) return ruleError('INVALID_COMMAND', RULE.attack, 'A target is named twice.');
  if (range !== null && MELEE_ONLY.has(rowId)) return ruleError('ILLEGAL_ACTION', RULE.meleeReach, `${row.label} is a melee manoeuvre.`);
  if (rowId === 'rapid-fire' && range === null)
    return ruleError('INVALID_COMMAND', RULE.ranged, 'Rapid Fire is a ranged attack: give its range.');
  return null;
}

/** Move By and Move Through name the opponent they pass. */
export function checkMoveTarget(s: S, rowId: string, targetId: string | undefined): EngineError | null {
  if (rowId !== 'move-by' && rowId !== 'move-through') return null;
  if (!targetId || !s.combatants[targetId]) return ruleError('INVALID_COMMAND', RULE.attack, `${ROW[rowId]!.label}: name the opponent.`);
  return null;
}

/** Why this character cannot make an attack of opportunity now (regardless of the opportunity). */
export function checkCanAoo(s: S, id: string): EngineError | null {
  const c = s.combatants[id]!;
  if (c.data.dodging)
    return ruleError('ILLEGAL_ACTION', RULE.aooDodge, 'You cannot make an attack of opportunity if you have used the dodge manoeuvre.');
  if (incapable(s, id) || stunned(s, id)) return ruleError('ILLEGAL_ACTION', RULE.incapable, 'This character cannot act.');
  if (unawareNow(s, id))
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.surprise,
      "Characters who are unaware at the start of battle don't get to act in the Surprise Phase.",
    );
  const limit = c.stats.combatReflexes ? opts(s).combatReflexesLimit || Infinity : 1;
  if (c.data.aoos >= limit) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.aooOnePerPhase,
      c.stats.combatReflexes
        ? `Combat Reflexes: at most ${limit} attacks of opportunity a Phase here.`
        : 'An attack of opportunity is a single melee attack, and you can only make one per Phase.',
    );
  }
  return null;
}

/** An attack of opportunity is made only in a window that offers this character one. */
export function checkAooOffered(s: S, id: string): EngineError | null {
  const w = s.reaction;
  if (!w || w.kind !== 'ocv-phases.attack-of-opportunity' || w.responses[id] !== 'pending') {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.aooOpportunity,
      'An attack of opportunity is made only when an enemy provokes one from you (leaving a hex you threaten, or a distracting action in it).',
    );
  }
  return null;
}

/** "You make your attack of opportunity with any manoeuvre that requires an attack roll" (a single melee attack). */
export function checkAooManoeuvre(rowId: string): EngineError | null {
  if (AOO_IDS.includes(rowId)) return null;
  const label = ROW[rowId]?.label ?? rowId;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.aooManoeuvre,
    `You make your attack of opportunity with any manoeuvre that requires an attack roll (a single melee attack): ${label} is not one (use ${AOO_IDS.join(', ')}).`,
  );
}
