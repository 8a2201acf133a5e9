import { chebyshev, ruleError, squareLine, type EngineError } from '@fray/engine';
import { RULE, actionDef } from '../catalogue/index.js';
import { isRanged, reachOf, shapeOf, weaponOf, type Shape } from '../mechanics/shape.js';
import { occupied } from '../mechanics/threat.js';
import { alive, hasCond, posOf, type ActParams, type C, type S, type Sq } from '../state.js';

/** The "why not" of an action's parameters: its target, weapon, path and readied action. */

const HELPLESS = ['helpless', 'unconscious', 'paralyzed', 'sleeping', 'pinned'];

interface PathRules {
  /** "directly toward" / "in a straight line": the rule of the action that says so */
  straight?: string;
  /** "If anything hinders or blocks your movement along the path of a charge, you can't take the charge action" */
  clear?: string;
  passThrough?: string | undefined;
}

/** A path: each square adjacent to the one before, no more than `max` squares, not through foes, ending in a free square. */
function checkPath(s: S, c: C, path: Sq[], max: number, opts: PathRules = {}): EngineError | null {
  const start = posOf(c);
  if (!start) return ruleError('ILLEGAL_ACTION', RULE.movement, `${c.name} is not on the map.`);
  if (path.length > max) return ruleError('ILLEGAL_ACTION', RULE.movement, `At most ${max} squares (${max * 5} feet) with this action.`);
  let prev = start;
  for (const sq of path) {
    if (chebyshev(prev, sq) !== 1)
      return ruleError('INVALID_COMMAND', RULE.movement, 'Each square of the path must be adjacent to the one before.');
    const o = occupied(s, sq, c.id);
    if (o && o.side !== c.side && o.id !== opts.passThrough)
      return ruleError('ILLEGAL_ACTION', RULE.movement, `${o.name} blocks the path.`);
    if (o && opts.clear) {
      return ruleError(
        'ILLEGAL_ACTION',
        opts.clear,
        `"If anything hinders or blocks your movement along the path of a charge, you can't take the charge action": ${o.name} is in the way.`,
      );
    }
    prev = sq;
  }
  const end = path[path.length - 1]!;
  const o = occupied(s, end, c.id);
  if (o) return ruleError('ILLEGAL_ACTION', RULE.movement, `${o.name} occupies the destination.`);
  if (opts.straight) {
    const line = squareLine(start, end).slice(1);
    if (line.length !== path.length || line.some((q, i) => q.x !== path[i]!.x || q.y !== path[i]!.y)) {
      return ruleError('ILLEGAL_ACTION', opts.straight, 'This movement must follow a straight line.');
    }
  }
  return null;
}

function checkTarget(s: S, c: C, sh: Shape, p: ActParams): EngineError | null {
  const def = sh.def;
  if (def.tags.includes('target') && def.id !== 'aid-another' && !p.targetId)
    return ruleError('INVALID_COMMAND', RULE.target, `${def.label} needs a target (targetId).`);
  if (!p.targetId) return null;
  const target = s.combatants[p.targetId];
  if (!target) return ruleError('UNKNOWN_TARGET', RULE.target, `No combatant "${p.targetId}".`);
  if (target.id === c.id && def.id !== 'remove-dirty-trick')
    return ruleError('ILLEGAL_ACTION', RULE.target, 'You cannot target yourself with this action.');
  const needsDown = def.id === 'coup-de-grace' || def.id === 'administer-potion';
  if (def.id === 'coup-de-grace' && !(target.data.hp <= 0 || HELPLESS.some((h) => hasCond(s, target.id, h)))) {
    return ruleError('ILLEGAL_ACTION', RULE.coupDeGrace, `"a helpless foe": ${target.name} is not helpless.`);
  }
  if (!needsDown && def.id !== 'first-aid' && !alive(target)) return ruleError('ILLEGAL_ACTION', RULE.target, `${target.name} is down.`);
  return null;
}

