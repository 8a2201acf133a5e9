import { z } from 'zod';
import { ruleError, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue.js';
import {
  membersOfEngagement,
  membersOfGroup,
  opts,
  positionSchema,
  posOf,
  type LCombatant,
  type LState,
  type Position,
  type Zone,
} from '../state/index.js';

/** Every "why not" of the GM's scene tools: surprise, zones, groups, engagements, positions. */

/** "If a character cannot see any enemy characters when combat begins, they are considered surprised" */
export function checkSurprise(s: LState): EngineError | null {
  return s.status === 'setup' ? null : ruleError('COMBAT_ALREADY_STARTED', RULE.surprise, 'Surprise is marked when combat begins.');
}

/** A zone's neighbours are zones the GM defined. */
export function checkNeighbors(s: LState, zone: Zone): EngineError | null {
  const n = zone.neighbors.find((x) => x === zone.id || !s.rs.zones[x]);
  return n === undefined ? null : ruleError('INVALID_COMMAND', RULE.zones, `No neighbouring zone "${n}".`);
}

/** "A group can be as small as 2 characters" and "cannot usually be larger than 10": allies, in one zone. */
export function checkGroup(s: LState, all: readonly LCombatant[]): EngineError | null {
  const max = opts(s).maxGroupSize;
  if (all.length < 2) return ruleError('ILLEGAL_ACTION', RULE.grouping, '"A group can be as small as 2 characters"');
  if (all.length > max) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.grouping,
      `A group "cannot usually be larger than ${max}"; "a larger number of characters should be considered to be more than 1 group."`,
    );
  }
  const first = all[0]!;
  for (const c of all) {
    if (c.side !== first.side) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.grouping,
        '"Allied characters keeping in close proximity to one another are referred to as grouped-up."',
      );
    }
    if (posOf(c).zone !== posOf(first).zone) return ruleError('ILLEGAL_ACTION', RULE.grouping, 'A group is in one zone.');
  }
  return null;
}

/** An engagement: enemies "currently able to attack each other", at most 20, in one zone. */
export function checkEngagement(s: LState, all: readonly LCombatant[]): EngineError | null {
  const max = opts(s).maxEngagementSize;
  if (new Set(all.map((c) => c.side)).size < 2) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.engagement,
      'An engagement is between enemies: "all the characters on either side that are currently able to attack each other".',
    );
  }
  if (all.length > max) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.engagement,
      `"Very large engagements of more than ${max} characters should be split up into different engagements"`,
    );
  }
  const zone = posOf(all[0]!).zone;
  return all.some((c) => posOf(c).zone !== zone) ? ruleError('ILLEGAL_ACTION', RULE.engagement, 'An engagement is in one zone.') : null;
}

/** A position the GM gives: well formed, in a zone there is, in a group of allies and an engagement within their sizes. */
export function checkPlace(s: LState, c: LCombatant, position: unknown): EngineError | null {
  const parsed = positionSchema.safeParse(position);
  if (!parsed.success) return ruleError('INVALID_COMMAND', RULE.position, z.prettifyError(parsed.error));
  const p: Position = parsed.data;
  if (!s.rs.zones[p.zone]) return ruleError('INVALID_COMMAND', RULE.zones, `No zone "${p.zone}".`);
  const o = opts(s);
  if (p.group) {
    const others = membersOfGroup(s, p.group).filter((x) => x.id !== c.id);
    if (others.some((x) => x.side !== c.side)) return ruleError('ILLEGAL_ACTION', RULE.grouping, 'Groups are of allied characters.');
    if (others.length + 1 > o.maxGroupSize)
      return ruleError('ILLEGAL_ACTION', RULE.grouping, `A group "cannot usually be larger than ${o.maxGroupSize}".`);
  }
  if (p.engagement && membersOfEngagement(s, p.engagement).filter((x) => x.id !== c.id).length + 1 > o.maxEngagementSize) {
    return ruleError('ILLEGAL_ACTION', RULE.engagement, `Engagements of more than ${o.maxEngagementSize} characters should be split up.`);
  }
  return null;
}
