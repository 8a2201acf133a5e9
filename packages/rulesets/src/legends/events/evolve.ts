import { draftWriter, type EngineEvent, type Item, type Writer } from '@fray/engine';
import { clone, newTurn, posOf, type ActionDef, type ActionKind, type GroupDefense, type GroupMove, type LState, type Offer, type PendingAttack, type PendingMove, type Position, type PreparedReaction, type Touch, type Zone } from '../state/index.js';
import { dataOf, part, turnOf } from './copy.js';
import { lockout, normalize, reanchor } from './space.js';

export function evolve(s: LState, e: EngineEvent, w: Writer = draftWriter): boolean {
  const rs = s.rs;
  const who = e.combatantId as string;
  // Looked up only by the events that use it: each lookup makes a draft of the combatant.
  let cached: LState['combatants'][string] | undefined | null = null;
  const cOf = (): LState['combatants'][string] | undefined => (cached === null ? (cached = who ? s.combatants[who] : undefined) : cached);
  switch (e.type) {
    case 'legends.turnOrderRolled':
      rs.turnRolls = { ...rs.turnRolls, ...(e.margins as Record<string, number>) };
      return true;
    case 'legends.orderSet':
      rs.lastOrder = [...(e.order as string[])];
      return true;
    case 'legends.queue':
      rs.queue = [...(e.queue as string[])];
      return true;
    case 'legends.surprised':
      dataOf(w, cOf()!).surprised = e.surprised as boolean;
      return true;
    case 'legends.turnOrderChanged':
      reanchor(s, who, e.successor as string, w);
      return true;
    case 'legends.reanchored':
      reanchor(s, e.from as string, e.to as string, w);
      return true;
    case 'legends.forfeited':
      dataOf(w, cOf()!).forfeitRound = e.round as number;
      turnOf(w, cOf()!).forfeited = true;
      part(w, rs, 'forfeits').push(who);
      return true;
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
    case 'legends.groupDefenseReset':
      // the new declarations replace last round's (which held through this movement phase)
      rs.defense = {};
      rs.overflow = [];
      return true;
    case 'legends.roundEnded':
      return true;
    case 'legends.movementPhase':
      rs.movers = [...(e.movers as string[])];
      return true;
    case 'legends.movementEnded':
      rs.reactions = [];
      rs.pending = [];
      rs.groupMoves = [];
      rs.movers = [];
      return true;
    case 'legends.turnBegan':
      dataOf(w, cOf()!).turn = newTurn(cOf()!.data.turn.n + 1);
      dataOf(w, cOf()!).busyHands = 0;
      dataOf(w, cOf()!).turnRound = e.round as number;
      // "may continue until their next turn": such touches end now
      rs.touches = rs.touches.filter((t) => !(t.by === who && t.until === 'next-turn'));
      return true;
    case 'legends.turnEnded':
      turnOf(w, cOf()!).ended = true;
      // "Touching normally lasts until the end of the toucher's turn"
      rs.touches = rs.touches.filter((t) => !(t.by === who && t.until === 'end-of-turn'));
      return true;
    case 'legends.acted': {
      const kind = e.kind as ActionKind;
      const key = e.action as string;
      const t = turnOf(w, cOf()!);
      w.own<string[]>(t, 'seq').push(kind);
      if (kind === 'free') w.own<string[]>(t, 'free').push(key);
      else if (kind === 'minor') w.own<string[]>(t, 'minors').push(key);
      else t.major = key;
      if (e.verbal) t.verbal = true;
      if (kind === 'major' && typeof e.hands === 'number') dataOf(w, cOf()!).busyHands = e.hands;
      return true;
    }
    case 'legends.touched': {
      const touch = clone(e.touch as Touch);
      part(w, rs, 'touches').push(touch);
      part(w, rs, 'touchLog').push(`${touch.by}>${touch.target}`);
      turnOf(w, cOf()!).touched = touch.target;
      return true;
    }
    case 'legends.bypassRolled':
      if (e.success) {
        turnOf(w, cOf()!).bypassed = true;
        dataOf(w, cOf()!).bypassedRound = s.clock.round;
      }
      rs.touches = rs.touches.filter((t) => t.by !== who && t.target !== who);
      return true;
    case 'legends.pickupFailed':
      turnOf(w, cOf()!).pickupFailed = e.itemId as string;
      return true;
    case 'legends.moveRolled': {
      const p = clone(e.pending as PendingMove);
      dataOf(w, cOf()!).moveRollRound = s.clock.round;
      part(w, rs, 'pending').push(p);
      // "Characters who make a movement roll ... are no longer considered touching"
      rs.touches = rs.touches.filter((t) => t.by !== who && t.target !== who);
      return true;
    }
    case 'legends.moveUpdated': {
      const p = clone(e.pending as PendingMove);
      const i = rs.pending.findIndex((x) => x.combatantId === p.combatantId);
      if (i >= 0) part(w, rs, 'pending')[i] = p;
      return true;
    }
    case 'legends.moveFinished':
      rs.pending = rs.pending.filter((p) => p.combatantId !== who);
      return true;
    case 'legends.rushed':
      dataOf(w, cOf()!).fatigue += e.fatigue as number;
      dataOf(w, cOf()!).stealth = 'low';
      return true;
    case 'legends.moved':
    case 'legends.placed': {
      const moves = (e.moves as { id: string; to: Position }[] | undefined) ?? [{ id: who, to: e.to as Position }];
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
        return pa.zone === pb.zone && ((pa.group !== null && pa.group === pb.group) || (pa.engagement !== null && pa.engagement === pb.engagement));
      });
      normalize(s, w);
      return true;
    }
    case 'legends.normalized':
      normalize(s, w);
      return true;
    case 'legends.reactionPrepared':
      part(w, rs, 'reactions').push(clone(e.reaction as PreparedReaction));
      return true;
    case 'legends.reactionsSpent':
      rs.reactions = rs.reactions.filter((r) => r.watch !== (e.watch as string));
      return true;
    case 'legends.reactionUsed':
      rs.reactions = rs.reactions
        .map((r) => (r.id === e.reactionId ? { ...r, by: r.by.filter((b) => b !== who) } : r))
        .filter((r) => r.by.length > 0);
      return true;
    case 'legends.groupMoveDeclared':
      part(w, rs, 'groupMoves').push(clone(e.groupMove as GroupMove));
      return true;
    case 'legends.groupMoveAgreed': {
      const i = rs.groupMoves.findIndex((g) => g.group === e.group);
      if (i >= 0) w.own<string[]>(w.own<GroupMove>(part(w, rs, 'groupMoves'), i), 'agreed').push(who);
      return true;
    }
    case 'legends.groupMoveRolled': {
      const i = rs.groupMoves.findIndex((g) => g.group === e.group);
      if (i >= 0) w.own<GroupMove>(part(w, rs, 'groupMoves'), i).rolled = true;
      return true;
    }
    case 'legends.groupMoveEnded':
      rs.groupMoves = rs.groupMoves.filter((g) => g.group !== e.group);
      return true;
    case 'legends.groupDefenseDeclared':
      part(w, rs, 'defense')[e.group as string] = clone({ protected: e.protected as string[], objects: e.objects as GroupDefense['objects'] });
      rs.overflow = rs.overflow.filter((g) => g !== e.group);
      return true;
    case 'legends.groupDefenseOverflow':
      if (!rs.overflow.includes(e.group as string)) part(w, rs, 'overflow').push(e.group as string);
      return true;
    case 'legends.groupDefenseLeft': {
      const d = rs.defense[e.group as string];
      if (d) w.own<GroupDefense>(part(w, rs, 'defense'), e.group as string).protected = d.protected.filter((x) => x !== who);
      lockout(s, who, w);
      return true;
    }
    case 'legends.groupDefenseBrokenDown':
      delete part(w, rs, 'defense')[e.group as string];
      rs.overflow = rs.overflow.filter((g) => g !== e.group);
      return true;
    case 'legends.itemMoved': {
      const from = s.combatants[e.fromId as string]!;
      const to = s.combatants[e.toId as string]!;
      const i = from.items.findIndex((x) => x.id === e.itemId);
      if (i < 0) return true;
      const item: Item = { ...from.items[i]!, location: e.location as Item['location'] };
      const props = { ...(item.props ?? {}) };
      if (e.dropped) props.dropped = clone(e.dropped);
      else delete props.dropped;
      item.props = props;
      w.own<Item[]>(from, 'items').splice(i, 1);
      const j = to.items.length;
      w.own<Item[]>(to, 'items').splice(j, 0, item);
      rs.offers = rs.offers.filter((o) => o.itemId !== e.itemId);
      return true;
    }
    case 'legends.offered':
      part(w, rs, 'offers').push(clone(e.offer as Offer));
      return true;
    case 'legends.offerClosed':
      rs.offers = rs.offers.filter((o) => o.id !== e.offerId);
      return true;
    case 'legends.carried': {
      const target = s.combatants[e.targetId as string]!;
      dataOf(w, target).carriedBy = who;
      // "If your body is moved in any way ... they count as normally dropped items."
      for (let k = 0; k < target.items.length; k++) {
        const it = target.items[k]!;
        const d = it.props?.dropped as { fallen?: boolean } | undefined;
        if (d?.fallen) w.own<Item>(w.own<Item[]>(target, 'items'), k).props = { ...it.props, dropped: { ...d, fallen: false } };
      }
      normalize(s, w);
      return true;
    }
    case 'legends.carryEnded': {
      const target = s.combatants[e.targetId as string];
      if (target) dataOf(w, target).carriedBy = null;
      return true;
    }
    case 'legends.actionDefined':
      part(w, rs, 'customActions')[(e.action as ActionDef).key] = clone(e.action as ActionDef);
      return true;
    case 'legends.actionRemoved':
      delete part(w, rs, 'customActions')[e.key as string];
      return true;
    case 'legends.zoneDefined':
      part(w, rs, 'zones')[(e.zone as Zone).id] = clone(e.zone as Zone);
      return true;
    case 'legends.fatigueChanged':
      dataOf(w, cOf()!).fatigue = e.fatigue as number;
      return true;
    case 'legends.wounded':
      dataOf(w, cOf()!).wounds = e.wounds as number;
      return true;
    case 'legends.attackRolled':
      // a fresh list (a snapshot from before attack outcomes has none)
      rs.attacks = [...(rs.attacks ?? []), clone(e.attack as PendingAttack)];
      return true;
    case 'legends.attackResolved':
      rs.attacks = (rs.attacks ?? []).filter((a) => a.id !== e.attackId);
      return true;
    // facts with no state of their own (the log tells them)
    case 'legends.attacked':
    case 'legends.actionResolved':
    case 'legends.pickupRolled':
    case 'legends.groupMoveFailed':
    case 'legends.movementDeclined':
    case 'legends.turnOrderKept':
      return true;
    default:
      return false;
  }
}
