import { ensure } from '@fray/engine';
import { checkAlternate, checkAreaPower, checkPower, checkPowerTargets, checkTurn } from '../checks/index.js';
import { emit, patchData, plain, type ArCtx } from '../events.js';
import { spend } from './resolve/budget.js';
import type { C, Power } from '../state/index.js';
import { command, gate, me, provokeThenResolve, target, threateners } from './kit.js';
import { S } from './schemas.js';

/** Using a power ("varies": the power's own action type) and switching its alternate effect. */

function powerOf(c: C, powerId: string): Power {
  ensure(checkPower(c, powerId));
  return c.stats.powers.find((x) => x.id === powerId)!;
}

const usePower = command({
  schema: S.usePower,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    const p = powerOf(c, cmd.powerId);
    ensure(checkTurn(ctx.state, c));
    const targets = cmd.targetIds.map((id) => target(ctx, id));
    if (p.range === 'personal' && targets.length === 0) targets.push(c);
    ensure(checkPowerTargets(ctx.options, c, p, targets));
    ensure(checkAreaPower(ctx.state, c, p));
    gate(ctx, c, p.action);
    spend(ctx, c, `power-${p.range}`, p.action);
    if (p.area)
      emit(ctx, 'area-power-used', { combatantId: c.id, powerId: p.id }, { rs: { areaPowerUsed: [...ctx.state.rs.areaPowerUsed, c.id] } });
    const full = { ...cmd, targetIds: targets.map((x) => x.id) };
    // a ranged or gossip power "does provoke an Opportunity Attack"
    const provokes = p.range === 'ranged' || p.range === 'gossip';
    provokeThenResolve(
      ctx,
      c,
      { t: 'resolve', action: 'use-power', cmd: full },
      provokes ? threateners(ctx, c) : [],
      `${c.name} uses ${p.name}`,
    );
  },
});

const switchAlternate = command({
  schema: S.switchAlternate,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'quick');
    const p = powerOf(c, cmd.powerId);
    ensure(checkAlternate(p, cmd.alternate));
    spend(ctx, c, 'switch-alternate', 'quick');
    patchData(
      ctx,
      'alternate-switched',
      c.id,
      { alternates: { ...plain(c.data.alternates), [p.id]: cmd.alternate } },
      { powerId: p.id, alternate: cmd.alternate },
    );
  },
});

export const powerCommands = { 'use-power': usePower, 'switch-alternate': switchAlternate };
