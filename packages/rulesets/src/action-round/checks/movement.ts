import { chebyshev, ruleError, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue/index.js';
import { cond, effectsOn, occupant, posOf, type C, type Square, type State } from '../state/index.js';

/** Why a movement may not happen: paths, prone, split moves, charge, escape, stand. */

/** A path of adjacent squares from where `c` stands, at most `max` long, through allies only, ending on a free square. */
export function checkPath(s: State, c: C, p: Square[], max: number, rule: string): EngineError | null {
  const start = posOf(c);
  if (!start) return ruleError('ILLEGAL_ACTION', rule, `${c.name} is not on the grid.`);
  if (p.length > max) return ruleError('ILLEGAL_ACTION', rule, `${p.length} squares is more than the ${max} this movement allows.`);
  let prev = start;
  for (let i = 0; i < p.length; i++) {
    const step = p[i]!;
    if (chebyshev(prev, step) !== 1)
      return ruleError('INVALID_COMMAND', rule, `Square ${i + 1} (${step.x},${step.y}) is not adjacent to the previous one.`);
    const occ = occupant(s, step, c.id);
    if (occ && (occ.side !== c.side || i === p.length - 1))
      return ruleError('ILLEGAL_ACTION', rule, `(${step.x},${step.y}) is occupied by ${occ.name}.`);
    prev = step;
  }
  return null;
}

/** "While prone, you can only move by crawling." (and crawling is only for the prone) */
export function checkMoveMode(s: State, c: C, mode: string): EngineError | null {
  const prone = cond(s, c.id, 'prone');
  if (prone && mode !== 'crawl') return ruleError('ILLEGAL_ACTION', RULE.crawl, '"While prone, you can only move by crawling."');
  if (!prone && mode === 'crawl') return ruleError('ILLEGAL_ACTION', RULE.crawl, 'Crawling is how you move while prone; you are standing.');
  return null;
}

/** "You cannot, however, normally split up your move action before and after your standard action." */
export function checkSplit(c: C): EngineError | null {
  const open = c.data.move;
  if (!open || !open.afterStandard || open.remaining <= 0) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.noSplitMove,
    '"You cannot, however, normally split up your move action before and after your standard action."',
  );
}

/** "in a relatively straight line towards your target": every square closer, ending within reach. */
export function checkChargeLine(c: C, t: C, p: Square[], max: number): EngineError | null {
  const pc = posOf(c);
  const pt = posOf(t);
  if (!pc || !pt) return ruleError('ILLEGAL_ACTION', RULE.charge, 'Both characters must be on the grid.');
  if (p.length === 0)
    return ruleError('ILLEGAL_ACTION', RULE.charge, '"You rush forward to attack": a charge needs at least one square of movement.');
  let prev = chebyshev(pc, pt);
  for (const step of p) {
    const d = chebyshev(step, pt);
    if (d >= prev)
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.charge,
        '"in a relatively straight line towards your target": every square must bring you closer.',
      );
    prev = d;
  }
  if (prev > c.stats.reach)
    return ruleError('ILLEGAL_ACTION', RULE.charge, `The charge ends out of reach of ${t.name} (speed ${max} squares).`);
  return null;
}

/** ESCAPE: "Make a Might or Acrobatics skill check opposed by ..." the grabber: only when grabbed. */
export function checkGrabbed(s: State, c: C): EngineError | null {
  const grab = effectsOn(s, c.id, 'grab')[0];
  return grab && grab.sourceId ? null : ruleError('ILLEGAL_ACTION', RULE.escape, `${c.name} is not grabbed.`);
}

/** "You stand up from a prone position." */
export function checkProne(s: State, c: C): EngineError | null {
  return cond(s, c.id, 'prone') ? null : ruleError('ILLEGAL_ACTION', RULE.stand, `${c.name} is not prone.`);
}

/** "Dropping to a prone position": not when already prone. */
export function checkNotProne(s: State, c: C): EngineError | null {
  return cond(s, c.id, 'prone') ? ruleError('ILLEGAL_ACTION', RULE.drop, `${c.name} is already prone.`) : null;
}
