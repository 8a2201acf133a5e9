import { chebyshev, ensure } from '@fray/engine';
import { RULE } from '../catalogue/index.js';
import { checkBudget, checkFree, checkGrabbed, checkMoveMode, checkPath, checkProne, checkSplit, checkTurn } from '../checks/index.js';
import { emit, patchData, type ArCtx } from '../events.js';
import { dcHard, dcModerate } from '../mechanics/dice.js';
import { spend } from './resolve/budget.js';
import { setFatigue } from './resolve/effects.js';
import { startPath } from './resolve/path.js';
import { opposedSkill, skillCheck } from './resolve/roll.js';
import { finish } from './resolve/windows.js';
import { stand as standUp } from './resolve/deferred.js';
import { combatant, effectsOn, nearestEnemy, posOf, skillOf, speedRank, squaresForRank, type C, type Square } from '../state/index.js';
import { command, gate, me, provokeThenResolve, threateners } from './kit.js';
import { S, type In } from './schemas.js';

/** Move (walk, run, squeeze, crawl), advance, withdraw, escape, stand. */

const move = command({
  schema: S.move,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkTurn(ctx.state, c));
    ensure(checkMoveMode(ctx.state, c, cmd.mode));
    const open = c.data.move;
    if (open && open.remaining > 0 && open.mode === cmd.mode) return continueMove(ctx, c, cmd);
    const b = checkBudget(ctx.state, c, 'move');
    if (b) ensure(checkSplit(c) ?? b);
    startMove(ctx, c, cmd);
  },
});

function continueMove(ctx: ArCtx, c: C, cmd: In<'move'>): void {
  const open = c.data.move!;
  ensure(checkSplit(c));
  ensure(checkPath(ctx.state, c, cmd.path, open.remaining, RULE.move));
  patchData(ctx, 'move-continued', c.id, { move: { ...open, remaining: open.remaining - cmd.path.length } }, { mode: cmd.mode });
  startPath(ctx, c, `move-${cmd.mode}`, cmd.path, [], { kind: 'finish', kinds: ['moves'] });
}

function startMove(ctx: ArCtx, c: C, cmd: In<'move'>): void {
  const s = ctx.state;
  let rank = speedRank(s, c);
  if (cmd.mode === 'run' && c.data.speedBonusRound !== s.clock.round) {
    ensure(checkFree(s, c, 2));
    spend(ctx, c, 'move-run', 'move');
    runChecks(ctx, c);
    rank = speedRank(ctx.state, combatant(ctx.state, c.id));
  } else {
    spend(ctx, c, `move-${cmd.mode}`, 'move');
  }
  if (cmd.mode === 'squeeze') rank -= 1;
  if (cmd.mode === 'crawl') rank -= 3;
  const max = squaresForRank(rank);
  ensure(checkPath(ctx.state, c, cmd.path, max, RULE.move));
  patchData(
    ctx,
    'move-started',
    c.id,
    { move: { mode: cmd.mode, remaining: max - cmd.path.length, afterStandard: false, split: false } },
    { mode: cmd.mode, squares: max },
  );
  startPath(ctx, c, `move-${cmd.mode}`, cmd.path, [], { kind: 'finish', kinds: ['moves'] });
}

function runChecks(ctx: ArCtx, c: C): void {
  const o = ctx.options;
  const round = ctx.state.clock.round;
  // "make a Athletics check with a Moderate DC (DC 10 + Power Level) as a free action to run faster"
  spend(ctx, combatant(ctx.state, c.id), 'run: Athletics check', 'free');
  const a = skillCheck(ctx, combatant(ctx.state, c.id), 'athletics', dcModerate(o), 'run (Athletics)');
  if (!a.success) return emit(ctx, 'run-failed', { combatantId: c.id });
  const streak = c.data.lastRunRound === round - 1 ? c.data.runStreak + 1 : 0;
  patchData(ctx, 'running', c.id, { speedBonusRound: round, lastRunRound: round, runStreak: streak }, { streak });
  // "You can make a Moderate DC Endurance check as a free action to resist this Fatigue. Running for successive rounds
  // increases the degrees of success needed to resist the Fatigue by one degree for each successive round."
  spend(ctx, combatant(ctx.state, c.id), 'run: Endurance check', 'free');
  const e = skillCheck(
    ctx,
    combatant(ctx.state, c.id),
    'endurance',
    dcModerate(o),
    `resist running fatigue (needs ${streak + 1} degree${streak ? 's' : ''})`,
  );
  if (!(e.success && e.degrees >= streak + 1)) setFatigue(ctx, c.id, combatant(ctx.state, c.id).data.fatigue + 1, 'running');
}

