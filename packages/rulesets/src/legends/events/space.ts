import { draftWriter, type Effect, type Writer } from '@fray/engine';
import { isMarker } from '../flow/durations.js';
import { posOf, type GroupDefense, type LState, isPosition } from '../state/index.js';
import { dataOf, part } from './copy.js';

/** What follows from moves: groups and engagements kept consistent, durations re-anchored, the melee lockout. */

export function reanchor(s: LState, from: string, to: string, w: Writer): void {
  for (let i = 0; i < s.effects.length; i++) {
    const m = s.effects[i]!.expires;
    if (!isMarker(m)) continue;
    if ((m.at === 'turn-start' || m.at === 'turn-end') && m.anchor === from) {
      // "the Ability will end at the position in turn order you originally occupied"
      // the end of its turn there is the start of the next one's; END is the end of the action phase
      w.own<Effect>(w.own<Effect[]>(s, 'effects'), i).expires = { at: 'turn-start', round: m.round, anchor: to };
    }
  }
}

/** Keep the spatial model consistent after positions change. */
export function normalize(s: LState, w: Writer = draftWriter): void {
  const groups = new Map<string, string[]>();
  const engs = new Map<string, Set<string>>();
  // carried characters and riders move along with their carrier / mount
  for (const c of Object.values(s.combatants)) {
    const carrier = c.data.carriedBy ? s.combatants[c.data.carriedBy] : c.stats.mountId ? s.combatants[c.stats.mountId] : undefined;
    if (carrier) {
      const p = posOf(carrier);
      const q = c.position;
      if (!isPosition(q) || q.zone !== p.zone || q.area !== p.area || q.group !== p.group || q.engagement !== p.engagement) {
        w.changed(c);
        c.position = { ...p };
      }
    }
  }
  for (const c of Object.values(s.combatants)) {
    const p = posOf(c);
    if (p.group) groups.set(p.group, [...(groups.get(p.group) ?? []), c.id]);
    if (p.engagement) {
      const set = engs.get(p.engagement) ?? new Set<string>();
      set.add(c.side);
      engs.set(p.engagement, set);
    }
  }
  for (const c of Object.values(s.combatants)) {
    const p = c.position;
    if (!isPosition(p)) continue;
    // "A group can be as small as 2 characters"
    const dropGroup = !!p.group && (groups.get(p.group)?.length ?? 0) < 2;
    // an engagement needs two sides
    const dropEngagement = !!p.engagement && (engs.get(p.engagement)?.size ?? 0) < 2;
    if (dropGroup || dropEngagement) {
      const next = { ...p };
      if (dropGroup) next.group = null;
      if (dropEngagement) next.engagement = null;
      w.changed(c);
      c.position = next;
    }
  }
  for (const [g, d] of Object.entries(s.rs.defense)) {
    const members = new Set(
      Object.values(s.combatants)
        .filter((c) => posOf(c).group === g)
        .map((c) => c.id),
    );
    if (members.size < 2) {
      for (const id of d.protected) lockout(s, id, w);
      delete part(w, s.rs, 'defense')[g];
      continue;
    }
    const keep = d.protected.filter((id) => members.has(id));
    for (const id of d.protected) if (!members.has(id)) lockout(s, id, w);
    w.own<GroupDefense>(part(w, s.rs, 'defense'), g).protected = keep;
  }
}

/** "If a character voluntarily leaves group defense or otherwise becomes invalid for it ... they still cannot perform melee attacks until the next round." */
export function lockout(s: LState, id: string, w: Writer): void {
  const c = s.combatants[id];
  if (c) dataOf(w, c).noMeleeUntilRound = Math.max(c.data.noMeleeUntilRound, s.clock.round + 1);
}
