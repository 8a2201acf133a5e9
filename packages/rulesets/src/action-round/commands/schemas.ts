import { commandSchema, idSchema } from '@fray/engine';
import { z } from 'zod';

/** The schema of every command (the engine parses a command with it before its handler runs). */

const sq = z.object({ x: z.number().int().min(-10000).max(10000), y: z.number().int().min(-10000).max(10000) });
const path = z.array(sq).min(1).max(64);
const kind = z.enum(['close', 'ranged', 'court', 'rumor']);
const benefit = z.enum(['afflict', 'disarm', 'grab', 'pull', 'push', 'break']);
const skill = z.string().min(1).max(40);
/** "You can make up to two raises on a single check": more is refused by the rule (checkRaises), not by the schema. */
const raises = z.number().int().min(0).max(100).default(0);
const hunch = z.boolean().default(false);
const quick = z.object({ action: z.enum(['draw', 'sheathe', 'manipulate']), itemId: idSchema }).optional();
export const READYABLE = ['attack', 'stunt', 'move', 'draw', 'manipulate', 'use-power', 'aim'] as const;

function cmd<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return commandSchema(type, { combatantId: idSchema, ...shape });
}

export const S = {
  attack: cmd('attack', { kind, targetId: idSchema, raises, smash: z.boolean().default(false), slam: z.boolean().default(false) }),
  defend: cmd('defend', {}),
  recover: cmd('recover', { choice: z.enum(['damage', 'fatigue', 'resist']).default('damage'), effectId: idSchema.optional() }),
  charge: cmd('charge', { targetId: idSchema, path: path.optional() }),
  ready: cmd('ready', {
    action: z.enum(READYABLE),
    params: z.record(z.string(), z.unknown()).default({}),
    trigger: z.object({
      event: z.enum(['acts', 'moves', 'attacks', 'enters-reach']),
      by: idSchema.nullable().default(null),
      description: z.string().max(200).default(''),
    }),
  }),
  readied: cmd('readied', { targetId: idSchema.optional(), path: path.optional(), itemId: idSchema.optional(), quick }),
  trick: cmd('trick', {
    targetId: idSchema,
    skill,
    opposing: z.tuple([skill, skill]),
    condition: z.string().min(1).max(40),
    hunch,
    raises,
  }),
  stunt: cmd('stunt', {
    targetId: idSchema,
    benefit,
    kind: kind.default('close'),
    condition: z.string().max(40).optional(),
    itemId: idSchema.optional(),
    catch: z.boolean().default(false),
    raises,
  }),
  counterStunt: cmd('counter-stunt', { benefit, condition: z.string().max(40).optional(), itemId: idSchema.optional(), quick }),
  assist: cmd('assist', {
    mode: z.enum(['skill', 'aid', 'coordinate', 'combine', 'distract']),
    allyId: idSchema,
    targetId: idSchema.optional(),
    powerId: idSchema.optional(),
    skill: skill.optional(),
    hunch,
    raises,
  }),
  assess: cmd('assess', {
    targetId: idSchema,
    skill: z.string().regex(/^(insight|investigation|lore(:[a-z-]+)?)$/),
    benefit: z.enum(['analyze', 'appraisal']),
    hunch,
    raises,
  }),
  conceal: cmd('conceal', { assessorId: idSchema, skill: z.enum(['deception', 'stealth']) }),
  move: cmd('move', { mode: z.enum(['walk', 'run', 'squeeze', 'crawl']), path }),
  stand: cmd('stand', { acrobatic: z.boolean().default(false) }),
  advance: cmd('advance', { path }),
  withdraw: cmd('withdraw', { path }),
  escape: cmd('escape', { skill: z.enum(['might', 'acrobatics']), path: path.optional() }),
  retrieve: cmd('retrieve', { itemId: idSchema, to: z.enum(['hand', 'carried']).default('hand') }),
  aim: cmd('aim', { targetId: idSchema }),
  maintainAim: cmd('maintain-aim', {}),
  gambit: cmd('gambit', {
    skill,
    beneficiaryId: idSchema.optional(),
    movement: z.enum(['none', 'reduced', 'normal']).default('none'),
    path: path.optional(),
    hunch,
    raises,
  }),
  command: cmd('command', { minionIds: z.array(idSchema).min(1).max(50), order: z.string().min(1).max(200) }),
  influence: cmd('influence', {
    targetId: idSchema,
    skill: z.enum(['persuasion', 'intimidation', 'deception', 'wits']),
    goal: z.enum(['improve', 'worsen', 'shift']),
    subject: z.string().max(64).optional(),
    hunch,
    raises,
  }),
  draw: cmd('draw', { mode: z.enum(['draw', 'sheathe']).default('draw'), itemId: idSchema }),
  manipulate: cmd('manipulate', { itemId: idSchema.optional(), description: z.string().max(200).optional() }),
  study: cmd('study', {
    skill,
    targetId: idSchema.optional(),
    opposedSkill: skill.default('deception'),
    dc: z.number().int().min(0).max(100).optional(),
    subject: z.string().max(200).optional(),
    hunch,
    raises,
  }),
  stance: cmd('stance', {
    penalty: z.object({ on: z.enum(['attack', 'defense', 'effect']), n: z.number().int().min(1).max(5) }),
    bonus: z.object({ on: z.enum(['attack', 'defense', 'effect']), n: z.number().int().min(1).max(5) }),
  }),
  switchAlternate: cmd('switch-alternate', { powerId: idSchema, alternate: z.string().min(1).max(64) }),
  talk: cmd('talk', { text: z.string().min(1).max(280) }),
  drop: cmd('drop', { what: z.enum(['prone', 'item']), itemId: idSchema.optional() }),
  ammo: cmd('ammo', { mode: z.enum(['draw', 'store']) }),
  spend: cmd('spend', {
    pool: z.enum(['destiny', 'fate', 'corruption']).default('destiny'),
    use: z.enum(['coup', 'edit-scene', 'improve-roll', 'inspiration', 'recover', 'stunt']),
    choice: z.enum(['damage', 'fatigue']).default('fatigue'),
    benefit: benefit.optional(),
    condition: z.string().max(40).optional(),
    note: z.string().max(200).optional(),
  }),
  opportunityAttack: cmd('opportunity-attack', { quick }),
  surge: cmd('surge', {
    benefit: z.enum(['additional-action', 'alternate-effect', 'boost', 'burst', 'edge', 'counter', 'resistance', 'retry']),
    trait: z.string().max(40).optional(),
    powerId: idSchema.optional(),
    alternate: z.string().max(64).optional(),
    effectId: idSchema.optional(),
    negate: z.enum(['disadvantages', 'advantages']).default('disadvantages'),
    note: z.string().max(200).optional(),
  }),
  delay: cmd('delay', {}),
  actNow: cmd('act-now', {}),
  usePower: cmd('use-power', { powerId: idSchema, targetIds: z.array(idSchema).max(50).default([]) }),
  useSkill: cmd('use-skill', {
    skill,
    description: z.string().max(200).default(''),
    dc: z.union([z.number().int().min(0).max(100), z.enum(['easy', 'moderate', 'hard'])]).optional(),
    targetId: idSchema.optional(),
    opposedSkill: skill.optional(),
    hunch,
    raises,
  }),
  useTool: cmd('use-tool', {
    itemId: idSchema,
    description: z.string().max(200).optional(),
    skill: skill.optional(),
    dc: z.number().int().min(0).max(100).optional(),
  }),
  load: cmd('load', { itemId: idSchema }),
  setFreeActionLimit: commandSchema('set-free-action-limit', { limit: z.number().int().min(0).max(100) }),
  setRuling: commandSchema('set-ruling', {
    key: z.string().regex(/^(skill|tool|load):[A-Za-z0-9_.:-]{1,64}$/),
    actionType: z.enum(['standard', 'move', 'quick', 'free', 'reaction', 'none']),
    provokes: z.boolean(),
  }),
};

export type In<K extends keyof typeof S> = z.output<(typeof S)[K]>;
