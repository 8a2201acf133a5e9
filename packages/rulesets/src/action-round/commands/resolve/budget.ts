import { ensure } from '@fray/engine';
import { checkBudget, checkDeclared, checkQuick, checkReaction } from '../../checks/index.js';
import { emit, patchData, type ArCtx } from '../../events.js';
import { slotFor, type ActionType, type C, type Data, type Slot } from '../../state/index.js';

/** Spending the turn's actions and the turn's one reaction, as events. */

/** Spend an action of `type` from the turn budget (the caller checked it: `checkBudget`). */
export function spend(ctx: ArCtx, c: C, action: string, type: Slot | 'free'): void {
  const d = c.data;
  if (type === 'free') {
    // "You cannot delay if you have already taken an action on your turn": a free action on your own turn is one.
    const own = ctx.state.clock.current === c.id && !ctx.options.delayAfterFreeAction;
    patchData(ctx, 'spent', c.id, own ? { free: d.free + 1, acted: true } : { free: d.free + 1 }, {
      action,
      actionType: type,
      slot: 'free',
    });
    return;
  }
  const slot = slotFor(d, type) ?? type;
  const slots = { ...d.slots, [slot]: d.slots[slot] - 1 };
  const patch: Partial<Data> = { slots, acted: true };
  if (slot === 'quick') patch.quickUsedThisTurn = true;
  if (type === 'standard') {
    patch.standardTaken = true;
    // "You cannot, however, normally split up your move action before and after your standard action."
    if (d.move && d.move.remaining > 0 && !ctx.options.allowSplitMove) patch.move = { ...d.move, afterStandard: true };
  }
  patchData(ctx, 'spent', c.id, patch, { action, actionType: type, slot });
}

/** Take the turn's one reaction (`readied`: the reaction is the readied action itself). */
export function useReaction(ctx: ArCtx, c: C, reaction: string, extra: Partial<Data> = {}): void {
  ensure(checkReaction(ctx.state, ctx.options, c, reaction === 'readied'));
  patchData(ctx, 'reacted', c.id, { reactedSeq: ctx.state.rs.turnSeq, reactedCycle: c.data.turnsTaken, ...extra }, { reaction });
}

/** Reactions declared on one's own check (Raise, Smash, Slam, Hunch): refused unless one, and the turn's reaction is free. */
export function declareReactions(ctx: ArCtx, c: C, flags: { raises?: number; smash?: boolean; slam?: boolean; hunch?: boolean }): string[] {
  const used: string[] = [];
  if (flags.raises) used.push('raise');
  if (flags.smash) used.push('smash');
  if (flags.slam) used.push('slam');
  if (flags.hunch) used.push('hunch');
  ensure(checkDeclared(c, used));
  if (used.length) ensure(checkReaction(ctx.state, ctx.options, c));
  return used;
}
/** After the action is paid: the declared reaction is the turn's one reaction. */
export function useDeclared(ctx: ArCtx, c: C, used: string[]): void {
  const first = used[0];
  if (first !== undefined) useReaction(ctx, c, first);
}

/** A quick action from the turn's budget, or as part of a reaction; false (and an event saying why) when there is none. */
export function payQuick(ctx: ArCtx, c: C): boolean {
  const why = checkQuick(ctx.state, c);
  if (why) {
    emit(ctx, 'quick-unavailable', { combatantId: c.id, reason: why.message });
    return false;
  }
  if (ctx.state.clock.current === c.id) {
    const slot = slotFor(c.data, 'quick') ?? 'quick';
    const patch: Partial<Data> = { slots: { ...c.data.slots, [slot]: c.data.slots[slot] - 1 }, acted: true };
    if (slot === 'quick') patch.quickUsedThisTurn = true;
    patchData(ctx, 'spent', c.id, patch, { action: 'quick', actionType: 'quick', slot });
  } else {
    patchData(ctx, 'spent', c.id, { quickInReaction: true }, { action: 'quick', actionType: 'quick', slot: 'reaction-quick' });
  }
  return true;
}

/** A variable action of the ruled `type`: a reaction takes the turn's reaction, "none" costs nothing, else the slot. */
export function payVariable(ctx: ArCtx, c: C, action: string, type: ActionType): void {
  if (type === 'none') return;
  if (type === 'reaction') return useReaction(ctx, c, action);
  ensure(checkBudget(ctx.state, c, type));
  spend(ctx, c, action, type);
}
