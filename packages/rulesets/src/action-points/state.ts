import { z } from 'zod';
import { diceFormulaSchema, type Ctx, type EncounterState } from '@fray/engine';
import { SIZES, SPEEDS, WEAPON_CATEGORIES } from './mechanics/phases.js';
import type { Options } from './options.js';

/**
 * The ruleset's state: the stats of a creature, its per-round data, the ruleset state `rs`, how
 * they start, and small read-only selectors over them.
 */

export const RULESET_ID = 'action-points';

const weaponSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(120),
  category: z.enum(WEAPON_CATEGORIES).default('one-handed'),
  /** overrides the category's speed */
  speed: z.enum(SPEEDS).optional(),
  kind: z.enum(['melee', 'thrown', 'bow', 'crossbow', 'firearm']).default('melee'),
  damage: diceFormulaSchema('1d8').default('1d6'),
  attackBonus: z.number().int().default(0),
  /** squares; melee weapons only */
  reach: z.number().int().min(1).max(6).optional(),
  critMultiplier: z.number().int().min(2).max(5).default(2),
  /** crossbows and firearms start loaded */
  loaded: z.boolean().default(true),
});
export type Weapon = z.infer<typeof weaponSchema>;

export const statsSchema = z.object({
  dexterity: z.number().int().min(0).max(99).default(10),
  initiativeModifier: z.number().int().min(-50).max(50).default(0),
  speed: z.number().int().min(0).max(1000).default(30),
  size: z.enum(SIZES).default('medium'),
  baseActionSpeed: z.enum(SPEEDS).optional(),
  hp: z.number().int().min(1).max(100000).default(10),
  ac: z.number().int().default(10),
  baseAttackBonus: z.number().int().min(0).default(0),
  attackBonus: z.number().int().default(0),
  cmb: z.number().int().default(0),
  cmd: z.number().int().default(10),
  fortitude: z.number().int().default(0),
  concentration: z.number().int().default(0),
  acrobaticsRanks: z.number().int().min(0).default(0),
  reach: z.number().int().min(0).max(6).default(1),
  bonusAp: z.number().int().min(0).max(10).default(0),
  extraAttacksOfOpportunity: z.number().int().min(0).max(10).default(0),
  threatens: z.boolean().default(true),
  feats: z.array(z.string().min(1).max(64)).max(100).default([]),
  weapons: z.array(weaponSchema).max(20).default([]),
});
export type Stats = z.infer<typeof statsSchema>;

export const statDocs: Record<keyof Stats, string> = {
  dexterity: 'Dexterity score: the initiative ("initiative equal to their Dexterity score").',
  initiativeModifier: 'Spells and abilities that alter initiative.',
  speed: 'Movement speed in feet (base action speed, squares per move).',
  size: 'Size category (base action speed).',
  baseActionSpeed:
    'Recorded base action speed, overriding the computed one ("Record the character\'s base action on the character sheet").',
  hp: 'Hit points.',
  ac: 'Armor class.',
  baseAttackBonus: 'Base attack bonus (drawing at +0 provokes; shields as a free action at +1).',
  attackBonus: 'Attack roll modifier.',
  cmb: 'Combat maneuver bonus.',
  cmd: 'Combat maneuver defense.',
  fortitude: 'Fortitude save modifier (coup de grace).',
  concentration: 'Concentration check modifier (cast defensively).',
  acrobaticsRanks: 'Ranks in Acrobatics (total defense and fighting defensively bonuses).',
  reach: 'Natural reach in squares (threatened area).',
  bonusAp: 'Extra AP each regular round (e.g. haste).',
  extraAttacksOfOpportunity: 'Extra attacks of opportunity a round (Combat Reflexes).',
  threatens: 'Whether the creature threatens the squares within its reach.',
  feats:
    'Feats and class features: the ones the rules act on (Improved Trip, Improved Feint, Rapid Reload, Spell Combat, Spellstrike, Improved Unarmed Strike …), and any other, kept as written.',
  weapons: 'Weapons: a row each, with its name, category, speed, kind, damage dice, attack bonus, reach, critical multiplier, loaded.',
};

export const squareSchema = z.object({ x: z.number().int().min(-10000).max(10000), y: z.number().int().min(-10000).max(10000) });
export type Sq = z.infer<typeof squareSchema>;
export const positionSchema = squareSchema.nullable();

