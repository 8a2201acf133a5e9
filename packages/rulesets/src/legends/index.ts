import { display } from './display.js';
import { adjustVital } from './vitals.js';
import { keepIf, keepKeys, mapValuesShared, withParts, type CatalogueEntry, type Ruleset } from '@fray/engine';
import { BUILTIN } from './actions.js';
import { checkOverflow, continueMovement, legendsCommands } from './commands.js';
import { copyRs, sameRs, evolve } from './evolve.js';
import { END, beginActionPhase, beginRound, effectExpiry, endTurn, rollTurnOrder, setOrder, startTurnAt } from './flow.js';
import { legalActions } from './legal.js';
import { outcomeCommands } from './outcome.js';
import {
  DEFAULT_ZONE,
  groupIds,
  membersOfEngagement,
  membersOfGroup,
  clone,
  judge,
  newTurn,
  opts,
  positionSchema,
  statDocs,
  statRoll,
  statsSchema,
  type LCtx,
  type LData,
  type LRS,
  type LegendsStats,
} from './model.js';
import { optionDocs, optionsSchema, type LegendsOptions } from './options.js';

export * from './model.js';
export { optionsSchema, optionDocs, type LegendsOptions } from './options.js';
export { BUILTIN as builtinActions, checkAct } from './actions.js';
export { adjacentInOrder, effectExpiry, END } from './flow.js';

const catalogue: CatalogueEntry[] = [
  ...Object.values(BUILTIN).map((a) => ({ id: a.key, label: a.name, kind: a.kinds.join('/'), cost: a.kinds.join(' or '), rule: a.rule, notes: a.tags.join(', ') || undefined })),
  { id: 'move', label: 'Movement roll on SPD', kind: 'movement', rule: '"To make a significant combat movement in a timely fashion, you must make a movement roll on SPD."' },
  { id: 'finishMove', label: 'Rush / finish a movement', kind: 'movement', rule: '"After seeing the results of your movement roll, you may decide to rush"' },
  { id: 'stay', label: 'Stay', kind: 'movement', rule: '"decide whether or not to move"' },
  { id: 'prepareReaction', label: 'Prepare reactive movement', kind: 'movement', rule: '"you may prepare reactive movement as a response to a later character\'s movement"' },
  { id: 'react', label: 'Reactive movement', kind: 'reaction', rule: '"You may always decline to use a reaction you\'ve prepared"' },
  { id: 'groupMove', label: 'Grouped-up movement', kind: 'movement', rule: '"Characters who are grouped-up can move together, if all agree to do so."' },
  { id: 'declareGroupDefense', label: 'Group defense', kind: 'decision', rule: '"must be decided at the end of the movement phase"' },
  { id: 'changeTurnOrder', label: 'Change turn order', kind: 'decision', rule: '"all characters get a chance to voluntarily move downward in the list"' },
  { id: 'forfeitTurn', label: 'Forfeit a turn to change turn order', kind: 'turn', rule: '"a character can only change their position in the list by completely forfeiting one turn"' },
  { id: 'offerItem', label: 'Offer an item in hand', kind: 'none', rule: '"Offering the item does not require an action on your part"' },
];

