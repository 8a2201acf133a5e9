import { draftWriter, type Item, type Writer } from '@fray/engine';
import { clone, newTurn, posOf, type LCombatant, type LState, droppedInfo } from '../state/index.js';
import { dataOf, part, turnOf } from './copy.js';
import { lockout, normalize, reanchor } from './space.js';
import type { ClockEvent, ItemEvent, LegendsEvent, MovementEvent } from './types.js';

/**
 * Apply one of the ruleset's events (`LegendsEvent`; the engine keeps its own and throws on an unknown type).
 * The events go by domain, the most frequent first; each part answers false for the types that are not its own.
 */
export function evolve(s: LState, e: LegendsEvent, w: Writer = draftWriter): boolean {
  return (
    evolveClock(s, e, w) ||
    evolveAction(s, e, w) ||
    evolveMovement(s, e, w) ||
    evolveDefense(s, e, w) ||
    evolveItems(s, e, w) ||
    evolveTable(s, e, w)
  );
}

/** the combatant an event is about (a fresh lookup: on the draft path each lookup makes a draft of it) */
const who = (s: LState, id: string): LCombatant => s.combatants[id]!;

function evolveClock(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.turnOrderRolled':
      rs.turnRolls = { ...rs.turnRolls, ...e.margins };
      return true;
    case 'legends.orderSet':
      rs.lastOrder = [...e.order];
      return true;
    case 'legends.queue':
      rs.queue = [...e.queue];
      return true;
    case 'legends.turnOrderChanged':
      reanchor(s, e.combatantId, e.successor, w);
      return true;
    case 'legends.reanchored':
      reanchor(s, e.from, e.to, w);
      return true;
    case 'legends.forfeited': {
      const c = who(s, e.combatantId);
      dataOf(w, c).forfeitRound = e.round;
      turnOf(w, c).forfeited = true;
      part(w, rs, 'forfeits').push(e.combatantId);
      return true;
    }
    case 'legends.forfeitsCleared':
      rs.forfeits = [];
      return true;
    case 'legends.roundBegan':
      rs.touches = rs.touches.filter((t) => t.until === 'maintained' || t.until === 'next-turn').map((t) => ({ ...t }));
      rs.touchLog = [];
      rs.reactions = [];
      rs.groupMoves = [];
      rs.pending = [];
      return true;
    case 'legends.movementPhase':
      rs.movers = [...e.movers];
      return true;
    case 'legends.movementEnded':
      rs.reactions = [];
      rs.pending = [];
      rs.groupMoves = [];
      rs.movers = [];
      return true;
    case 'legends.turnBegan':
    case 'legends.turnEnded':
      return evolveTurn(s, e, w);
    // facts with no state of their own (the log tells them)
    case 'legends.roundEnded':
    case 'legends.turnOrderKept':
      return true;
    default:
      return false;
  }
}

function evolveTurn(s: LState, e: Extract<ClockEvent, { type: 'legends.turnBegan' | 'legends.turnEnded' }>, w: Writer): boolean {
  const rs = s.rs;
  const id = e.combatantId;
  const c = who(s, id);
  if (e.type === 'legends.turnBegan') {
    const d = dataOf(w, c);
    d.turn = newTurn(c.data.turn.n + 1);
    d.busyHands = 0;
    d.turnRound = e.round;
    // "may continue until their next turn": such touches end now
    rs.touches = rs.touches.filter((t) => !(t.by === id && t.until === 'next-turn'));
    return true;
  }
  turnOf(w, c).ended = true;
  // "Touching normally lasts until the end of the toucher's turn"
  rs.touches = rs.touches.filter((t) => !(t.by === id && t.until === 'end-of-turn'));
  return true;
}

