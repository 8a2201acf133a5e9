import type { Ruleset } from '@fray/engine';
import type { FixtureCombatant } from '@fray/conformance';

/**
 * The fixture fight from a ruleset's own sample stat blocks: two player characters (controlled by
 * players p1 and p2) against two NPCs, at the given positions.
 */
export function fightFromSamples(ruleset: Ruleset, positions: unknown[]): FixtureCombatant[] {
  const samples = ruleset.display?.samples ?? [];
  if (samples.length < 2) throw new Error(`${ruleset.id} has fewer than two sample stat blocks`);
  const pick = (i: number) => samples[i % samples.length]!;
  const mk = (id: string, i: number, side: string, controller: string | null): FixtureCombatant => ({
    id,
    name: id.toUpperCase(),
    side,
    controller,
    stats: pick(i).stats,
    items: pick(i).items ?? [],
    position: positions[['pc1', 'pc2', 'npc1', 'npc2'].indexOf(id)] ?? null,
  });
  return [mk('pc1', 0, 'heroes', 'p1'), mk('pc2', 1, 'heroes', 'p2'), mk('npc1', 0, 'foes', null), mk('npc2', 1, 'foes', null)];
}
