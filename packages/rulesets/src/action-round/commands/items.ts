import { ensure, type Item } from '@fray/engine';
import { checkComplex, checkHeld, checkNotProne, checkRetrievable, checkTurn } from '../checks/index.js';
import { RULE } from '../catalogue/index.js';
import { emit, patchData, plain, type ArCtx } from '../events.js';
import { loadRuling, variableRuling } from '../mechanics/rulings.js';
import { payVariable, spend } from './resolve/budget.js';
import { addEffect } from './resolve/effects.js';
import { drawItem, ownItem, pickUp } from './resolve/items.js';
import { finish } from './resolve/windows.js';
import { isStored, posOf, type C } from '../state/index.js';
import { command, gate, me, provokeThenResolve, threateners } from './kit.js';
import { S, type In } from './schemas.js';

/** Objects: retrieve or store, draw or sheathe, pick up or manipulate, drop, ammunition, tools, loading. */

function retrieveItem(ctx: ArCtx, c: C, cmd: In<'retrieve'>): void {
  gate(ctx, c, 'move');
  ensure(checkRetrievable(ctx.state, c, cmd.itemId));
  spend(ctx, c, 'retrieve', 'move');
  provokeThenResolve(ctx, c, { t: 'resolve', action: 'retrieve', cmd }, threateners(ctx, c), `${c.name} retrieves an object`);
}

const retrieve = command({
  schema: S.retrieve,
  actor: 'combatant',
  handle: (ctx: ArCtx, cmd) => retrieveItem(ctx, me(ctx, cmd), cmd),
});

const draw = command({
  schema: S.draw,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    const it = ownItem(c, cmd.itemId);
    if (cmd.mode === 'draw' && isStored(it)) {
      // "If your weapon or object is stored in a pack or otherwise out of easy reach, treat this action as the retrieve or store objects action."
      return retrieveItem(ctx, c, { type: 'retrieve', by: cmd.by, combatantId: c.id, itemId: it.id, to: 'hand' });
    }
    gate(ctx, c, 'quick');
    spend(ctx, c, cmd.mode, 'quick');
    drawItem(ctx, c, it.id, cmd.mode, RULE.draw);
    finish(ctx, c.id, []);
  },
});

const manipulate = command({
  schema: S.manipulate,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'quick');
    spend(ctx, c, 'manipulate', 'quick');
    if (cmd.itemId) pickUp(ctx, c, cmd.itemId, RULE.manipulate);
    else emit(ctx, 'manipulated', { combatantId: c.id, description: cmd.description ?? '' });
    finish(ctx, c.id, []);
  },
});

/** "Dropping to a prone position or dropping a held item is a free action". */
const drop = command({
  schema: S.drop,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'free');
    if (cmd.what === 'prone') {
      ensure(checkNotProne(ctx.state, c));
      spend(ctx, c, 'drop-prone', 'free');
      return void addEffect(ctx, { name: 'prone', condition: 'prone', targetId: c.id, sourceId: c.id, expires: null });
    }
    const it = ownItem(c, cmd.itemId ?? '');
    ensure(checkHeld(c, it));
    spend(ctx, c, 'drop-item', 'free');
    const square = plain(posOf(c));
    const items = plain(c.items).map((i): Item =>
      i.id === it.id ? { ...i, location: 'ground', props: { ...(i.props ?? {}), square } } : i,
    );
    emit(ctx, 'dropped', { combatantId: c.id, itemId: it.id }, { items: { [c.id]: items } });
  },
});

const ammo = command({
  schema: S.ammo,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    gate(ctx, c, 'free');
    spend(ctx, c, `ammo-${cmd.mode}`, 'free');
    patchData(ctx, 'ammo', c.id, { ammo: cmd.mode === 'draw' }, { mode: cmd.mode });
  },
});

const useTool = command({
  schema: S.useTool,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkTurn(ctx.state, c));
    const it = ownItem(c, cmd.itemId);
    const ruling = variableRuling(ctx.state, ctx.options, `tool:${it.id}`, it);
    payVariable(ctx, c, `use-tool:${it.id}`, ruling.type);
    provokeThenResolve(
      ctx,
      c,
      { t: 'resolve', action: 'use-tool', cmd },
      ruling.provokes ? threateners(ctx, c) : [],
      `${c.name} uses ${it.name}`,
    );
  },
});

const load = command({
  schema: S.load,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkTurn(ctx.state, c));
    const it = ownItem(c, cmd.itemId);
    ensure(checkComplex(it));
    payVariable(ctx, c, 'load', loadRuling(ctx.state, ctx.options, it));
    // "loading a complex weapon always provokes an Opportunity Attack"
    provokeThenResolve(ctx, c, { t: 'resolve', action: 'load', cmd }, threateners(ctx, c), `${c.name} loads ${it.name}`);
  },
});

export const itemCommands = { retrieve, draw, manipulate, drop, ammo, 'use-tool': useTool, load };