function evolveAction(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.acted': {
      const c = who(s, e.combatantId);
      const t = turnOf(w, c);
      w.own<string[]>(t, 'seq').push(e.kind);
      if (e.kind === 'free') w.own<string[]>(t, 'free').push(e.action);
      else if (e.kind === 'minor') w.own<string[]>(t, 'minors').push(e.action);
      else t.major = e.action;
      if (e.verbal) t.verbal = true;
      if (e.kind === 'major' && typeof e.hands === 'number') dataOf(w, c).busyHands = e.hands;
      return true;
    }
    case 'legends.touched': {
      const touch = clone(e.touch);
      part(w, rs, 'touches').push(touch);
      part(w, rs, 'touchLog').push(`${touch.by}>${touch.target}`);
      turnOf(w, who(s, e.combatantId)).touched = touch.target;
      return true;
    }
    case 'legends.bypassRolled': {
      const id = e.combatantId;
      if (e.success) {
        const c = who(s, id);
        turnOf(w, c).bypassed = true;
        dataOf(w, c).bypassedRound = s.clock.round;
      }
      rs.touches = rs.touches.filter((t) => t.by !== id && t.target !== id);
      return true;
    }
    case 'legends.pickupFailed':
      turnOf(w, who(s, e.combatantId)).pickupFailed = e.itemId;
      return true;
    case 'legends.attacked':
    case 'legends.actionResolved':
    case 'legends.pickupRolled':
      return true;
    default:
      return false;
  }
}

function evolveMovement(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.moveRolled': {
      const id = e.combatantId;
      dataOf(w, who(s, id)).moveRollRound = s.clock.round;
      part(w, rs, 'pending').push(clone(e.pending));
      // "Characters who make a movement roll ... are no longer considered touching"
      rs.touches = rs.touches.filter((t) => t.by !== id && t.target !== id);
      return true;
    }
    case 'legends.moveUpdated': {
      const p = clone(e.pending);
      const i = rs.pending.findIndex((x) => x.combatantId === p.combatantId);
      if (i >= 0) part(w, rs, 'pending')[i] = p;
      return true;
    }
    case 'legends.moveFinished':
      rs.pending = rs.pending.filter((p) => p.combatantId !== e.combatantId);
      return true;
    case 'legends.rushed': {
      const d = dataOf(w, who(s, e.combatantId));
      d.fatigue += e.fatigue;
      d.stealth = 'low';
      return true;
    }
    case 'legends.moved':
    case 'legends.placed':
      return evolvePlaced(s, e, w);
    case 'legends.normalized':
      normalize(s, w);
      return true;
    default:
      return evolveMoveDecisions(s, e, w);
  }
}

/** Positions change: the moved combatants, the touches that end, groups and engagements kept consistent. */
function evolvePlaced(s: LState, e: Extract<MovementEvent, { type: 'legends.moved' | 'legends.placed' }>, w: Writer): boolean {
  const rs = s.rs;
  const moves = e.moves ?? (e.type === 'legends.moved' && e.to && e.combatantId ? [{ id: e.combatantId, to: e.to }] : []);
  for (const m of moves) {
    const x = s.combatants[m.id];
    if (x) {
      w.changed(x);
      x.position = clone(m.to);
    }
  }
  // "are separated from each other by another action": touches between characters no longer grouped end
  rs.touches = rs.touches.filter((t) => {
    const a = s.combatants[t.by];
    const b = s.combatants[t.target];
    if (!a || !b) return false;
    const pa = posOf(a);
    const pb = posOf(b);
    return (
      pa.zone === pb.zone && ((pa.group !== null && pa.group === pb.group) || (pa.engagement !== null && pa.engagement === pb.engagement))
    );
  });
  normalize(s, w);
  return true;
}

/** Prepared reactions and grouped-up movement. */
function evolveMoveDecisions(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.reactionPrepared':
      part(w, rs, 'reactions').push(clone(e.reaction));
      return true;
    case 'legends.reactionsSpent':
      rs.reactions = rs.reactions.filter((r) => r.watch !== e.watch);
      return true;
    case 'legends.reactionUsed':
      rs.reactions = rs.reactions
        .map((r) => (r.id === e.reactionId ? { ...r, by: r.by.filter((b) => b !== e.combatantId) } : r))
        .filter((r) => r.by.length > 0);
      return true;
    case 'legends.groupMoveDeclared':
      part(w, rs, 'groupMoves').push(clone(e.groupMove));
      return true;
    case 'legends.groupMoveAgreed': {
      const i = rs.groupMoves.findIndex((g) => g.group === e.group);
      if (i >= 0) w.own<string[]>(w.own<GroupMoveOf>(part(w, rs, 'groupMoves'), i), 'agreed').push(e.combatantId);
      return true;
    }
    case 'legends.groupMoveRolled': {
      const i = rs.groupMoves.findIndex((g) => g.group === e.group);
      if (i >= 0) w.own<GroupMoveOf>(part(w, rs, 'groupMoves'), i).rolled = true;
      return true;
    }
    case 'legends.groupMoveEnded':
      rs.groupMoves = rs.groupMoves.filter((g) => g.group !== e.group);
      return true;
    case 'legends.groupMoveFailed':
    case 'legends.movementDeclined':
      return true;
    default:
      return false;
  }
}
type GroupMoveOf = LState['rs']['groupMoves'][number];

