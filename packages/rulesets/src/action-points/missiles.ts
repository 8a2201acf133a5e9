import { PHASES, type Phase } from './phases.js';
import { optsOf, type C, type S, type Weapon } from './types.js';

/** The current phase of the current round as one number (the `nockedAt` stamp of a nocked arrow). */
export const phaseStamp = (s: S): number => s.rs.round * PHASES.length + s.rs.phaseIdx;

/**
 * "Readied missiles (arrows already nocked and drawn)" fire in the ready-missile phase; "an arrow that was nocked and
 * drawn in the second action phase as a free action may be released" in the third. An arrow nocked in this very phase
 * was not readied before it began (unless the table sets `nockedFiresSamePhase`).
 */
export const nockedThisPhase = (s: S, c: C): boolean => !optsOf(s).nockedFiresSamePhase && c.data.nocked !== null && c.data.nockedAt === phaseStamp(s);

/** The earliest phase of a missile: triggered weapons (crossbows, firearms) and readied arrows in the ready-missile phase; thrown weapons and bows not readied in the thrown phase. */
export function missilePhase(s: S, c: C, w: Weapon): Phase {
  if (w.kind === 'crossbow' || w.kind === 'firearm') return 'ready-missile';
  if (w.kind === 'bow') return c.data.nocked === w.id && !nockedThisPhase(s, c) ? 'ready-missile' : 'thrown';
  return 'thrown';
}
