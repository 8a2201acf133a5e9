/**
 * The shape of an action of the catalogue as data: type, AP cost, subtypes, whether AP must be
 * consecutive, its tags; and the builders the categories use.
 */

export type ActionType = 'simple' | 'advanced' | 'full-round' | 'free' | 'reaction';
export type Subtype = 'attack' | 'complex' | 'move';

/**
 * Tags that drive behaviour:
 * - `thought`: can be taken at the speed of thought (declaration phase)
 * - `swift`: a swift action (resolved first in the ready-missile phase)
 * - `spell`: casting a spell (cast defensively, spell combat exclusivity, `casts` ready trigger)
 * - `target`: needs a target combatant
 * - `path`: moves along a path of squares
 * - `weapon`: an attack with a weapon (weapon speed, ranged provocation)
 * - `maneuver`: a combat maneuver check (CMB against CMD); `feat` removes its provocation
 * - `no-step`: a full-round action that allows no free 5-foot step
 * - `variable`: the GM (or the player, within `minAp`) sets the AP cost
 * - `anytime`: may be taken on another creature's initiative (speak)
 */
export type Tag =
  'thought' | 'swift' | 'spell' | 'target' | 'path' | 'weapon' | 'maneuver' | 'no-step' | 'variable' | 'anytime' | 'natural';

export interface ActionDef {
  id: string;
  label: string;
  type: ActionType;
  ap: number;
  /** "At Least N AP" */
  minAp?: number;
  /** empty = safe ("if an action has no subtype, assume it is safe") */
  subtypes: Subtype[];
  consecutive: boolean;
  tags: Tag[];
  /** the feat that lets the maneuver be taken without provoking */
  feat?: string;
  /** a class feature or feat needed to take the action at all */
  requires?: string;
  /** the rule text (short quote) */
  rule: string;
}

export const simple = (
  id: string,
  label: string,
  subtypes: Subtype[],
  tags: Tag[],
  rule: string,
  extra: Partial<ActionDef> = {},
): ActionDef => ({
  id,
  label,
  type: 'simple',
  ap: 1,
  subtypes,
  consecutive: true,
  tags,
  rule,
  ...extra,
});
export const advanced = (
  id: string,
  label: string,
  ap: number,
  subtypes: Subtype[],
  tags: Tag[],
  rule: string,
  extra: Partial<ActionDef> = {},
): ActionDef => ({ id, label, type: 'advanced', ap, subtypes, consecutive: true, tags, rule, ...extra });
export const fullRound = (
  id: string,
  label: string,
  subtypes: Subtype[],
  tags: Tag[],
  rule: string,
  extra: Partial<ActionDef> = {},
): ActionDef => ({
  id,
  label,
  type: 'full-round',
  ap: 3,
  subtypes,
  consecutive: true,
  tags,
  rule,
  ...extra,
});
export const free = (id: string, label: string, tags: Tag[], rule: string, extra: Partial<ActionDef> = {}): ActionDef => ({
  id,
  label,
  type: 'free',
  ap: 0,
  subtypes: [],
  consecutive: false,
  tags,
  rule,
  ...extra,
});
