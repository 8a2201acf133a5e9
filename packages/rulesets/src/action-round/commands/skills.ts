import { ensure } from '@fray/engine';
import {
  checkAlly,
  checkAssistDelay,
  checkAssistReach,
  checkAssistSkill,
  checkCombine,
  checkConversation,
  checkGambit,
  checkMinion,
  checkPath,
  checkTrick,
  checkTurn,
} from '../checks/index.js';
import { RULE } from '../catalogue/index.js';
import { emit, patchData, plain, type ArCtx } from '../events.js';
import { combinablePowers } from '../mechanics/combat.js';
import { dcEasy, dcHard, dcModerate, ladder, signedDegrees } from '../mechanics/dice.js';
import { variableRuling } from '../mechanics/rulings.js';
import { declareReactions, payVariable, spend, useDeclared } from './resolve/budget.js';
import { addEffect, nextTurn } from './resolve/effects.js';
import { check, opposedSkill, skillCheck } from './resolve/roll.js';
import { finish } from './resolve/windows.js';
import { combatant, skillOf, speedRank, squaresForRank, type C } from '../state/index.js';
import { command, gate, me, provokeThenResolve, target, threateners } from './kit.js';
import { S, type In } from './schemas.js';

/** The skill actions: trick, assist, assessment and its counter, gambit, command, influence, study, use a skill. */

const trick = command({
  schema: S.trick,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    const t = target(ctx, cmd.targetId, c);
    ensure(checkTrick(ctx.options, cmd.skill, cmd.opposing, cmd.condition));
    const used = declareReactions(ctx, c, cmd);
    spend(ctx, c, 'trick', 'standard');
    useDeclared(ctx, c, used);
    const [a, b] = cmd.opposing;
    const best = skillOf(t, a) >= skillOf(t, b) ? a : b;
    const r = opposedSkill(ctx, c, cmd.skill, t, best, `trick (${cmd.skill}) vs ${t.name}'s ${best}`, {
      hunch: cmd.hunch,
      raises: cmd.raises,
    });
    if (r.success) {
      // "your target is afflicted with a lesser condition of your choice ... until the end of your next round"
      addEffect(ctx, {
        name: `${cmd.condition} (trick)`,
        condition: cmd.condition,
        targetId: t.id,
        sourceId: c.id,
        data: { kind: 'trick' },
        expires: nextTurn(ctx.state, c.id, 'end'),
      });
    }
    finish(ctx, c.id, []);
  },
});

type Assist = In<'assist'>;

/** What each ASSIST mode needs before anything is paid; the target of aid, coordinate and distract. */
function assistGates(ctx: ArCtx, c: C, ally: C, cmd: Assist): C | null {
  ensure(checkAlly(c, ally));
  if (cmd.mode === 'skill') {
    ensure(checkAssistDelay(ctx.state, c, ally));
    ensure(checkAssistSkill(cmd.skill));
  }
  if (cmd.mode === 'combine') ensure(checkCombine(c, ally, cmd.powerId));
  if (cmd.mode === 'skill' || cmd.mode === 'combine') return null;
  const t = target(ctx, cmd.targetId, c);
  ensure(checkAssistReach(ctx.options, c, t));
  return t;
}

const assist = command({
  schema: S.assist,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    const ally = target(ctx, cmd.allyId, c);
    const t = assistGates(ctx, c, ally, cmd);
    const used = declareReactions(ctx, c, cmd);
    spend(ctx, c, `assist-${cmd.mode}`, 'standard');
    useDeclared(ctx, c, used);
    assistEffect(ctx, c, ally, t, cmd);
    finish(ctx, c.id, []);
  },
});

function assistEffect(ctx: ArCtx, c: C, ally: C, t: C | null, cmd: Assist): void {
  const o = ctx.options;
  const until = nextTurn(ctx.state, c.id, 'start');
  if (cmd.mode === 'skill') {
    // "Success grants your ally +1 Advantage per degree ... the degrees of success (and failure) are added together"
    const skill = cmd.skill ?? '';
    const r = skillCheck(ctx, c, skill, dcEasy(), `assist ${ally.name} (${skill})`, { hunch: cmd.hunch, raises: cmd.raises });
    const sum = combatant(ctx.state, ally.id).data.assistDegrees + signedDegrees(r);
    return patchData(ctx, 'assisted', ally.id, { assistDegrees: sum }, { by: c.id, degrees: signedDegrees(r), advantage: ladder(sum) });
  }
  if (cmd.mode === 'combine') {
    const r = skillCheck(ctx, c, cmd.skill ?? 'lore', dcHard(o), `combine with ${ally.name}`, { raises: cmd.raises });
    const powerIds = combinablePowers(c, ally, cmd.powerId).map((p) => p.id);
    if (r.success)
      addEffect(ctx, {
        name: `combine +${r.degrees}`,
        targetId: ally.id,
        sourceId: c.id,
        data: { kind: 'power-bonus', n: r.degrees, powerIds },
        expires: until,
        beneficial: true,
      });
    return;
  }
  if (!t) return;
  const dc = cmd.mode === 'coordinate' ? 10 + (t.data.activeDefense !== null ? t.data.activeDefense - 10 : t.stats.defense) : dcModerate(o);
  const r = check(ctx, {
    who: c.id,
    bonus: c.stats.attack.close,
    dc,
    purpose: `${cmd.mode} for ${ally.name} against ${t.name}`,
    kind: 'attack',
    raises: cmd.raises,
    targetId: t.id,
  });
  if (!r.success) return;
  const kind = cmd.mode === 'aid' ? 'aid' : cmd.mode === 'distract' ? 'distract' : 'effect-bonus';
  // "until the start of your next turn"
  addEffect(ctx, {
    name: `${cmd.mode} +${r.degrees}`,
    targetId: ally.id,
    sourceId: c.id,
    data: { kind, n: r.degrees, against: t.id },
    expires: until,
    beneficial: true,
  });
}

