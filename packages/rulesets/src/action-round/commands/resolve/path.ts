import { emit, plain, type ArCtx } from '../../events.js';
import { threatenersOfSquare } from '../../mechanics/threat.js';
import { rangeWhy } from '../../mechanics/combat.js';
import { combatant, occupant, posOf, type C, type Square } from '../../state/index.js';
import { resolveAttack } from './attack.js';
import { finish, openOa, type PathState, type Then } from './windows.js';

/** Movement square by square: leaving a threatened square provokes ("Exiting out of a square threatened by another creature"). */

export function startPath(ctx: ArCtx, c: C, action: string, p: Square[], exempt: string[] | 'all', then: Then): void {
  walkPath(ctx, { t: 'path', actorId: c.id, action, path: plain(p), index: 0, exempt, oaAt: -1, then });
}

/** Walk a checked path; stop at an enemy's square; open an opportunity window when leaving a threatened one. */
export function walkPath(ctx: ArCtx, st: PathState, reactionMode = false): void {
  const s = ctx.state;
  const c = combatant(s, st.actorId);
  let i = st.index;
  const done: Square[] = [];
  let stopped = false;
  while (i < st.path.length) {
    const here = done.length ? done[done.length - 1]! : posOf(c)!;
    if (!reactionMode && st.oaAt !== i && st.exempt !== 'all') {
      const exempt = st.exempt;
      const provs = threatenersOfSquare(s, ctx.options, c, here).filter((p) => !exempt.includes(p.id));
      if (provs.length) {
        flush(ctx, st, done);
        openOa(ctx, c, provs, st.action, `${c.name} leaves a threatened square`, { ...st, index: i, oaAt: i });
        return;
      }
    }
    const next = st.path[i]!;
    const occ = occupant(ctx.state, next, c.id);
    if (occ && (occ.side !== c.side || i === st.path.length - 1)) {
      stopped = true;
      break;
    }
    done.push({ x: next.x, y: next.y });
    i++;
  }
  flush(ctx, st, done);
  if (stopped) emit(ctx, 'movement-stopped', { combatantId: c.id, reason: 'square occupied' });
  afterPath(ctx, st, reactionMode);
}

function flush(ctx: ArCtx, st: PathState, done: Square[]): void {
  const last = done[done.length - 1];
  if (!last) return;
  const cur = combatant(ctx.state, st.actorId);
  emit(
    ctx,
    'moved',
    { combatantId: st.actorId, action: st.action, path: plain(done), to: { ...last } },
    {
      pos: { [st.actorId]: { ...last } },
      data: { [st.actorId]: { moved: cur.data.moved + done.length, movedRound: ctx.state.clock.round } },
    },
  );
  done.length = 0;
}

function afterPath(ctx: ArCtx, st: PathState, reactionMode: boolean): void {
  const then = st.then;
  if (then.kind === 'charge') {
    const a = combatant(ctx.state, st.actorId);
    const t = ctx.state.combatants[then.targetId];
    if (!t || rangeWhy(ctx.options, a, t, 'close')) {
      emit(ctx, 'charge-missed', {
        combatantId: a.id,
        targetId: then.targetId,
        reason: 'the target is not within reach at the end of the charge',
      });
    } else {
      // "At the end of your movement, you can perform an attack against your opponent with a -1 Disadvantage to the attack check."
      resolveAttack(ctx, a.id, t.id, 'close', { disadvantage: 1, action: 'charge' });
    }
    if (!reactionMode) finish(ctx, st.actorId, ['moves', 'attacks']);
    return;
  }
  if (then.kind === 'finish' && !reactionMode) finish(ctx, st.actorId, then.kinds);
}