/** An advanced action in progress. */
export interface InProgress {
  key: string;
  action: string;
  cost: number;
  spent: number;
  consecutive: boolean;
  fullRound: boolean;
  startedRound: number;
  startedPhase: number;
  lastRound: number;
  lastPhase: number;
  attackPenalty: number;
  /** cast defensively: the casting lost its complex subtype */
  defensive: boolean;
  params: ActParams;
}

export interface ReadyState {
  action: string;
  cost: number;
  params: ActParams;
  trigger: Trigger;
  round: number;
  phase: number;
}

interface Trigger {
  kind: 'attacked' | 'casts' | 'moves-adjacent' | 'acts' | 'custom';
  /** only this creature sets it off (any foe when absent) */
  sourceId?: string | undefined;
  description: string;
}

export type Data = {
  hp: number;
  aware: boolean;
  initiative: number;
  tiebreak: number;
  /** the roll-off for equal initiatives (made once, at the start of combat) */
  tieRoll: number;
  apBudget: number;
  ap: number;
  apSpentThisRound: number;
  apThisPhase: number;
  stopped: boolean;
  delayUntil: number;
  freeThisPhase: number;
  freeThisRound: number;
  reactionsThisPhase: number;
  aooThisRound: number;
  attacksThisRound: number;
  simpleThisRound: number;
  escapesThisRound: number;
  actedThisRound: string[];
  fullRoundThisRound: string | null;
  freeStepUsed: boolean;
  inProgress: InProgress[];
  ready: ReadyState | null;
  /** the round in which the creature readied an action ("you forfeit all other actions this round") */
  forfeitedRound: number;
  nocked: string | null;
  /** when the arrow was nocked: round × 7 + phase index (-1: never) */
  nockedAt: number;
  unloaded: string[];
};

interface Intent {
  combatantId: string;
  intent: string;
  action?: string | undefined;
  targetId?: string | undefined;
}

export interface QueuedReady {
  actorId: string;
  action: string;
  params: ActParams;
  penalty: number;
}

export type RS = {
  round: number;
  surprise: boolean;
  regularRound: number;
  combatTurn: number;
  phaseIdx: number;
  /** initiative key of the slot in progress in this phase (null: the phase has not reached anyone) */
  cursor: [number, number] | null;
  intents: Intent[];
  readyQueue: QueuedReady[];
  seq: number;
};

const effectSpecSchema = z.object({
  name: z.string().min(1).max(120),
  condition: z.string().min(1).max(64).optional(),
  rounds: z.number().int().min(1).max(10000).optional(),
  targetId: z.string().min(1).max(64).optional(),
  data: z.record(z.string(), z.number()).optional(),
});

const triggerSchema = z.object({
  kind: z.enum(['attacked', 'casts', 'moves-adjacent', 'acts', 'custom']),
  sourceId: z.string().min(1).max(64).optional(),
  description: z.string().min(1).max(200),
});

const checkSchema = z.object({ formula: z.string().min(1).max(64), dc: z.number().int().optional() });

/** The parameters of an action (`act` command fields other than the envelope). */
export const actParamsShape = {
  targetId: z.string().min(1).max(64).optional(),
  weaponId: z.string().min(1).max(64).optional(),
  path: z.array(squareSchema).min(1).max(200).optional(),
  ap: z.number().int().min(1).max(100).optional(),
  consecutive: z.boolean().optional(),
  aids: z.string().min(1).max(64).optional(),
  holding: z.boolean().optional(),
  area: z.boolean().optional(),
  hasty: z.boolean().optional(),
  free: z.boolean().optional(),
  companion: z.boolean().optional(),
  spellLevel: z.number().int().min(0).max(9).optional(),
  defensively: z.boolean().optional(),
  effect: effectSpecSchema.optional(),
  condition: z.enum(['blinded', 'dazzled', 'deafened', 'entangled', 'shaken', 'sickened']).optional(),
  pin: z.boolean().optional(),
  check: checkSchema.optional(),
  trigger: triggerSchema.optional(),
  readied: z
    .object({
      action: z.string().min(1).max(64),
      targetId: z.string().min(1).max(64).optional(),
      weaponId: z.string().min(1).max(64).optional(),
      effect: effectSpecSchema.optional(),
      check: checkSchema.optional(),
    })
    .optional(),
  text: z.string().max(500).optional(),
  /** remove-dirty-trick: which condition (default: the oldest) */
  effectId: z.string().min(1).max(64).optional(),
};
export type ActParams = z.infer<z.ZodObject<typeof actParamsShape>>;

