import { z } from 'zod';

const attackKinds = { close: 0, ranged: 0, court: 0, rumor: 0 };
/** A number per attack kind, each within the game's range (an attack bonus like a defense, a damage rank like a power's). */
const byKind = (min: number, max: number) => {
  const n = z.number().int().min(min).max(max).default(0);
  return z.object({ close: n, ranged: n, court: n, rumor: n }).default(() => ({ ...attackKinds }));
};

const powerSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(120),
  action: z.enum(['standard', 'move', 'quick', 'free']).default('standard'),
  range: z.enum(['personal', 'close', 'ranged', 'court', 'gossip']).default('ranged'),
  area: z.boolean().default(false),
  rank: z.number().int().min(0).max(40).default(0),
  reach: z.number().int().min(1).max(20).default(1),
  rangeSquares: z.number().int().min(1).max(10000).default(20),
  effect: z.enum(['damage', 'affliction', 'other']).default('other'),
  condition: z.string().max(40).optional(),
  alternates: z.array(z.string().min(1).max(64)).max(20).default([]),
});
export type Power = z.infer<typeof powerSchema>;

export const statsSchema = z.object({
  speedRank: z.number().int().min(-5).max(20).default(0),
  initiative: z.number().int().min(-20).max(40).default(0),
  attack: byKind(-20, 40),
  damage: byKind(0, 40),
  defense: z.number().int().min(-20).max(40).default(0),
  socialDefense: z.number().int().min(-20).max(40).default(0),
  fortitude: z.number().int().min(-20).max(40).default(0),
  reflex: z.number().int().min(-20).max(40).default(0),
  will: z.number().int().min(-20).max(40).default(0),
  toughness: z.number().int().min(-20).max(40).default(0),
  reach: z.number().int().min(1).max(10).default(1),
  range: z.number().int().min(0).max(10000).default(0),
  skills: z.record(z.string(), z.number().int().min(-10).max(40)).default({}),
  naturalWeapons: z.boolean().default(false),
  destiny: z.number().int().min(0).max(100).default(0),
  fate: z.number().int().min(0).max(100).default(0),
  corruption: z.number().int().min(0).max(100).default(0),
  powers: z.array(powerSchema).max(40).default([]),
  commander: z.string().max(64).nullable().default(null),
});
export type Stats = z.infer<typeof statsSchema>;

export const statDocs: Record<string, string> = {
  speedRank: 'Ground speed rank: rank 0 = 30 feet (6 squares); each rank doubles or halves, at least 1 square.',
  initiative: 'Initiative bonus (d20 + this).',
  attack: 'Attack check bonus per attack kind: close, ranged, court, rumor.',
  damage: 'Damage / effect rank per attack kind (passive damage = 10 + rank).',
  defense: 'Combat defense bonus (passive defense 10 + this) against close and ranged attacks.',
  socialDefense: 'Defense bonus against court and rumor attacks.',
  fortitude: 'Resistance',
  reflex: 'Resistance',
  will: 'Resistance (also resists conflict damage)',
  toughness: 'Resistance against combat damage',
  reach: 'Melee reach in squares (threatened squares).',
  range: 'Ranged attack range in squares; 0 = no ranged attack.',
  skills: 'Skill ranks, a row per skill (athletics, endurance, insight, wits …). Wits above 0 means "has ranks in Wits".',
  naturalWeapons: 'Armed even with empty hands (claws, a martial artist).',
  destiny: 'Destiny points',
  fate: 'Fate points',
  corruption: 'Corruption points',
  powers:
    'Powers: a row each, with its name, action, range (personal, close, ranged, court, gossip), area, rank, effect and alternate effects.',
  commander: 'The combatant who may issue it commands (Command action).',
};

/** A square of the 5-foot grid; null off the map. */
export const positionSchema = z
  .object({ x: z.number().int().min(-10000).max(10000), y: z.number().int().min(-10000).max(10000) })
  .nullable();
