/**
 * The action phases and action speeds of the action-points ruleset.
 *
 * The rule text names the phases and the speed steps but its two tables (the table of action
 * phases and the table of base action speeds) are missing. This file is the reconstruction; every
 * choice here is documented in docs/rulesets/action-points.md and configurable through options.
 */

/** The seven action phases, in order. */
export const PHASES = ['declaration', 'ready-missile', 'thrown', 'fast', 'average', 'slow', 'very-slow'] as const;
export type Phase = (typeof PHASES)[number];

/** Attack action speeds, best first. `thrown` is only reached by a medium-or-smaller creature moving 45 or more. */
export const SPEEDS = ['thrown', 'fast', 'average', 'slow', 'very-slow'] as const;
export type Speed = (typeof SPEEDS)[number];

export const SIZES = ['fine', 'diminutive', 'tiny', 'small', 'medium', 'large', 'huge', 'gargantuan', 'colossal'] as const;
export type Size = (typeof SIZES)[number];

export const phaseIndex = (p: Phase): number => PHASES.indexOf(p);

/**
 * Reconstructed table of base action speeds by size ("Character action speed ... is based on
 * movement rate and size"; "most player characters have a base action speed of fast").
 */
export const DEFAULT_BASE_SPEED_BY_SIZE: Record<Size, Exclude<Speed, 'thrown'>> = {
  fine: 'fast',
  diminutive: 'fast',
  tiny: 'fast',
  small: 'fast',
  medium: 'fast',
  large: 'average',
  huge: 'slow',
  gargantuan: 'very-slow',
  colossal: 'very-slow',
};

export interface SpeedTable {
  baseSpeedBySize: Record<Size, Speed>;
  fastMovement: number;
  slowMovement: number;
}

/**
 * Base action speed: the size row of the table, one step better at a movement speed of 45 or
 * better, one step worse at 20 or less ("Improve base action speed one step for a movement speed
 * of 45 or better, and reduce it step for a movement speed of 20 or less"). Only a medium-size or
 * smaller creature may reach the thrown step ("A medium-size or smaller creature with a movement
 * rate of 45 or more may take appropriate actions during the third [phase]").
 */
export function baseActionSpeed(size: Size, movement: number, table: SpeedTable): Speed {
  let i = SPEEDS.indexOf(table.baseSpeedBySize[size]);
  if (movement >= table.fastMovement) i -= 1;
  else if (movement <= table.slowMovement) i += 1;
  const smallEnough = SIZES.indexOf(size) <= SIZES.indexOf('medium');
  const best = smallEnough ? 0 : 1;
  i = Math.max(best, Math.min(SPEEDS.length - 1, i));
  return SPEEDS[i]!;
}

/** The later of two speeds ("whichever is later"). */
export function laterSpeed(a: Speed, b: Speed): Speed {
  return SPEEDS.indexOf(a) >= SPEEDS.indexOf(b) ? a : b;
}

export const WEAPON_CATEGORIES = ['unarmed', 'natural', 'light', 'one-handed', 'two-handed', 'unwieldy', 'ranged'] as const;
export type WeaponCategory = (typeof WEAPON_CATEGORIES)[number];

/** Reconstructed weapon speed by category ("All weapons are assigned a speed rating of fast, average, slow, or very slow"). */
export const DEFAULT_WEAPON_SPEED_BY_CATEGORY: Record<WeaponCategory, Exclude<Speed, 'thrown'>> = {
  unarmed: 'fast',
  natural: 'fast',
  light: 'fast',
  'one-handed': 'average',
  'two-handed': 'slow',
  unwieldy: 'very-slow',
  ranged: 'fast',
};