const assess = command({
  schema: S.assess,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    target(ctx, cmd.targetId, c);
    const used = declareReactions(ctx, c, cmd);
    spend(ctx, c, `assess-${cmd.benefit}`, 'standard');
    useDeclared(ctx, c, used);
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'assess', cmd }, threateners(ctx, c), `${c.name} sizes up an opponent`);
  },
});

const conceal = command({
  schema: S.conceal,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'move');
    const a = target(ctx, cmd.assessorId, c);
    spend(ctx, c, 'conceal', 'move');
    const oppSkill = skillOf(a, 'insight') >= skillOf(a, 'perception') ? 'insight' : 'perception';
    const r = opposedSkill(ctx, c, cmd.skill, a, oppSkill, `conceal from ${a.name}`);
    if (r.success) {
      // "You can subtract 1 degree advantage per degrees of success."
      const cur = combatant(ctx.state, a.id).data.analyze[c.id] ?? 0;
      patchData(
        ctx,
        'analysis-reduced',
        a.id,
        { analyze: { ...plain(a.data.analyze), [c.id]: Math.max(0, cur - r.degrees) } },
        { by: c.id },
      );
    }
    finish(ctx, c.id, []);
  },
});

const gambit = command({
  schema: S.gambit,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'move');
    const b = cmd.beneficiaryId ? target(ctx, cmd.beneficiaryId) : null;
    ensure(checkGambit(c, b, !!cmd.path, cmd.movement));
    // "The character can move at his speed -1 rank, by taking a -1 Disadvantage, or at his normal rank by taking a -2 Disadvantage."
    if (cmd.path)
      ensure(
        checkPath(ctx.state, c, cmd.path, squaresForRank(speedRank(ctx.state, c) - (cmd.movement === 'reduced' ? 1 : 0)), RULE.gambit),
      );
    const used = declareReactions(ctx, c, cmd);
    spend(ctx, c, 'gambit', 'move');
    useDeclared(ctx, c, used);
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'gambit', cmd }, threateners(ctx, c), `${c.name} attempts a gambit`);
  },
});

const commandMinions = command({
  schema: S.command,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'move');
    for (const id of cmd.minionIds) ensure(checkMinion(c, target(ctx, id, c)));
    spend(ctx, c, 'command', 'move');
    emit(ctx, 'commanded', { combatantId: c.id, minionIds: plain(cmd.minionIds), order: cmd.order });
    finish(ctx, c.id, []);
  },
});

const influence = command({
  schema: S.influence,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'move');
    const t = target(ctx, cmd.targetId, c);
    ensure(checkConversation(ctx.options, c, t));
    const used = declareReactions(ctx, c, cmd);
    spend(ctx, c, 'influence', 'move');
    useDeclared(ctx, c, used);
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'influence', cmd }, threateners(ctx, c), `${c.name} tries to influence ${t.name}`);
  },
});

const study = command({
  schema: S.study,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'quick');
    const used = declareReactions(ctx, c, cmd);
    spend(ctx, c, 'study', 'quick');
    useDeclared(ctx, c, used);
    const opts = { hunch: cmd.hunch, raises: cmd.raises };
    const r = cmd.targetId
      ? opposedSkill(ctx, c, cmd.skill, target(ctx, cmd.targetId, c), cmd.opposedSkill, `study ${cmd.targetId}`, opts)
      : skillCheck(ctx, c, cmd.skill, cmd.dc ?? dcModerate(ctx.options), `study ${cmd.subject ?? ''}`, opts);
    emit(ctx, 'studied', { combatantId: c.id, targetId: cmd.targetId ?? null, learned: r.success, degrees: r.success ? r.degrees : 0 });
    finish(ctx, c.id, []);
  },
});

const useSkill = command({
  schema: S.useSkill,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkTurn(ctx.state, c));
    if (cmd.targetId) target(ctx, cmd.targetId, c);
    // "Use GM’s discretion for both": the GM's ruling for this skill, else the defaults.
    const ruling = variableRuling(ctx.state, ctx.options, `skill:${cmd.skill.toLowerCase()}`);
    const used = declareReactions(ctx, c, cmd);
    payVariable(ctx, c, `use-skill:${cmd.skill}`, ruling.type);
    useDeclared(ctx, c, used);
    provokeThenResolve(
      ctx,
      c,
      { t: 'resolve', action: 'use-skill', cmd },
      ruling.provokes ? threateners(ctx, c) : [],
      `${c.name} uses ${cmd.skill}`,
    );
  },
});

export const skillCommands = { trick, assist, assess, conceal, gambit, command: commandMinions, influence, study, 'use-skill': useSkill };