export const legends: Ruleset<LRS, LegendsOptions, LegendsStats, LData> = {
  display,
  adjustVital: adjustVital as never,
  id: 'legends',
  name: 'Legends',
  summary:
    'Rounds of a movement phase then an action phase; turn order by a d12 roll on DEX; zones, groups and engagements; free, minor and major actions.',
  optionsSchema: optionsSchema as never,
  optionDocs,
  statsSchema: statsSchema as never,
  statDocs,
  positionSchema,
  space: { kind: 'zones', zones: 'rs.zones' },
  initialState: () => ({
    zones: { [DEFAULT_ZONE]: { id: DEFAULT_ZONE, name: 'The battlefield', traits: {}, features: [], neighbors: [] } },
    turnRolls: {},
    queue: [],
    lastOrder: [],
    pending: [],
    reactions: [],
    groupMoves: [],
    defense: {},
    overflow: [],
    forfeits: [],
    touches: [],
    touchLog: [],
    offers: [],
    customActions: {},
    movers: [],
    attacks: [],
  }),
  initCombatant: () => ({
    surprised: false,
    fatigue: 0,
    wounds: 0,
    stealth: null,
    moveRollRound: 0,
    turn: newTurn(),
    busyHands: 0,
    noMeleeUntilRound: 0,
    carriedBy: null,
    forfeitRound: 0,
    turnRound: 0,
    bypassedRound: 0,
  }),
  commands: { ...legendsCommands(), ...outcomeCommands() },
  evolve: (draft, event, w) => evolve(draft, event, w),
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through `w`
  cow: true,
  // the top of rs, copied field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,
  startCombat(ctx0) {
    rollTurnOrder(ctx0 as unknown as LCtx);
  },
  endTurn(ctx0, id) {
    const ctx = ctx0 as unknown as LCtx;
    const s = ctx.state;
    if (s.clock.phase !== 'action' || s.clock.current !== id) {
      ctx.fail('NOT_YOUR_TURN', 'legends.turns', `It is not ${s.combatants[id]?.name ?? id}'s turn in the action phase.`);
    }
    endTurn(ctx, id, 'ended');
  },
  legalActions,
  catalogue,
  effectExpiry: (state, effect) => effectExpiry(state, effect),
  onCombatantAdded(ctx0, id) {
    const ctx = ctx0 as unknown as LCtx;
    const s = ctx.state;
    if (s.status !== 'active') return;
    // a late arrival makes its turn order roll and takes its place by margin
    const margin = statRoll(ctx, { combatantId: id, stat: 'DEX', purpose: 'turn order roll (d12 on DEX), joining combat' }).margin;
    ctx.emit({ type: 'legends.turnOrderRolled', margins: { [id]: margin }, order: null });
    const order = s.clock.order.filter((x) => x !== id);
    let at = order.findIndex((x) => s.combatants[x]!.data.surprised || (s.rs.turnRolls[x] ?? 0) < margin);
    if (at < 0) at = order.length;
    order.splice(at, 0, id);
    setOrder(ctx, order);
  },
  onCombatantRemoved(ctx0, removed) {
    const ctx = ctx0 as unknown as LCtx;
    const s = ctx.state;
    if (s.status !== 'active') return;
    const last = s.rs.lastOrder;
    const i = last.indexOf(removed.id);
    const successor = last.slice(i + 1).find((x) => s.clock.order.includes(x)) ?? END;
    ctx.emit({ type: 'legends.reanchored', from: removed.id, to: successor });
    ctx.emit({ type: 'legends.orderSet', order: [...s.clock.order] });
    const hadQueue = s.rs.queue.length > 0;
    ctx.emit({ type: 'legends.queue', queue: s.rs.queue.filter((x) => x !== removed.id) });
    for (const p of s.rs.pending.filter((x) => x.combatantId === removed.id)) ctx.emit({ type: 'legends.moveFinished', combatantId: p.combatantId });
    ctx.emit({ type: 'legends.normalized' });
    const phase = s.clock.phase;
    if (phase === 'action' && s.clock.current === null) startTurnAt(ctx, successor === END ? s.clock.order.length : s.clock.order.indexOf(successor));
    else if (phase === 'movement') continueMovement(ctx);
    else if ((phase === 'turn-order' || phase === 'reorder') && hadQueue && s.rs.queue.length === 0) {
      if (phase === 'turn-order') beginRound(ctx, 1);
      else beginActionPhase(ctx);
    } else if ((phase === 'turn-order' || phase === 'reorder') && s.rs.queue[0]) ctx.emit({ type: 'clock.changed', current: s.rs.queue[0] });
    checkOverflow(ctx);
  },
  projectState(rs, viewer, state) {
    if (viewer.role === 'gm') return rs;
    const pid = viewer.role === 'player' ? viewer.playerId : null;
    const seen = (id: string) => {
      const c = state.combatants[id];
      return c !== undefined && (!c.hidden || (pid !== null && c.controller === pid));
    };
    // the GM's plans for its characters stay with the GM; the players' plans are said at the table
    const told = (id: string) => seen(id) && state.combatants[id]!.controller !== null;
    // every part the viewer loses nothing of is the state's own (keepIf and the rest give it back)
    return withParts(rs, {
      turnRolls: keepKeys(rs.turnRolls, seen),
      queue: keepIf(rs.queue, (id) => seen(id) || !state.combatants[id]),
      lastOrder: keepIf(rs.lastOrder, seen),
      movers: keepIf(rs.movers, seen),
      pending: keepIf(rs.pending, (p) => seen(p.combatantId)),
      reactions: keepIf(rs.reactions, (r) => r.by.every(told)),
      groupMoves: keepIf(rs.groupMoves, (g) => g.members.every(seen)),
      defense: mapValuesShared(rs.defense, (d) => withParts(d, { protected: keepIf(d.protected, seen) })),
      touches: keepIf(rs.touches, (t) => seen(t.by) && seen(t.target)),
      touchLog: keepIf(rs.touchLog, (t) => t.split('>').every(seen)),
      offers: keepIf(rs.offers, (o) => seen(o.from) && seen(o.to)),
      forfeits: keepIf(rs.forfeits, seen),
      attacks: keepIf(rs.attacks ?? [], (a) => seen(a.by) && seen(a.target)),
    });
  },
  onRollOverridden(ctx0, roll, previousTotal) {
    const ctx = ctx0 as unknown as LCtx;
    const s = ctx.state;
    const o = opts(s);
    // a pending movement roll: its margin follows the GM's ruling
    const p = s.rs.pending.find((x) => x.rollId === roll.id && !x.finished);
    if (p) {
      const delta = roll.total - previousTotal;
      const margin = o.rollMechanic === 'roll-under' ? p.margin - delta : p.margin + delta;
      ctx.emit({ type: 'legends.moveUpdated', combatantId: p.combatantId, pending: { ...clone(p), total: roll.total, margin, success: margin >= 0 }, overridden: true });
      return;
    }
    // a turn order roll, before anyone decided anything: the list is made again (ties keep their d2 order)
    if (roll.purpose.startsWith('turn order roll') && roll.combatantId && s.clock.round === 1 && s.clock.phase === 'turn-order') {
      const c = s.combatants[roll.combatantId];
      if (!c || s.rs.queue.length !== Math.max(0, s.clock.order.length - 1)) return;
      const margin = judge(o, c.stats.DEX, roll.total, 0, 0).margin;
      const margins = { ...s.rs.turnRolls, [c.id]: margin };
      const old = s.clock.order;
      const order = [...old].sort((a, b) => {
        const sa = s.combatants[a]!.data.surprised ? 1 : 0;
        const sb = s.combatants[b]!.data.surprised ? 1 : 0;
        return sa - sb || margins[b]! - margins[a]! || old.indexOf(a) - old.indexOf(b);
      });
      ctx.emit({ type: 'legends.turnOrderRolled', margins: { [c.id]: margin }, order });
      setOrder(ctx, order);
      const queue = order.slice(0, -1).reverse();
      ctx.emit({ type: 'legends.queue', queue });
      ctx.emit({ type: 'clock.changed', current: queue[0] ?? null });
    }
  },
  onReactionClosed(ctx0, w) {
    const ctx = ctx0 as unknown as LCtx;
    if (w.kind !== 'legends.reactive-movement') return;
    for (const watch of (w.resume as { watch: string[] }).watch) ctx.emit({ type: 'legends.reactionsSpent', watch });
    continueMovement(ctx);
  },
  invariants(state) {
    const broken: string[] = [];
    const o = opts(state);
    for (const c of Object.values(state.combatants)) {
      const t = c.data.turn;
      const majors = t.seq.filter((k) => k === 'major').length;
      const minors = t.seq.filter((k) => k === 'minor').length;
      if (majors > 1) broken.push(`${c.id}: more than one major action in a turn`);
      if (minors > 2) broken.push(`${c.id}: more than two minor actions in a turn`);
      if (majors > 0 && minors > 1) broken.push(`${c.id}: a double minor and a major action`);
      const end = t.seq.findIndex((k, i) => k === 'major' || (k === 'minor' && t.seq.slice(0, i).includes('minor')));
      if (end >= 0 && t.seq.slice(end + 1).includes('free')) broken.push(`${c.id}: a free action after the turn-ending action`);
      if (end >= 0 && end !== t.seq.length - 1) broken.push(`${c.id}: an action after the turn-ending action`);
      if (o.maxFreeActionsPerTurn !== null && t.free.length > o.maxFreeActionsPerTurn) broken.push(`${c.id}: too many free actions`);
      if (c.data.busyHands < 0 || c.data.fatigue < 0) broken.push(`${c.id}: a negative budget`);
      if (new Set(t.free).size !== t.free.length && t.free.some((k) => !(state.rs.customActions[k]?.repeatable ?? false))) {
        const dup = t.free.filter((k, i) => t.free.indexOf(k) !== i);
        if (dup.some((k) => !(state.rs.customActions[k]?.repeatable || c.stats.actions.find((a) => a.key === k)?.repeatable))) broken.push(`${c.id}: the same free action twice`);
      }
    }
    if (state.status === 'active') {
      const ids = Object.keys(state.combatants).sort();
      const order = [...state.clock.order].sort();
      if (ids.join() !== order.join()) broken.push('turn order is not a permutation of the combatants');
    }
    for (const g of groupIds(state)) {
      const n = membersOfGroup(state, g).length;
      if (n < 2 || n > o.maxGroupSize) broken.push(`group ${g} has ${n} members`);
    }
    const engs = new Set(Object.values(state.combatants).map((c) => (c.position as { engagement?: string | null } | null)?.engagement).filter((x): x is string => !!x));
    for (const e of engs) if (membersOfEngagement(state, e).length > o.maxEngagementSize) broken.push(`engagement ${e} is too large`);
    return broken;
  },
};

export default legends;
