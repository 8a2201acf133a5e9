import { display } from './display.js';
import { adjustVital } from './vitals.js';
import { z } from 'zod';
import type { ArCtx } from './checks.js';
import { keepIf, keepKeys, withParts, type Ruleset } from '@fray/engine';
import { commands, onReactionClosed } from './actions.js';
import { catalogue } from './catalogue.js';
import { legalActions } from './legal.js';
import { optionDocs, optionsSchema, statDocs, statsSchema, type Options, type Stats } from './options.js';
import { combatant, secondsPerRound, type Marker } from './rules.js';
import { copyRs, sameRs, evolveEvent, initialData, type Data, type RS, type State } from './state.js';
import { advance, beginTurn, endTurn, startCombat } from './turns.js';
import { threatenedSquares } from './space.js';

export { ACTIONS, catalogue } from './catalogue.js';
export { degreesOf, ladder, dcEasy, dcModerate, dcHard } from './checks.js';
export { squaresForRank, threatenedSquares } from './space.js';
export type { RS, Data, State } from './state.js';
export type { Options, Stats } from './options.js';

/** Broken invariants of a state (property tests). */
export function invariants(s: State): string[] {
  const out: string[] = [];
  const o = s.options as Options;
  const ids = Object.keys(s.combatants);
  if (s.status === 'active') {
    const order = s.clock.order;
    if (new Set(order).size !== order.length) out.push('the turn order has duplicates');
    for (const id of order) if (!s.combatants[id]) out.push(`order names a missing combatant ${id}`);
    if (s.clock.current !== null && !order.includes(s.clock.current)) out.push('the current combatant is not in the order');
    if (s.clock.current !== null && s.combatants[s.clock.current]?.data.delaying) out.push('the current combatant is delaying');
  }
  const squares = new Map<string, string>();
  for (const id of ids) {
    const c = combatant(s, id);
    const d = c.data;
    if (d.slots.standard < 0 || d.slots.move < 0 || d.slots.quick < 0) out.push(`${id}: negative action budget`);
    if (d.slots.move > 1 || d.slots.quick > 1) out.push(`${id}: more than one move or quick action`);
    if (d.free > s.rs.freeActionLimit) out.push(`${id}: ${d.free} free actions over the limit ${s.rs.freeActionLimit}`);
    if (d.aim && (d.aim.bonus < 1 || d.aim.bonus > o.maxAdvantage)) out.push(`${id}: aim bonus ${d.aim.bonus} out of range`);
    for (const [t, v] of Object.entries(d.analyze)) if (v < 0 || v > o.maxAdvantage) out.push(`${id}: analyze vs ${t} = ${v}`);
    if (d.fatigue < 0 || d.fatigue > 3) out.push(`${id}: fatigue ${d.fatigue}`);
    if (d.destiny < 0 || d.fate < 0 || d.corruption < 0) out.push(`${id}: negative destiny/fate/corruption`);
    if (d.damage < 0 || d.socialDamage < 0 || d.stress < 0) out.push(`${id}: negative damage or stress`);
    if (d.move && d.move.remaining < 0) out.push(`${id}: move overspent`);
    if (s.clock.current !== id && d.readied && d.delaying) out.push(`${id}: readied and delaying`);
    const p = c.position as { x: number; y: number } | null;
    if (p) {
      const k = `${p.x},${p.y}`;
      const other = squares.get(k);
      if (other) out.push(`${id} and ${other} share square ${k}`);
      squares.set(k, id);
    }
  }
  if (new Set(s.rs.areaPowerUsed).size !== s.rs.areaPowerUsed.length) out.push('an area power counted twice');
  if (s.reaction) for (const e of s.reaction.eligible) if (!s.combatants[e]) out.push(`window names a missing combatant ${e}`);
  return out;
}

export const actionRound: Ruleset<RS, Options, Stats, Data> = {
  display,
  adjustVital: adjustVital as never,
  id: 'action-round',
  name: 'The Action Round',
  summary:
    'Six-second (or six-minute) rounds: one standard, one move and one quick action a turn with substitutions, free actions, one reaction a turn; the full action list with opportunity attacks on a 5-foot grid.',
  optionsSchema: optionsSchema as unknown as z.ZodType<Options>,
  optionDocs,
  statsSchema: statsSchema as unknown as z.ZodType<Stats>,
  statDocs,
  positionSchema: z.object({ x: z.number().int().min(-10000).max(10000), y: z.number().int().min(-10000).max(10000) }).nullable(),
  space: { kind: 'squares' },
  initialState: (o) => ({ freeActionLimit: o.freeActionLimit, roundSeconds: secondsPerRound(o), turnSeq: 0, areaPowerUsed: [], rulings: {}, attitudes: {}, lastCheck: {}, interrupted: null }),
  initCombatant: (stats) => initialData(stats),
  commands: commands as unknown as Ruleset<RS, Options, Stats, Data>['commands'],
  catalogue,
  evolve: (draft, e, w) => evolveEvent(draft as State, e, w),
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through `w`
  cow: true,
  // the top of rs, copied field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,
  startCombat,
  endTurn,
  legalActions: (state, id) => legalActions(state as State, id),
  onReactionClosed,
  onCombatantAdded(ctx: ArCtx, id: string) {
    if (ctx.state.status !== 'active') return;
    ctx.emit({ type: 'clock.changed', order: [...ctx.state.clock.order, id] });
  },
  onCombatantRemoved(ctx: ArCtx) {
    const s = ctx.state as State;
    if (s.status !== 'active' || s.clock.current !== null || s.clock.order.length === 0) return;
    // The removed combatant was acting: the turn passes to the first in the order who has not yet had this round's turn.
    const max = Math.max(...s.clock.order.map((id) => combatant(s, id).data.turnsTaken));
    const next = s.clock.order.find((id) => combatant(s, id).data.turnsTaken < max);
    if (next) beginTurn(ctx, next);
    else advance(ctx, s.clock.order[s.clock.order.length - 1]!);
  },
  effectExpiry(state, effect) {
    const d = effect.duration;
    if (!d || d.unit === 'encounter') return null;
    const of = effect.targetId ?? effect.sourceId;
    if (!of || !state.combatants[of]) return null;
    const c = combatant(state as State, of);
    // "count" turns of the affected character, the current one included when it is acting now.
    const own = state.clock.current === of && d.unit !== 'start-of-turn' ? 1 : 0;
    const marker: Marker = { of, at: d.unit === 'start-of-turn' ? 'start' : 'end', turn: c.data.turnsTaken + d.count - own };
    return marker;
  },
  invariants: (s) => invariants(s as State),
  projectState(rs, viewer, state) {
    // Hidden characters' last checks are GM-only, like their rolls.
    if (viewer.role === 'gm') return rs;
    const playerId = viewer.role === 'player' ? viewer.playerId : null;
    const seen = (id: string) => {
      const c = state.combatants[id];
      return !!c && (!c.hidden || (playerId !== null && c.controller === playerId));
    };
    return withParts(rs, {
      lastCheck: keepKeys(rs.lastCheck, seen),
      attitudes: keepKeys(rs.attitudes, seen),
      areaPowerUsed: keepIf(rs.areaPowerUsed, seen),
      interrupted: rs.interrupted && seen(rs.interrupted) ? rs.interrupted : null,
    });
  },
};

export { threatenedSquares as threatened };
