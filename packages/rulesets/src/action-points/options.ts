import { z } from 'zod';
import {
  DEFAULT_BASE_SPEED_BY_SIZE,
  DEFAULT_WEAPON_SPEED_BY_CATEGORY,
  PHASES,
  SIZES,
  SPEEDS,
  WEAPON_CATEGORIES,
} from './mechanics/phases.js';

/** The table's choices: every field has a default, and `optionDocs` says what it does and which sentence it comes from. */
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
  apPerPhase:
    'AP a creature may spend in one action phase (each phase is about one second; an advanced action takes one phase per AP). Default 1.',
  freeActionsPerPhase: '"no more than one free action per action phase". Default 1.',
  freeActionsPerRound: '"a limit of six such actions a round is logical in most cases". Default 6.',
  reactionsPerPhase: '"Reactions may be limited to one per phase". Default 1.',
  attackPenaltyStep: 'The cumulative penalty on each further attack action in a round ("cumulative -5"). Default 5.',
  roundsPerCombatTurn: '"there are 10 rounds in a combat turn". Default 10.',
  baseSpeedBySize:
    "The reconstructed table of base action speeds by size (the text's table is missing). Default: fine..medium fast, large average, huge slow, gargantuan and colossal very-slow.",
  fastMovement: 'Movement speed (feet) at or above which base action speed improves one step. Default 45.',
  slowMovement: 'Movement speed (feet) at or below which base action speed drops one step. Default 20.',
  weaponSpeedByCategory:
    'Weapon speed by weapon category when a weapon has no speed of its own. Default: unarmed, natural, light fast; one-handed average; two-handed slow; unwieldy very-slow.',
  earliestPhaseOverrides:
    'Per-action override of the reconstructed table of action phases: an action and its earliest phase. Default none.',
  nonConsecutiveActions:
    'Advanced actions whose AP may be split up over time (the text: "assume that they must be spent consecutively" unless stated). Default none.',
  initiativeTies:
    'How equal initiatives are ordered: `roll` (a d20 roll-off once at the start of combat, highest first) or `name` (alphabetical). Default roll.',
  nockedFiresSamePhase:
    'false (default): only an arrow nocked before the ready-missile phase began fires in it; one nocked during it is released from the thrown phase on ("an arrow that was nocked and drawn in the second action phase as a free action may be released" in the third). true: a bow nocked in the ready-missile phase fires in that same phase.',
  resolveAttacks:
    'Roll attacks against AC, damage and maneuvers against CMD; when false the ruleset only records the action and the GM adjudicates. Default true.',
};