function evolveDefense(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.groupDefenseDeclared':
      part(w, rs, 'defense')[e.group] = clone({ protected: e.protected, objects: e.objects });
      rs.overflow = rs.overflow.filter((g) => g !== e.group);
      return true;
    case 'legends.groupDefenseReset':
      // the new declarations replace last round's (which held through this movement phase)
      rs.defense = {};
      rs.overflow = [];
      return true;
    case 'legends.groupDefenseOverflow':
      if (!rs.overflow.includes(e.group)) part(w, rs, 'overflow').push(e.group);
      return true;
    case 'legends.groupDefenseLeft': {
      const d = e.group === null ? undefined : rs.defense[e.group];
      if (d && e.group !== null)
        w.own<DefenseOf>(part(w, rs, 'defense'), e.group).protected = d.protected.filter((x) => x !== e.combatantId);
      lockout(s, e.combatantId, w);
      return true;
    }
    case 'legends.groupDefenseBrokenDown':
      delete part(w, rs, 'defense')[e.group];
      rs.overflow = rs.overflow.filter((g) => g !== e.group);
      return true;
    default:
      return false;
  }
}
type DefenseOf = LState['rs']['defense'][string];

function evolveItems(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.itemMoved':
      moveItem(s, e, w);
      return true;
    case 'legends.offered':
      part(w, rs, 'offers').push(clone(e.offer));
      return true;
    case 'legends.offerClosed':
      rs.offers = rs.offers.filter((o) => o.id !== e.offerId);
      return true;
    case 'legends.carried': {
      const target = who(s, e.targetId);
      dataOf(w, target).carriedBy = e.combatantId;
      // "If your body is moved in any way ... they count as normally dropped items."
      for (let k = 0; k < target.items.length; k++) {
        const it = target.items[k]!;
        const d = droppedInfo(it);
        if (d?.fallen) w.own<Item>(w.own<Item[]>(target, 'items'), k).props = { ...it.props, dropped: { ...d, fallen: false } };
      }
      normalize(s, w);
      return true;
    }
    case 'legends.carryEnded': {
      const target = s.combatants[e.targetId];
      if (target) dataOf(w, target).carriedBy = null;
      return true;
    }
    default:
      return false;
  }
}

function moveItem(s: LState, e: Extract<ItemEvent, { type: 'legends.itemMoved' }>, w: Writer): void {
  const from = who(s, e.fromId);
  const to = who(s, e.toId);
  const i = from.items.findIndex((x) => x.id === e.itemId);
  if (i < 0) return;
  const item: Item = { ...from.items[i]!, location: e.location };
  const props = { ...(item.props ?? {}) };
  if (e.dropped) props.dropped = clone(e.dropped);
  else delete props.dropped;
  item.props = props;
  w.own<Item[]>(from, 'items').splice(i, 1);
  const j = to.items.length;
  w.own<Item[]>(to, 'items').splice(j, 0, item);
  s.rs.offers = s.rs.offers.filter((o) => o.itemId !== e.itemId);
}

function evolveTable(s: LState, e: LegendsEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'legends.surprised':
      dataOf(w, who(s, e.combatantId)).surprised = e.surprised;
      return true;
    case 'legends.actionDefined':
      part(w, rs, 'customActions')[e.action.key] = clone(e.action);
      return true;
    case 'legends.actionRemoved':
      delete part(w, rs, 'customActions')[e.key];
      return true;
    case 'legends.zoneDefined':
      part(w, rs, 'zones')[e.zone.id] = clone(e.zone);
      return true;
    case 'legends.fatigueChanged':
      dataOf(w, who(s, e.combatantId)).fatigue = e.fatigue;
      return true;
    case 'legends.wounded':
      dataOf(w, who(s, e.combatantId)).wounds = e.wounds;
      return true;
    case 'legends.attackRolled':
      // a fresh list (a snapshot from before attack outcomes has none)
      rs.attacks = [...(rs.attacks ?? []), clone(e.attack)];
      return true;
    case 'legends.attackResolved':
      rs.attacks = (rs.attacks ?? []).filter((a) => a.id !== e.attackId);
      return true;
    default:
      return false;
  }
}
