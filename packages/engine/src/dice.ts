import { RuleViolation } from './errors.js';
import type { Rng } from './rng.js';

/**
 * Dice notation: a sum of terms, each `NdX` (optionally `khN`/`klN`/`dhN`/`dlN`) or an integer
 * modifier, e.g. `3d6+2`, `4d6kh3`, `2d12-1`, `d2`. Written here rather than taken from a dice
 * library because those draw from a global or their own RNG; ours must draw from the
 * encounter's seeded state.
 */
export interface DiceTerm {
  count: number;
  sides: number;
  sign: 1 | -1;
  keep?: { which: 'h' | 'l'; n: number };
  drop?: { which: 'h' | 'l'; n: number };
}
export interface ParsedFormula {
  dice: DiceTerm[];
  modifier: number;
}

const TERM = /([+-]?)\s*(?:(\d*)d(\d+)(?:(kh|kl|dh|dl)(\d+))?|(\d+))/gy;

const parseCache = new Map<string, ParsedFormula>();

/** Parse a formula (cached: the same formulas are rolled again and again). */
export function parseFormula(formula: string): ParsedFormula {
  let parsed = parseCache.get(formula);
  if (!parsed) {
    parsed = parseUncached(formula);
    if (parseCache.size < 1000) parseCache.set(formula, parsed);
  }
  return parsed;
}

function parseUncached(formula: string): ParsedFormula {
  const text = formula.replace(/\s+/g, '').toLowerCase();
  if (text.length === 0 || text.length > 64) {
    throw new RuleViolation('INVALID_DICE', 'engine.dice', `Bad dice formula "${formula}".`);
  }
  const out: ParsedFormula = { dice: [], modifier: 0 };
  TERM.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    TERM.lastIndex = pos;
    const m = TERM.exec(text);
    if (!m || m.index !== pos || (pos > 0 && !m[1])) {
      throw new RuleViolation('INVALID_DICE', 'engine.dice', `Bad dice formula "${formula}".`);
    }
    const sign: 1 | -1 = m[1] === '-' ? -1 : 1;
    if (m[6] !== undefined) {
      out.modifier += sign * Number(m[6]);
    } else {
      const count = m[2] ? Number(m[2]) : 1;
      const sides = Number(m[3]);
      if (count < 1 || count > 100 || sides < 1 || sides > 1000) {
        throw new RuleViolation('INVALID_DICE', 'engine.dice', `Dice out of range in "${formula}".`);
      }
      const term: DiceTerm = { count, sides, sign };
      if (m[4]) {
        const n = Number(m[5]);
        const which = m[4][1] === 'h' ? 'h' : 'l';
        if (n > count) throw new RuleViolation('INVALID_DICE', 'engine.dice', `Cannot keep/drop ${n} of ${count} dice.`);
        if (m[4][0] === 'k') term.keep = { which, n };
        else term.drop = { which, n };
      }
      out.dice.push(term);
    }
    pos = TERM.lastIndex;
  }
  return out;
}

export interface DieFace {
  sides: number;
  value: number;
  /** false when dropped by a keep/drop rule */
  kept: boolean;
}

export interface RollOutcome {
  formula: string;
  faces: DieFace[];
  total: number;
}

function keptMask(values: number[], term: DiceTerm): boolean[] {
  const idx = values.map((v, i) => ({ v, i }));
  let keepSet: Set<number> | null = null;
  if (term.keep) {
    idx.sort((a, b) => (term.keep!.which === 'h' ? b.v - a.v : a.v - b.v) || a.i - b.i);
    keepSet = new Set(idx.slice(0, term.keep.n).map((x) => x.i));
  } else if (term.drop) {
    idx.sort((a, b) => (term.drop!.which === 'h' ? b.v - a.v : a.v - b.v) || a.i - b.i);
    const dropped = new Set(idx.slice(0, term.drop.n).map((x) => x.i));
    keepSet = new Set(values.map((_, i) => i).filter((i) => !dropped.has(i)));
  }
  return values.map((_, i) => (keepSet ? keepSet.has(i) : true));
}

/** Total a formula given face values (used for rolls and for GM-forced faces). */
export function totalFor(parsed: ParsedFormula, values: number[]): { faces: DieFace[]; total: number } {
  const faces: DieFace[] = [];
  let total = parsed.modifier;
  let k = 0;
  for (const term of parsed.dice) {
    // without keep/drop every die is kept: no mask (nor the slice it is computed on) to allocate
    const mask = term.keep || term.drop ? keptMask(values.slice(k, k + term.count), term) : null;
    const end = Math.min(k + term.count, values.length);
    for (let j = k; j < end; j++) {
      const v = values[j]!;
      const kept = mask === null || mask[j - k]!;
      faces.push({ sides: term.sides, value: v, kept });
      if (kept) total += term.sign * v;
    }
    k += term.count;
  }
  return { faces, total };
}

export function diceCount(parsed: ParsedFormula): number {
  return parsed.dice.reduce((n, t) => n + t.count, 0);
}

export function rollFormula(formula: string, rng: Rng): RollOutcome {
  const parsed = parseFormula(formula);
  const values: number[] = [];
  for (const term of parsed.dice) for (let i = 0; i < term.count; i++) values.push(rng.int(1, term.sides));
  const t = totalFor(parsed, values);
  return { formula, faces: t.faces, total: t.total };
}
