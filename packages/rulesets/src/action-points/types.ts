import { z } from 'zod';
import type { Ctx, EncounterState } from '@fray/engine';
import {
  DEFAULT_BASE_SPEED_BY_SIZE,
  DEFAULT_WEAPON_SPEED_BY_CATEGORY,
  PHASES,
  SIZES,
  SPEEDS,
  WEAPON_CATEGORIES,
} from './phases.js';

export const RULESET_ID = 'action-points';

const eventTypes = new Map<string, string>();
/**
 * A ruleset event type (`action-points.<fact>`). The same string object each time: a new string per
 * event would be hashed again by every Set and compared by content in every switch it meets.
 */
export function ev(fact: string): string {
  let t = eventTypes.get(fact);
  if (t === undefined) eventTypes.set(fact, (t = `${RULESET_ID}.${fact}`));
  return t;
}
/** The prefix of the ruleset's own event types. */
export const EVENT_PREFIX = `${RULESET_ID}.`;

export const optionsSchema = z.object({
  apPerRound: z.number().int().min(1).max(10).default(3),
  surpriseAp: z.number().int().min(0).max(10).default(2),
  surpriseRound: z.boolean().default(true),
  apPerPhase: z.number().int().min(1).max(10).default(1),
  freeActionsPerPhase: z.number().int().min(0).max(20).default(1),
  freeActionsPerRound: z.number().int().min(0).max(50).default(6),
  reactionsPerPhase: z.number().int().min(0).max(20).default(1),
  attackPenaltyStep: z.number().int().min(0).max(20).default(5),
  roundsPerCombatTurn: z.number().int().min(1).max(100).default(10),
  baseSpeedBySize: z.partialRecord(z.enum(SIZES), z.enum(SPEEDS)).default({ ...DEFAULT_BASE_SPEED_BY_SIZE }),
  fastMovement: z.number().int().min(0).default(45),
  slowMovement: z.number().int().min(0).default(20),
  weaponSpeedByCategory: z.partialRecord(z.enum(WEAPON_CATEGORIES), z.enum(SPEEDS)).default({ ...DEFAULT_WEAPON_SPEED_BY_CATEGORY }),
  earliestPhaseOverrides: z.record(z.string().max(64), z.enum(PHASES)).default({}),
  nonConsecutiveActions: z.array(z.string().max(64)).max(100).default([]),
  initiativeTies: z.enum(['roll', 'name']).default('roll'),
  resolveAttacks: z.boolean().default(true),
  nockedFiresSamePhase: z.boolean().default(false),
});
export type Options = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof Options, string> = {
  apPerRound: 'Action points each creature receives at the start of a regular round ("Most creatures receive 3 action points"). Default 3.',
  surpriseAp: 'Action points of an aware creature in the surprise round ("limited to using 2 action points"). Default 2.',
  surpriseRound: 'Run a surprise round when only some creatures are aware. Default true.',
  apPerPhase: 'AP a creature may spend in one action phase (each phase is about one second; an advanced action takes one phase per AP). Default 1.',
  freeActionsPerPhase: '"no more than one free action per action phase". Default 1.',
  freeActionsPerRound: '"a limit of six such actions a round is logical in most cases". Default 6.',
  reactionsPerPhase: '"Reactions may be limited to one per phase". Default 1.',
  attackPenaltyStep: 'The cumulative penalty on each further attack action in a round ("cumulative -5"). Default 5.',
  roundsPerCombatTurn: '"there are 10 rounds in a combat turn". Default 10.',
  baseSpeedBySize: 'The reconstructed table of base action speeds by size (the text\'s table is missing). Default: fine..medium fast, large average, huge slow, gargantuan and colossal very-slow.',
  fastMovement: 'Movement speed (feet) at or above which base action speed improves one step. Default 45.',
  slowMovement: 'Movement speed (feet) at or below which base action speed drops one step. Default 20.',
  weaponSpeedByCategory: 'Weapon speed by weapon category when a weapon has no speed of its own. Default: unarmed, natural, light fast; one-handed average; two-handed slow; unwieldy very-slow.',
  earliestPhaseOverrides: 'Per-action override of the reconstructed table of action phases: action id -> earliest phase. Default none.',
  nonConsecutiveActions: 'Advanced actions whose AP may be split up over time (the text: "assume that they must be spent consecutively" unless stated). Default none.',
  initiativeTies: 'How equal initiatives are ordered: `roll` (a d20 roll-off once at the start of combat, highest first) or `name` (alphabetical). Default roll.',
  nockedFiresSamePhase:
    'false (default): only an arrow nocked before the ready-missile phase began fires in it; one nocked during it is released from the thrown phase on ("an arrow that was nocked and drawn in the second action phase as a free action may be released" in the third). true: a bow nocked in the ready-missile phase fires in that same phase.',
  resolveAttacks: 'Roll attacks against AC, damage and maneuvers against CMD; when false the ruleset only records the action and the GM adjudicates. Default true.',
};

export const weaponSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(120),
  category: z.enum(WEAPON_CATEGORIES).default('one-handed'),
  /** overrides the category's speed */
  speed: z.enum(SPEEDS).optional(),
  kind: z.enum(['melee', 'thrown', 'bow', 'crossbow', 'firearm']).default('melee'),
  damage: z.string().min(1).max(64).default('1d6'),
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
  baseActionSpeed: 'Recorded base action speed, overriding the computed one ("Record the character\'s base action on the character sheet").',
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
  feats: 'Feats and class features by id, e.g. improved-trip, improved-feint, rapid-reload, spell-combat, spellstrike, improved-unarmed-strike.',
  weapons: 'Weapons: id, name, category, speed, kind, damage, attackBonus, reach, critMultiplier, loaded.',
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

export interface Trigger {
  kind: 'attacked' | 'casts' | 'moves-adjacent' | 'acts' | 'custom';
  /** only this creature sets it off (any foe when absent) */
  sourceId?: string | undefined;
  description: string;
}

export interface Data {
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
}

export interface Intent {
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

export interface RS {
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
}

export const effectSpecSchema = z.object({
  name: z.string().min(1).max(120),
  condition: z.string().min(1).max(64).optional(),
  rounds: z.number().int().min(1).max(10000).optional(),
  targetId: z.string().min(1).max(64).optional(),
  data: z.record(z.string(), z.number()).optional(),
});

export const triggerSchema = z.object({
  kind: z.enum(['attacked', 'casts', 'moves-adjacent', 'acts', 'custom']),
  sourceId: z.string().min(1).max(64).optional(),
  description: z.string().min(1).max(200),
});

export const checkSchema = z.object({ formula: z.string().min(1).max(64), dc: z.number().int().optional() });

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

export type S = EncounterState<RS, Stats, Data>;
export type C = S['combatants'][string];
export type X = Ctx<RS, Options>;

export const st = (ctx: X): S => ctx.state as unknown as S;
export const optsOf = (s: { options: Record<string, unknown> }): Options => s.options as unknown as Options;