function checkWeapon(c: C, sh: Shape, p: ActParams, target: C | undefined): EngineError | null {
  const def = sh.def;
  const weaponed = def.tags.includes('weapon') || def.tags.includes('maneuver') || def.id === 'coup-de-grace';
  const w = def.tags.includes('weapon') || def.tags.includes('natural') ? weaponOf(c, p.weaponId, def.tags.includes('natural')) : undefined;
  if (p.weaponId && !c.stats.weapons.some((x) => x.id === p.weaponId))
    return ruleError('INVALID_COMMAND', RULE.weapon, `No weapon "${p.weaponId}".`);
  if (w && (w.kind === 'crossbow' || w.kind === 'firearm') && c.data.unloaded.includes(w.id) && def.tags.includes('weapon')) {
    return ruleError('ILLEGAL_ACTION', RULE.load, `${w.name} is not loaded.`);
  }
  if (weaponed && target && !(w && isRanged(w) && def.tags.includes('weapon'))) {
    const pos = posOf(c);
    const tpos = posOf(target);
    const reach = def.id === 'steal' ? c.stats.reach : reachOf(c);
    if (!pos || !tpos || chebyshev(pos, tpos) > Math.max(1, reach)) {
      if (def.id !== 'charge' && def.id !== 'overrun')
        return ruleError('ILLEGAL_ACTION', RULE.reach, `${target.name} is not within ${c.name}'s melee reach.`);
    }
  }
  return null;
}

function checkMove(s: S, c: C, sh: Shape, p: ActParams, target: C | undefined): EngineError | null {
  const def = sh.def;
  if (!p.path) return ruleError('INVALID_COMMAND', RULE.movement, `${def.label} needs a path of squares.`);
  const speedSquares = Math.floor(c.stats.speed / 5);
  const max =
    def.id === 'charge'
      ? 2 * speedSquares
      : def.id === 'run'
        ? 4 * speedSquares
        : def.id === 'step' || def.id === 'five-foot-step'
          ? 1
          : speedSquares;
  const straight = def.id === 'charge' ? RULE.charge : def.id === 'run' ? RULE.run : undefined;
  const pb = checkPath(s, c, p.path, max, {
    straight,
    clear: def.id === 'charge' ? RULE.charge : undefined,
    passThrough: def.id === 'overrun' ? p.targetId : undefined,
  });
  if (pb) return pb;
  if (def.id === 'charge' && target) {
    const end = p.path[p.path.length - 1]!;
    const tpos = posOf(target);
    if (!tpos || chebyshev(end, tpos) > Math.max(1, reachOf(c))) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.charge,
        '"ending the move in the closest space from which you can attack that foe": the path does not end within reach.',
      );
    }
  }
  return null;
}

/** "You ready a single simple or advanced action ... You must designate a definite trigger ... you must have enough AP left to complete the action you ready." */
function checkReadied(s: S, c: C, p: ActParams): EngineError | null {
  if (!p.readied || !p.trigger)
    return ruleError('INVALID_COMMAND', RULE.ready, '"You must designate a definite trigger": give `readied` and `trigger`.');
  const rd = actionDef(p.readied.action);
  if (!rd || (rd.type !== 'simple' && rd.type !== 'advanced') || rd.id === 'ready') {
    return ruleError('ILLEGAL_ACTION', RULE.ready, '"You ready a single simple or advanced action".');
  }
  const rsh = shapeOf(s, c, rd, { targetId: p.readied.targetId, weaponId: p.readied.weaponId });
  if (c.data.ap - 1 < rsh.cost) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.ready,
      `"you must have enough AP left to complete the action you ready": ${rd.label} needs ${rsh.cost} AP after readying.`,
    );
  }
  return null;
}

/** Why the parameters of the action do not fit (its target, weapon, path, readied action). */
export function paramBlock(s: S, c: C, sh: Shape, p: ActParams): EngineError | null {
  const def = sh.def;
  const tb = checkTarget(s, c, sh, p);
  if (tb) return tb;
  const target = p.targetId ? s.combatants[p.targetId] : undefined;
  const wb = checkWeapon(c, sh, p, target);
  if (wb) return wb;
  const mb = def.tags.includes('path') ? checkMove(s, c, sh, p, target) : null;
  if (mb) return mb;
  if (def.id === 'ready') return checkReadied(s, c, p);
  if (def.id === 'aid-another' && p.aids && !actionDef(p.aids))
    return ruleError('INVALID_COMMAND', RULE.aidAnother, `Unknown action "${p.aids}".`);
  return null;
}
