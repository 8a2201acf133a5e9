import { emit } from '../events.js';
import { opts, st, type C, type Job, type S } from '../state/index.js';

export function deadline(s: S): { deadlineSeconds?: number } {
  const d = opts(s).reactionDeadlineSeconds;
  return d === null ? {} : { deadlineSeconds: d };
}

export function pushJob(ctx: C, job: Job): void {
  emit(ctx, { type: 'ocv-phases.job-pushed', combatantId: job.actor, job });
}

/** Hold the action: readied actions and aborts may go first. */
export function openBefore(ctx: C, job: Job, eligible: string[], description: string): void {
  pushJob(ctx, job);
  ctx.openReaction({
    kind: 'ocv-phases.before-action',
    trigger: { combatantId: job.actor, action: job.row, description },
    eligible,
    allowed: ['takeReadied', 'abort'],
    resume: { actor: job.actor, row: job.row },
    ...deadline(st(ctx)),
  });
}

/** Hold the action: the threatening enemies may make an attack of opportunity. */
export function openAoo(ctx: C, job: Job, from: string[], opportunity: string, reason: string): void {
  emit(ctx, { type: 'ocv-phases.provoked', combatantId: job.actor, from, opportunity, reason });
  pushJob(ctx, job);
  const name = st(ctx).combatants[job.actor]!.name;
  ctx.openReaction({
    kind: 'ocv-phases.attack-of-opportunity',
    trigger: { combatantId: job.actor, action: job.row, description: `${name} provokes an attack of opportunity: ${reason}` },
    eligible: from,
    allowed: ['opportunityAttack'],
    resume: { actor: job.actor, row: job.row, opportunity },
    ...deadline(st(ctx)),
  });
}
