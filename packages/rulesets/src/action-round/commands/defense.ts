import { ensure } from '@fray/engine';
import { checkAimTarget, checkMaintainAim, checkRecover, checkStance } from '../checks/index.js';
import { patchData, type ArCtx } from '../events.js';
import { spend } from './resolve/budget.js';
import { resistanceCheck, setFatigue } from './resolve/effects.js';
import { check } from './resolve/roll.js';
import { finish } from './resolve/windows.js';
import { boost, combatant, type C } from '../state/index.js';
import { command, gate, me, provokeThenResolve, target, threateners } from './kit.js';
import { S } from './schemas.js';

/** Defend, recover, aim and its upkeep, stance. */

const defend = command({
  schema: S.defend,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    spend(ctx, c, 'defend', 'standard');
    const bonus = (ctx.options.encounterType === 'conflict' ? c.stats.socialDefense : c.stats.defense) + boost(ctx.state, c.id, 'defense');
    // "you make a defense check ... When making this check, you also roll the Fortune Die."
    const r = check(ctx, { who: c.id, bonus, dc: 10 + bonus, purpose: 'defend: active defense check', kind: 'defense', fortune: true });
    patchData(ctx, 'defending', c.id, { activeDefense: r.total }, { defense: r.total, until: 'the start of your next turn' });
    finish(ctx, c.id, []);
  },
});

/** RECOVER: "you gain 1 point of Stress, but remove your highest level of damage or fatigue". */
export function doRecover(ctx: ArCtx, c: C, choice: 'damage' | 'fatigue' | 'resist', effectId?: string): void {
  const cur = combatant(ctx.state, c.id);
  patchData(ctx, 'stress', c.id, { stress: cur.data.stress + 1 });
  if (choice === 'resist' && effectId) {
    resistanceCheck(ctx, c.id, effectId, 'recover');
  } else if (choice === 'fatigue' || (choice === 'damage' && cur.data.damage === 0 && cur.data.socialDamage === 0)) {
    if (cur.data.fatigue > 0) setFatigue(ctx, c.id, cur.data.fatigue - 1, 'recover');
  } else if (cur.data.damage >= cur.data.socialDamage) {
    patchData(ctx, 'recovered', c.id, { damage: cur.data.damage - 1 }, { track: 'damage' });
  } else {
    patchData(ctx, 'recovered', c.id, { socialDamage: cur.data.socialDamage - 1 }, { track: 'socialDamage' });
  }
  const after = combatant(ctx.state, c.id);
  if (after.data.damage < ctx.options.damageLimit && after.data.socialDamage < ctx.options.damageLimit) {
    for (const e of ctx.state.effects.filter((x) => x.targetId === c.id && x.condition === 'incapacitated' && x.sourceId === null))
      ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'recovered' });
  }
}

const recover = command({
  schema: S.recover,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'standard');
    ensure(checkRecover(ctx.state, c, cmd.choice, cmd.effectId));
    spend(ctx, c, 'recover', 'standard');
    doRecover(ctx, c, cmd.choice, cmd.effectId);
    finish(ctx, c.id, []);
  },
});

const aim = command({
  schema: S.aim,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'move');
    const t = target(ctx, cmd.targetId, c);
    ensure(checkAimTarget(ctx.state, c, t));
    spend(ctx, c, 'aim', 'move');
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'aim', cmd }, threateners(ctx, c), `${c.name} takes aim`);
  },
});

const maintainAim = command({
  schema: S.maintainAim,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'free');
    ensure(checkMaintainAim(c));
    spend(ctx, c, 'maintain-aim', 'free');
    const aimAt = c.data.aim!;
    patchData(ctx, 'aim-maintained', c.id, { aim: { ...aimAt, maintainedTurn: c.data.turnsTaken } });
  },
});

const stance = command({
  schema: S.stance,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'quick');
    ensure(checkStance(c, cmd.penalty, cmd.bonus));
    spend(ctx, c, 'stance', 'quick');
    patchData(
      ctx,
      'stance',
      c.id,
      { stance: { penalty: { ...cmd.penalty }, bonus: { ...cmd.bonus } } },
      { until: 'the start of your next turn' },
    );
  },
});

export const defenseCommands = { defend, recover, aim, 'maintain-aim': maintainAim, stance };
