import { chebyshev } from '@fray/engine';
import { RULE } from '../../catalogue/index.js';
import { checkReaction } from '../../checks/index.js';
import type { ArCtx } from '../../events.js';
import { posOf, type C, type Square, type TriggerKind } from '../../state/index.js';
import type { DeferredAction } from './deferred-types.js';

/** Reaction windows the ruleset opens: opportunity attacks, readied actions, counter-stunts. */

export type Then = { kind: 'finish'; kinds: TriggerKind[] } | { kind: 'charge'; targetId: string } | { kind: 'none' };
export type PathState = {
  t: 'path';
  actorId: string;
  action: string;
  path: Square[];
  index: number;
  exempt: string[] | 'all';
  oaAt: number;
  then: Then;
};
/** What resumes when a window closes (the window's `resume`). */
export type Resume = DeferredAction | PathState | { t: 'after'; actorId: string; kinds: TriggerKind[] } | { t: 'none' };

export function openOa(ctx: ArCtx, actor: C, provokers: C[], action: string, description: string, resume: Resume): boolean {
  if (provokers.length === 0) return false;
  ctx.openReaction({
    kind: RULE.opportunityAttack,
    trigger: { combatantId: actor.id, action, description },
    eligible: provokers.map((p) => p.id),
    allowed: ['opportunity-attack'],
    resume,
  });
  return true;
}

/** After an action on a turn: readied actions whose trigger matches get a reaction window. */
export function finish(ctx: ArCtx, actorId: string, kinds: TriggerKind[]): void {
  const s = ctx.state;
  if (s.reaction) return;
  const actor = s.combatants[actorId];
  if (!actor) return;
  const all: TriggerKind[] = ['acts', ...kinds];
  const triggered = (c: C): boolean => {
    const r = c.data.readied;
    if (!r || c.id === actorId) return false;
    if (r.trigger.by !== null ? r.trigger.by !== actorId : c.side === actor.side) return false;
    if (checkReaction(s, ctx.options, c, true)) return false;
    if (r.trigger.event === 'enters-reach') {
      const pc = posOf(c);
      const pa = posOf(actor);
      return all.includes('moves') && !!pc && !!pa && chebyshev(pc, pa) <= c.stats.reach;
    }
    return all.includes(r.trigger.event);
  };
  const eligible = Object.values(s.combatants)
    .filter(triggered)
    .map((c) => c.id)
    .sort();
  if (eligible.length === 0) return;
  const resume: Resume = { t: 'after', actorId, kinds: [] };
  ctx.openReaction({
    kind: RULE.readied,
    trigger: { combatantId: actorId, action: all.join(','), description: `${actor.name} ${kinds.join(' and ') || 'acts'}` },
    eligible,
    allowed: ['readied'],
    resume,
  });
}
