import type { ReactionWindow } from '@fray/engine';
import { emit } from '../events.js';
import { clone, incapable, st, type C } from '../state/index.js';
import { runJob, stepBack } from './actions.js';
import { advance } from './clock.js';
import { deadline, pushJob } from './windows.js';

/** Run interrupted actions until one waits on a window or none is left. */
function drain(ctx: C): void {
  for (let guard = 0; guard < 200; guard++) {
    const s = st(ctx);
    if (s.reaction || s.status !== 'active') return;
    const top = s.rs.jobs[s.rs.jobs.length - 1];
    if (!top) {
      if (s.rs.pauseFor) emit(ctx, { type: 'ocv-phases.pause', combatantId: null });
      if (s.clock.current === null) advance(ctx);
      return;
    }
    if (s.rs.pauseFor) {
      if (!s.rs.jobs.some((j) => j.actor === s.rs.pauseFor)) emit(ctx, { type: 'ocv-phases.pause', combatantId: null });
      else if (s.rs.pauseFor === top.actor) {
        const who = top.actor;
        emit(ctx, { type: 'ocv-phases.pause', combatantId: null });
        ctx.openReaction({
          kind: 'ocv-phases.continue',
          trigger: {
            combatantId: who,
            action: top.row,
            description: `${s.combatants[who]!.name} was hit: the GM may apply the results before the action continues ("assuming he is still capable of doing so")`,
          },
          eligible: [who],
          allowed: [],
          resume: null,
          ...deadline(s),
        });
        return;
      }
    }
    emit(ctx, { type: 'ocv-phases.job-popped', combatantId: top.actor });
    if (!s.combatants[top.actor] || incapable(s, top.actor)) {
      emit(ctx, { type: 'ocv-phases.interrupted', combatantId: top.actor, row: top.row, reason: 'no longer capable of acting' });
      if (s.combatants[top.actor]) stepBack(ctx, top);
      continue;
    }
    runJob(ctx, clone(top));
  }
}

/** A window closed: the readied actions and aborts taken in it run first, then the interrupted actions go on. */
export function onReactionClosed(ctx: C, w: ReactionWindow): void {
  const s = st(ctx);
  const intents = s.rs.intents.filter((i) => i.windowId === w.id);
  if (intents.length) emit(ctx, { type: 'ocv-phases.intents-taken', windowId: w.id });
  for (let i = intents.length - 1; i >= 0; i--) {
    const it = intents[i]!;
    pushJob(ctx, { ...it.job, stage: 'provoke' });
  }
  drain(ctx);
}