/** One AP spent (or one simple action taken), on its way through the action pipeline (flow/pipeline.ts). */
export interface Pending {
  uid: string;
  actorId: string;
  action: string;
  params: ActParams;
  penalty: number;
  recKey: string | null;
  complete: boolean;
  readied: boolean;
}

/** A step of the pipeline; the steps left wait in a reaction window's `resume` while it is open. */
export type Step =
  | { t: 'aoo'; p: Pending; atRoll: boolean }
  | { t: 'ready'; p: Pending; kinds: string[] }
  | { t: 'move'; p: Pending; path: Sq[]; offered: string[]; from: Sq | null }
  | { t: 'resolve'; p: Pending };

export type S = EncounterState<RS, Stats, Data>;
export type C = S['combatants'][string];
export type X = Ctx<RS, Options>;

/** The working state of a command, with the ruleset's types (the engine's `Ctx` knows only `RS`). */
export const st = (ctx: X): S => ctx.state as S;
/** The state before the command: a plain value, cheaper to read than the working state (checks run before any emit). */
export const before = (ctx: X): S => (ctx.base ?? ctx.state) as S;
export const optsOf = (s: S): Options => s.options as Options;

export const initialState = (): RS => ({
  round: 0,
  surprise: false,
  regularRound: 0,
  combatTurn: 0,
  phaseIdx: 0,
  cursor: null,
  intents: [],
  readyQueue: [],
  seq: 0,
});

export const initCombatant = (stats: Stats): Data => ({
  hp: stats.hp,
  aware: true,
  initiative: stats.dexterity + stats.initiativeModifier,
  tiebreak: 0,
  tieRoll: 0,
  apBudget: 0,
  ap: 0,
  apSpentThisRound: 0,
  apThisPhase: 0,
  stopped: false,
  delayUntil: 0,
  freeThisPhase: 0,
  freeThisRound: 0,
  reactionsThisPhase: 0,
  aooThisRound: 0,
  attacksThisRound: 0,
  simpleThisRound: 0,
  escapesThisRound: 0,
  actedThisRound: [],
  fullRoundThisRound: null,
  freeStepUsed: false,
  inProgress: [],
  ready: null,
  forfeitedRound: 0,
  nocked: null,
  nockedAt: -1,
  unloaded: stats.weapons.filter((w) => !w.loaded).map((w) => w.id),
});

// ---------------------------------------------------------------- selectors

export const has = (c: C, feat: string): boolean => c.stats.feats.includes(feat);
export const hasCond = (s: S, id: string, condition: string): boolean =>
  s.effects.some((e) => e.targetId === id && e.condition === condition);
export const alive = (c: C): boolean => c.data.hp > 0;
export const initKey = (c: C): [number, number] => [c.data.initiative, c.data.tiebreak];
export const dexBonus = (c: C): number => Math.max(0, Math.floor((c.stats.dexterity - 10) / 2));
export const posOf = (c: C): Sq | null => c.position as Sq | null;
export const consecutiveInProgress = (c: C): InProgress | undefined => c.data.inProgress.find((r) => r.consecutive);
export const fullRoundInProgress = (c: C): InProgress | undefined => c.data.inProgress.find((r) => r.fullRound);
/** Under total defense (or another effect that forbids attacks). */
export const noAttacks = (s: S, id: string): boolean => s.effects.some((e) => e.targetId === id && e.data?.['noAttacks']);

/** In the surprise round only aware creatures act (or react). */
export function canAct(s: S, c: C): boolean {
  return alive(c) && (!s.rs.surprise || c.data.aware);
}

export function readiedThisRound(s: S, c: C): boolean {
  return c.data.forfeitedRound === s.rs.round && s.rs.round > 0;
}

/** Still spending AP this round: has AP, has not stopped, has not readied (which forfeits the rest). */
export function stillActing(s: S, c: C): boolean {
  return canAct(s, c) && c.data.ap > 0 && !c.data.stopped && !readiedThisRound(s, c);
}

/** Gets a place in the initiative order of this phase. */
export function hasSlot(s: S, c: C, phase: number): boolean {
  return stillActing(s, c) && c.data.delayUntil <= phase;
}