/** ADVANCE / WITHDRAW: "As long as you are moving towards (away from) the nearest enemy you do not provoke an OA". */
function advanceOrWithdraw(ctx: ArCtx, c: C, which: 'advance' | 'withdraw', p: Square[]): void {
  gate(ctx, c, 'move');
  ensure(checkMoveMode(ctx.state, c, 'walk'));
  // "You can move up to your normal speed -3 ranks (typically 5 feet)."
  ensure(checkPath(ctx.state, c, p, squaresForRank(speedRank(ctx.state, c) - 3), which === 'advance' ? RULE.advance : RULE.withdraw));
  const n = nearestEnemy(ctx.state, c);
  const np = n ? posOf(n) : null;
  let ok = !!np;
  if (np) {
    let prev = chebyshev(posOf(c)!, np);
    for (const step of p) {
      const d = chebyshev(step, np);
      if (which === 'advance' ? d >= prev : d <= prev) ok = false;
      prev = d;
    }
  }
  spend(ctx, c, which, 'move');
  emit(ctx, which === 'advance' ? 'advancing' : 'withdrawing', { combatantId: c.id, nearestEnemy: n?.id ?? null, exemptFromOa: ok });
  startPath(ctx, c, which, p, ok ? 'all' : [], { kind: 'finish', kinds: ['moves'] });
}
const advance = command({
  schema: S.advance,
  actor: 'combatant',
  handle: (ctx: ArCtx, cmd) => advanceOrWithdraw(ctx, me(ctx, cmd), 'advance', cmd.path),
});
const withdraw = command({
  schema: S.withdraw,
  actor: 'combatant',
  handle: (ctx: ArCtx, cmd) => advanceOrWithdraw(ctx, me(ctx, cmd), 'withdraw', cmd.path),
});

const escape = command({
  schema: S.escape,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'move');
    ensure(checkGrabbed(ctx.state, c));
    const grab = effectsOn(ctx.state, c.id, 'grab')[0]!;
    const g = combatant(ctx.state, grab.sourceId ?? '');
    if (cmd.path) ensure(checkPath(ctx.state, c, cmd.path, squaresForRank(speedRank(ctx.state, c) - 1), RULE.escape));
    spend(ctx, c, 'escape', 'move');
    // "opposed by a Might or Dexterity skill check chosen by your opponent"
    const opp = skillOf(g, 'might') >= skillOf(g, 'dexterity') ? 'might' : 'dexterity';
    const r = opposedSkill(ctx, c, cmd.skill, g, opp, `escape from ${g.name}'s grab`);
    if (!r.success) {
      emit(ctx, 'escape-failed', { combatantId: c.id, grabberId: g.id });
      return finish(ctx, c.id, []);
    }
    const held = (e: { targetId: string | null; sourceId: string | null; data?: Record<string, unknown> }) =>
      (e.targetId === c.id && e.sourceId === g.id && e.data?.['kind'] === 'grab') ||
      (e.targetId === g.id && e.data?.['kind'] === 'grabbing' && e.data?.['of'] === c.id);
    for (const e of ctx.state.effects.filter(held)) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'escaped' });
    emit(ctx, 'escaped', { combatantId: c.id, grabberId: g.id });
    // "You do not provoke an OA from your grabber for leaving their threatened square."
    if (cmd.path) startPath(ctx, c, 'escape', cmd.path, [g.id], { kind: 'finish', kinds: ['moves'] });
    else finish(ctx, c.id, []);
  },
});

const stand = command({
  schema: S.stand,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, cmd.acrobatic ? 'free' : 'move');
    ensure(checkProne(ctx.state, c));
    if (cmd.acrobatic) {
      spend(ctx, c, 'stand-acrobatic', 'free');
      // "from prone to standing as a free action (with no Opportunity Action) by making an Acrobatics check with a Hard DC"
      const r = skillCheck(ctx, c, 'acrobatics', dcHard(ctx.options), 'stand up (Acrobatics, free action)');
      if (r.success) standUp(ctx, combatant(ctx.state, c.id));
      return;
    }
    spend(ctx, c, 'stand', 'move');
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'stand', cmd: { combatantId: c.id } }, threateners(ctx, c), `${c.name} stands up`);
  },
});

export const movementCommands = { move, advance, withdraw, escape, stand };
