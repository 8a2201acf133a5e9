import { hexDistance, ruleError, type EngineError, type Hex } from '@fray/engine';
import { ROW, RULE } from '../catalogue.js';
import { moveAllowance } from '../mechanics/combat-values.js';
import { conditions, hexKey, isEnemy, occupant, opts, pos, type S } from '../state/index.js';

const NOT_ON_MAP = 'This character is not on the map.';

/** A path goes hex by hex, never through a blocked hex or an opponent, never ending in an occupied hex. */
export function checkHex(s: S, id: string, from: Hex, to: Hex, last: boolean): EngineError | null {
  if (hexDistance(from, to) !== 1)
    return ruleError('INVALID_COMMAND', RULE.hexes, `Hex ${hexKey(to)} is not next to ${hexKey(from)}: a path goes hex by hex.`);
  if (s.rs.map.blocking.includes(hexKey(to))) return ruleError('ILLEGAL_ACTION', RULE.hexes, `Hex ${hexKey(to)} is blocked.`);
  const o = occupant(s, to, id);
  if (o) {
    if (last) return ruleError('ILLEGAL_ACTION', RULE.hexes, `Hex ${hexKey(to)} is occupied by ${s.combatants[o]!.name}.`);
    if (isEnemy(s, id, o) || !opts(s).passThroughAllies)
      return ruleError('ILLEGAL_ACTION', RULE.hexes, `${s.combatants[o]!.name} stands in hex ${hexKey(to)}.`);
  }
  return null;
}

/** "You can move 1 hex in any Phase when you don't perform any other kind of movement." */
export function checkStep(s: S, id: string, to?: Hex, readied = false): EngineError | null {
  const c = s.combatants[id]!;
  const d = c.data;
  if (d.stepped) return ruleError('ILLEGAL_ACTION', RULE.oneStep, "You can't take more than one 1-hex step in a Phase.");
  if (d.moved) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.stepNoMove,
      readied
        ? "You can take a 1-hex step as part of your readied action, but only if you don't otherwise move any distance during the Phase."
        : "You can't take a 1-hex step in the same Phase when you move any distance.",
    );
  }
  if (c.stats.move <= 1)
    return ruleError('ILLEGAL_ACTION', RULE.stepSlow, "Any character with a total movement of 1 hex or less can't take a 1-hex step.");
  const p = pos(s, id);
  if (!p) return ruleError('ILLEGAL_ACTION', RULE.hexes, NOT_ON_MAP);
  const m = s.rs.map;
  const hampered = (h: Hex) => m.difficult.includes(hexKey(h)) || m.dark.includes(hexKey(h));
  if (hampered(p) || (to && hampered(to)) || conditions(s, id).includes('darkness')) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.stepTerrain,
      "You can only take a 1-hex step if your movement isn't hampered by difficult terrain or darkness.",
    );
  }
  if (to) return checkHex(s, id, p, to, true);
  return null;
}

/** "You can take a 1-hex step as part of your readied action, but only if you don't otherwise move any distance during the Phase." */
export function checkReadiedStepWithMove(step: Hex | null): EngineError | null {
  if (!step) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.stepNoMove,
    "You can take a 1-hex step as part of your readied action, but only if you don't otherwise move any distance during the Phase.",
  );
}

/** "Crawl one hex" */
export function checkCrawl(row: string, path: Hex[]): EngineError | null {
  return row === 'crawl' && path.length !== 1 ? ruleError('ILLEGAL_ACTION', RULE.movement, 'Crawl one hex.') : null;
}

/** The 1-hex step and other movement do not mix; a prone character can only crawl. */
export function checkMoveMode(s: S, id: string, row: string): EngineError | null {
  if (s.combatants[id]!.data.stepped)
    return ruleError('ILLEGAL_ACTION', RULE.stepNoMove, "You can't take a 1-hex step in the same Phase when you move any distance.");
  if (conditions(s, id).includes('prone') && row !== 'crawl') {
    return ruleError('ILLEGAL_ACTION', RULE.prone, 'A prone character can only crawl (or stand up from prone first).');
  }
  return null;
}

/** A move's path: hex by hex, within the movement the mode allows (difficult terrain costs more). */
export function checkPath(s: S, id: string, row: string, path: Hex[]): EngineError | null {
  const mode = checkMoveMode(s, id, row);
  if (mode) return mode;
  let p = pos(s, id);
  if (!p) return ruleError('ILLEGAL_ACTION', RULE.hexes, NOT_ON_MAP);
  if (path.length === 0) return null;
  let cost = 0;
  for (let i = 0; i < path.length; i++) {
    const h = path[i]!;
    const e = checkHex(s, id, p, h, i === path.length - 1);
    if (e) return e;
    cost += s.rs.map.difficult.includes(hexKey(h)) ? opts(s).difficultTerrainCost : 1;
    p = h;
  }
  const allowance = moveAllowance(s, id, row);
  if (cost > allowance)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.movement,
      `${ROW[row]!.label}: at most ${allowance} hexes of movement (this path costs ${cost}).`,
    );
  return null;
}
