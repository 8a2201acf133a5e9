import type { LegendsOptions } from '../options.js';
import type { LCtx } from '../state/index.js';

/** "a dN roll on STAT": Hindrance and Easing (extra dice or a TN step), roll-under or roll-plus-stat, reactive +TN. */

export interface StatRollInput {
  combatantId: string;
  stat: 'DEX' | 'SPD' | 'STR';
  dice?: number;
  die?: number;
  hindrance?: number;
  easing?: number;
  /** reactive +TN (rushing) */
  plusTn?: number;
  purpose: string;
}

export interface StatRollResult {
  formula: string;
  total: number;
  tn: number;
  margin: number;
  success: boolean;
  rollId: string;
}

function statFormula(o: LegendsOptions, dice: number, die: number, net: number): string {
  if (o.hindranceMode === 'tn' || net === 0) return `${dice}d${die}`;
  const worse = o.rollMechanic === 'roll-under' ? 'kh' : 'kl';
  const better = o.rollMechanic === 'roll-under' ? 'kl' : 'kh';
  return `${dice + Math.abs(net)}d${die}${net > 0 ? worse : better}${dice}`;
}

export function judge(
  o: LegendsOptions,
  stat: number,
  total: number,
  net: number,
  plusTn: number,
): { tn: number; margin: number; success: boolean } {
  const tnShift = o.hindranceMode === 'tn' ? -net * o.hindranceTnStep : 0;
  if (o.rollMechanic === 'roll-under') {
    const tn = stat + plusTn + tnShift;
    return { tn, margin: tn - total, success: total <= tn };
  }
  const tn = o.rollPlusTarget - tnShift;
  const score = total + stat + plusTn;
  return { tn, margin: score - tn, success: score >= tn };
}

export function statRoll(ctx: LCtx, input: StatRollInput): StatRollResult {
  const c = ctx.state.combatants[input.combatantId]!;
  const o = ctx.options;
  const dice = input.dice ?? 1;
  const die = input.die ?? 12;
  const net = (input.hindrance ?? 0) - (input.easing ?? 0);
  const formula = statFormula(o, dice, die, net);
  const r = ctx.roll(formula, input.purpose, { combatantId: c.id });
  const j = judge(o, c.stats[input.stat], r.total, net, input.plusTn ?? 0);
  return { formula, total: r.total, tn: j.tn, margin: j.margin, success: j.success, rollId: r.id };
}
