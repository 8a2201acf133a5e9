import { z } from 'zod';
import { diceFormulaSchema } from '@fray/engine';

const modSchema = z.object({
  ocv: z.number().int().min(-20).max(20).default(0),
  dcv: z.number().int().min(-20).max(20).default(0),
  halveDcv: z.boolean().default(false),
  zeroDcv: z.boolean().default(false),
});
export type Mod = z.infer<typeof modSchema>;

export const optionsSchema = z.object({
  postTurnRecovery: z.enum(['recovery', 'off']).default('recovery'),
  surpriseDcvPenalty: z.number().int().min(0).max(20).default(3),
  tieBreakDie: diceFormulaSchema('1d6', 16).default('1d6'),
  halfMoveRounding: z.enum(['up', 'down']).default('up'),
  freeActionLimit: z.number().int().min(0).max(100).nullable().default(3),
  skillCheckNegates: z.enum(['roll', 'gm', 'never']).default('roll'),
  usuallyVaries: z.enum(['provokes', 'does-not-provoke']).default('provokes'),
  offerAbort: z.boolean().default(true),
  pauseAfterInterruptHit: z.boolean().default(true),
  combatReflexesLimit: z.number().int().min(0).max(50).default(0),
  incapableConditions: z.array(z.string().min(1).max(64)).max(32).default(['unconscious', 'paralysed', 'dead']),
  noRecoveryConditions: z.array(z.string().min(1).max(64)).max(32).default(['dead']),
  conditionModifiers: z.record(z.string().min(1).max(64), modSchema).default({
    stunned: { ocv: 0, dcv: 0, halveDcv: true, zeroDcv: false },
    prone: { ocv: 0, dcv: 0, halveDcv: true, zeroDcv: false },
    underwater: { ocv: 0, dcv: -2, halveDcv: false, zeroDcv: false },
    unconscious: { ocv: 0, dcv: 0, halveDcv: false, zeroDcv: true },
    paralysed: { ocv: 0, dcv: 0, halveDcv: false, zeroDcv: true },
  }),
  manoeuvreModifiers: z.record(z.string().min(1).max(64), modSchema).default({}),
  multipleTargetPenalty: z.number().int().min(0).max(10).default(2),
  braceOcv: z.number().int().min(0).max(10).default(2),
  difficultTerrainCost: z.number().int().min(1).max(10).default(2),
  combatantsBlockSight: z.boolean().default(false),
  passThroughAllies: z.boolean().default(true),
  withdrawDistance: z.enum(['half', 'full']).default('full'),
  reactionDeadlineSeconds: z.number().int().min(5).max(3600).nullable().default(60),
});
export type OcvPhasesOptions = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof OcvPhasesOptions, string> = {
  postTurnRecovery:
    'What the Post-Turn period does: `recovery` (default) gives every character not excluded by `noRecoveryConditions` (and with stat `recovers`) a Recovery: current STUN and END rise by REC up to their maximum; `off` only marks the period.',
  surpriseDcvPenalty: 'The DCV penalty of characters unaware at the start of battle during the Surprise Phase (text: -3). Default 3.',
  tieBreakDie: 'The die each tied character rolls to break an Initiative tie (re-rolled while still tied). Default `1d6`.',
  halfMoveRounding:
    'How half of combat movement rounds for a move action: `up` (default; a 1-hex character moves 1 hex with a move action) or `down`.',
  freeActionLimit: 'Free actions allowed per character per Phase ("there may be limits"); null = no limit. Default 3.',
  skillCheckNegates:
    'Rows marked "Yes (skill check negates)": `roll` (default) — the command may name a skill from the stat `skills`; 3d6 roll-under that value negates the attack of opportunity; `gm` — only a GM-sent `negated: true` negates; `never`.',
  usuallyVaries:
    'Rows marked "Usually (varies)": the default ruling (`provokes` by default). The GM may rule per action by sending the command with `provokes: true|false`.',
  offerAbort: 'When a character is attacked, offer it the chance to abort to a defensive action first (a reaction window). Default true.',
  pauseAfterInterruptHit:
    'After an attack of opportunity or readied attack hits a character whose action was interrupted, hold the action until the GM or its owner continues (so the GM can apply the results). Default true.',
  combatReflexesLimit:
    'With Combat Reflexes: the most attacks of opportunity per Phase (0 = no limit beyond one per opportunity). Default 0.',
  incapableConditions:
    'Conditions that make a character unable to act (it keeps its Initiative score; its actions are skipped). Default unconscious, paralysed, dead.',
  noRecoveryConditions: 'Conditions that exclude a character from the Post-Turn Recovery ("most characters"). Default dead.',
  conditionModifiers:
    'OCV/DCV modifiers of conditions (effects with a condition): OCV and DCV added, DCV halved, DCV 0. Defaults: stunned and prone halve DCV, underwater -2 DCV, unconscious and paralysed DCV 0.',
  manoeuvreModifiers: 'Overrides of the OCV/DCV modifiers of the manoeuvres (e.g. Haymaker). Default none (the table values).',
  multipleTargetPenalty: 'OCV penalty per target after the first for Rapid Fire and Sweep. Default 2.',
  braceOcv: 'OCV bonus of Brace for Accuracy to ranged attacks that Phase (DCV halved until the next action). Default 2.',
  difficultTerrainCost: 'Movement cost of entering a difficult-terrain hex. Default 2.',
  combatantsBlockSight: 'Whether other combatants block line of sight (besides GM-marked blocking hexes). Default false.',
  passThroughAllies:
    'Whether a character may move through hexes of its own side (never through opponents, never ending in an occupied hex). Default true.',
  withdrawDistance: 'How far Withdraw from combat moves: `full` combat movement (default) or `half`.',
  reactionDeadlineSeconds:
    'How long the runtime waits for answers in a reaction window (attack of opportunity, readied action / abort, continue) before passing for those who did not answer; null = wait for the GM. Default 60.',
};
