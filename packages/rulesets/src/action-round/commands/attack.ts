import { ensure } from '@fray/engine';
import {
  checkAttackRange,
  checkChargeLine,
  checkCounterStunt,
  checkMoveMode,
  checkOnGrid,
  checkOpportunityAttack,
  checkPath,
  checkRaises,
  checkReaction,
  checkSlam,
} from '../checks/index.js';
import { RULE } from '../catalogue/index.js';
import { emit, patchData, type ArCtx } from '../events.js';
import { damageRank, stuntPenalty, stuntSave } from '../mechanics/combat.js';
import { lineToward, threatens } from '../mechanics/space.js';
import { attackProvokers } from '../mechanics/threat.js';
import { resolveAttack } from './resolve/attack.js';
import { declareReactions, spend, useDeclared, useReaction } from './resolve/budget.js';
import { startPath } from './resolve/path.js';
import { opposed } from './resolve/roll.js';
import { applyStunt } from './resolve/stunt.js';
import { combatant, posOf, speedRank, squaresForRank } from '../state/index.js';
import { command, gate, me, provokeThenResolve, target, threateners } from './kit.js';
import { quickInReaction } from './reactions.js';
import { S } from './schemas.js';

/** Attacks, stunts, charge, and the reaction attacks (opportunity attack, counter-stunt). */

const attack = command({
  schema: S.attack,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    ensure(checkRaises(cmd.raises));
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    const t = target(ctx, cmd.targetId, c);
    ensure(checkAttackRange(ctx.options, c, t, cmd.kind));
    const used = declareReactions(ctx, c, cmd);
    if (cmd.slam) ensure(checkSlam(ctx.state, c));
    spend(ctx, c, `attack-${cmd.kind}`, 'standard');
    useDeclared(ctx, c, used);
    provokeThenResolve(
      ctx,
      c,
      { t: 'resolve', action: 'attack', cmd },
      attackProvokers(ctx.state, ctx.options, c, t, cmd.kind),
      `${c.name} makes a ${cmd.kind} attack`,
    );
  },
});

const stunt = command({
  schema: S.stunt,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    ensure(checkRaises(cmd.raises));
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    const t = target(ctx, cmd.targetId, c);
    ensure(checkAttackRange(ctx.options, c, t, cmd.kind));
    const used = declareReactions(ctx, c, { raises: cmd.raises });
    spend(ctx, c, `stunt-${cmd.benefit}`, 'standard');
    useDeclared(ctx, c, used);
    const full = { ...cmd, disadvantage: stuntPenalty(t, cmd.benefit, cmd.itemId) };
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'stunt', cmd: full }, threateners(ctx, c), `${c.name} attempts a stunt`);
  },
});

const charge = command({
  schema: S.charge,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    const t = target(ctx, cmd.targetId, c);
    ensure(checkMoveMode(ctx.state, c, 'walk'));
    ensure(checkOnGrid(c, t, RULE.charge));
    // "at -1 to your speed rank in a relatively straight line towards your target"
    const max = squaresForRank(speedRank(ctx.state, c) - 1);
    const p = cmd.path ?? lineToward(posOf(c)!, posOf(t)!, c.stats.reach, max);
    ensure(checkPath(ctx.state, c, p, max, RULE.charge));
    ensure(checkChargeLine(c, t, p, max));
    spend(ctx, c, 'charge', 'standard');
    startPath(ctx, c, 'charge', p, [], { kind: 'charge', targetId: t.id });
  },
});

const opportunityAttack = command({
  schema: S.opportunityAttack,
  actor: 'combatant',
  reaction: true,
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkOpportunityAttack(ctx.state, ctx.options, c));
    if (cmd.quick) quickInReaction(ctx, c, cmd.quick);
    const s = ctx.state;
    const mover = combatant(s, s.reaction?.trigger.combatantId ?? '');
    const how = threatens(s, ctx.options, c, posOf(mover)!) ?? 'close';
    ensure(checkReaction(s, ctx.options, c));
    patchData(ctx, 'reacted', c.id, { reactedSeq: s.rs.turnSeq, reactedCycle: c.data.turnsTaken }, { reaction: 'opportunity-attack' });
    // "You may make a melee attack as if you had taken the Close Attack action" (or a court attack with Wits in a conflict).
    resolveAttack(ctx, c.id, mover.id, how, { reaction: true, action: 'opportunity-attack' });
  },
});

const counterStunt = command({
  schema: S.counterStunt,
  actor: 'combatant',
  reaction: true,
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    const w = ctx.state.reaction;
    ensure(checkCounterStunt(w));
    const a = combatant(ctx.state, w?.trigger.combatantId ?? '');
    useReaction(ctx, c, 'counter-stunt');
    if (cmd.quick) quickInReaction(ctx, c, cmd.quick);
    // "make another opposed damage vs. an appropriate defense check"
    const save = stuntSave(a, 'close');
    const r = opposed(
      ctx,
      { who: c.id, bonus: damageRank(ctx.state, c, 'close'), purpose: `counter-stunt (${cmd.benefit}) vs ${a.name}'s ${save}` },
      { who: a.id, bonus: a.stats[save], purpose: `${save} vs counter-stunt` },
      'stunt',
    );
    if (r.success) applyStunt(ctx, c.id, a.id, 'close', { benefit: cmd.benefit, condition: cmd.condition, itemId: cmd.itemId }, r.degrees);
    else emit(ctx, 'stunt-failed', { combatantId: c.id, targetId: a.id, benefit: cmd.benefit, counter: true });
  },
});

export const attackCommands = { attack, stunt, charge, 'opportunity-attack': opportunityAttack, 'counter-stunt': counterStunt };
