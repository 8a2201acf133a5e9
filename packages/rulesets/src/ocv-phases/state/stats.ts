import { z } from 'zod';

/** The stats a combatant is made with, and the hex a position names. */

export const hexSchema = z.object({ q: z.number().int().min(-10_000).max(10_000), r: z.number().int().min(-10_000).max(10_000) });
export const positionSchema = hexSchema.nullable();

export const statsSchema = z.object({
  combatValue: z.number().int().min(0).max(100),
  lightningReflexes: z.number().int().min(0).max(60).default(0),
  ocv: z.number().int().min(0).max(100).optional(),
  dcv: z.number().int().min(0).max(100).optional(),
  combatLevels: z.number().int().min(0).max(60).default(0),
  move: z.number().int().min(0).max(500).default(6),
  noncombatMove: z.number().int().min(0).max(5000).optional(),
  reach: z.number().int().min(1).max(60).default(1),
  combatReflexes: z.boolean().default(false),
  recovery: z.number().int().min(0).max(200).default(0),
  stun: z.number().int().min(0).max(5000).default(0),
  endurance: z.number().int().min(0).max(5000).default(0),
  recovers: z.boolean().default(true),
  skills: z.record(z.string().min(1).max(64), z.number().int().min(0).max(40)).default({}),
});
export type Stats = z.infer<typeof statsSchema>;

export const statDocs: Record<keyof Stats, string> = {
  combatValue: 'Combat Value: the base of the Initiative score (and of OCV/DCV when those are not given).',
  lightningReflexes: 'Lightning Reflexes modifier added to the Initiative score.',
  ocv: 'Offensive Combat Value (default: combatValue).',
  dcv: 'Defensive Combat Value (default: combatValue).',
  combatLevels: 'Combat levels added to OCV on every attack roll.',
  move: 'Combat movement in hexes per Phase.',
  noncombatMove: 'Non-combat movement in hexes (default: twice combat movement).',
  reach: 'Reach in hexes (1; more with Growth or Stretching): the hexes it threatens.',
  combatReflexes: 'Has the Combat Reflexes skill (more than one attack of opportunity per Phase).',
  recovery: 'REC: STUN and END regained by a Recovery.',
  stun: 'Maximum STUN.',
  endurance: 'Maximum END.',
  recovers: 'Takes the automatic Post-Turn Recovery.',
  skills: 'Skill rolls (3d6 roll-under targets), a row per skill, e.g. acrobatics 12.',
};
