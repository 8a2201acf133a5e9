import type { Options } from '../options.js';

/** DCs from the Power Level: "Easy DC (DC 10)", "Moderate DC (DC 10 + Power Level)", "Hard DC (DC 10 + Power level x 2)". */
export const dcEasy = (): number => 10;
export const dcModerate = (o: Options): number => 10 + o.powerLevel;
export const dcHard = (o: Options): number => 10 + 2 * o.powerLevel;

/** Degrees of success / failure: one at the DC, one more per `degreeStep` beyond it. */
export function degreesOf(total: number, dc: number, step: number): { success: boolean; degrees: number } {
  if (total >= dc) return { success: true, degrees: 1 + Math.floor((total - dc) / step) };
  return { success: false, degrees: 1 + Math.floor((dc - total) / step) };
}

/**
 * The assist / gambit / hunch ladder: "Success grants ... +1 Advantage per degree of success.
 * One degree of failure provides no modifier, but two or more degrees impose -1 Disadvantage per
 * additional degree of failure." Input: signed degrees (success positive, failure negative).
 */
export function ladder(signed: number): number {
  if (signed > 0) return signed;
  if (signed >= -1) return 0;
  return signed + 1;
}
export const signedDegrees = (r: { success: boolean; degrees: number }): number => (r.success ? r.degrees : -r.degrees);

/** A die formula with a modifier: `1d20+3`, `1d20-2`, `1d20`. */
export function formula(die: string, mod: number): string {
  return mod === 0 ? `1${die}` : `1${die}${mod > 0 ? '+' : '-'}${Math.abs(mod)}`;
}
