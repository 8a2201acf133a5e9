import { ensure, type Combatant, type Ctx, type Effect, type EncounterState } from '@fray/engine';
import { checkEndTurn } from './checks.js';
import { emit, type Expiry } from './events.js';
import type { FreeformOptions } from './options.js';
import { dataOf, optionsOf, statsOf, type RS } from './state.js';

type FCtx = Ctx<RS, FreeformOptions>;

/** "Initiative is the combatant's own dice (or the option's) plus its bonus, unless the GM entered a value." */
function rollInitiative(ctx: FCtx, c: Combatant): number {
  const s = statsOf(c);
  const bonus = s.initiativeBonus ?? 0;
  // the bonus is part of the rolled formula, so the log shows the roll that made the value ("1d20+2 … = 3")
  const formula = `${s.initiative ?? ctx.options.initiativeFormula}${bonus > 0 ? `+${bonus}` : bonus < 0 ? `${bonus}` : ''}`;
  const total = ctx.roll(formula, 'initiative', { combatantId: c.id }).total;
  emit(ctx, { type: 'freeform.initiative', combatantId: c.id, value: total, rolled: true });
  return total;
}

const initiativeOf = (ctx: FCtx, id: string): number => dataOf(ctx.state.combatants[id]!).initiative ?? 0;

/** "Ties are broken by a roll, logged: the higher d20 goes first; a tie again keeps the order they joined in." */
function ordered(ctx: FCtx, ids: string[]): string[] {
  const tie = new Map<string, number>();
  for (const id of ids) {
    if (ids.some((o) => o !== id && initiativeOf(ctx, o) === initiativeOf(ctx, id))) {
      const roll = ctx.roll('1d20', 'initiative tie-break', { combatantId: id }).total;
      tie.set(id, roll);
      emit(ctx, { type: 'freeform.tie-broken', combatantId: id, roll });
    }
  }
  return [...ids].sort((a, b) => initiativeOf(ctx, b) - initiativeOf(ctx, a) || (tie.get(b) ?? 0) - (tie.get(a) ?? 0));
}

export function startCombat(ctx: FCtx): void {
  const ids = Object.keys(ctx.state.combatants);
  for (const id of ids) if (dataOf(ctx.state.combatants[id]!).initiative === null) rollInitiative(ctx, ctx.state.combatants[id]!);
  const order = ordered(ctx, ids);
  ctx.emit({ type: 'clock.changed', round: 1, phase: null, order, current: null });
  emit(ctx, { type: 'freeform.round-started', round: 1 });
  beginTurn(ctx, order[0]!);
}

/** Count down the conditions whose boundary this is; the ones that reach 0 end. */
function tick(ctx: FCtx, at: Expiry['at'], bearer: string | null): void {
  for (const e of [...ctx.state.effects]) {
    const x = e.expires as Expiry | null;
    if (!x || x.at !== at || (at !== 'round-end' && e.targetId !== bearer)) continue;
    if (x.left <= 1) ctx.emit({ type: 'effect.expired', effectId: e.id, reason: 'duration', gmOnly: e.gmOnly || undefined });
    else emit(ctx, { type: 'freeform.condition-ticked', effectId: e.id, left: x.left - 1, ...(e.gmOnly ? { gmOnly: true as const } : {}) });
  }
}

function beginTurn(ctx: FCtx, id: string): void {
  ctx.emit({ type: 'clock.changed', current: id });
  emit(ctx, { type: 'freeform.turn-started', combatantId: id, round: ctx.state.clock.round });
  tick(ctx, 'turn-start', id);
}

/** The turn passes to the next in the order; after the last, the round ends and a new one begins. */
export function advance(ctx: FCtx, from: string): void {
  const order = ctx.state.clock.order;
  const next = order[order.indexOf(from) + 1];
  if (next) return beginTurn(ctx, next);
  tick(ctx, 'round-end', null);
  if (order.length === 0) return void ctx.emit({ type: 'clock.changed', current: null });
  const round = ctx.state.clock.round + 1;
  ctx.emit({ type: 'clock.changed', round });
  emit(ctx, { type: 'freeform.round-started', round });
  beginTurn(ctx, order[0]!);
}

/** "A turn ends when its combatant (or the GM) ends it." */
export function endTurn(ctx: FCtx, combatantId: string): void {
  ensure(checkEndTurn(ctx.state, combatantId));
  emit(ctx, { type: 'freeform.turn-ended', combatantId });
  tick(ctx, 'turn-end', combatantId);
  advance(ctx, combatantId);
}

/** "Conditions lasting rounds end at the end of a round; lasting turns, at their bearer's turn boundary (option conditionsTick)." */
export function effectExpiry(state: EncounterState<unknown>, effect: Effect): Expiry | null {
  if (!effect.duration) return null;
  const rounds = /^rounds?$/i.test(effect.duration.unit) || effect.targetId === null;
  const at = rounds ? 'round-end' : optionsOf(state).conditionsTick === 'start-of-turn' ? 'turn-start' : 'turn-end';
  return { at, left: effect.duration.count };
}

/** "A combatant joining a fight in progress rolls (unless entered) and takes its place after those with the same initiative." */
export function onCombatantAdded(ctx: FCtx, id: string): void {
  if (ctx.state.status !== 'active') return;
  const c = ctx.state.combatants[id]!;
  const value = dataOf(c).initiative ?? rollInitiative(ctx, c);
  const order = ctx.state.clock.order.filter((x) => x !== id);
  const at = order.findIndex((x) => initiativeOf(ctx, x) < value);
  order.splice(at < 0 ? order.length : at, 0, id);
  ctx.emit({ type: 'clock.changed', order });
}

/** "When the combatant whose turn it is leaves, the turn passes to the next with a lower initiative." */
export function onCombatantRemoved(ctx: FCtx, gone: Combatant): void {
  if (ctx.state.status !== 'active' || ctx.state.clock.current !== null) return;
  const value = dataOf(gone).initiative ?? 0;
  const order = ctx.state.clock.order;
  const next = order.find((x) => initiativeOf(ctx, x) < value);
  if (next) return beginTurn(ctx, next);
  advance(ctx, order[order.length - 1] ?? gone.id);
}

/** "The GM may enter a combatant's initiative; in a fight in progress the order is sorted again." */
export function resort(ctx: FCtx): void {
  const order = [...ctx.state.clock.order].sort((a, b) => initiativeOf(ctx, b) - initiativeOf(ctx, a));
  ctx.emit({ type: 'clock.changed', order });
}
