import { draftWriter, hasExactKeys, sameShallow, type Effect, type EngineEvent, type Item, type Writer } from '@fray/engine';
import type { Marker } from './flow.js';
import {
  clone,
  newTurn,
  posOf,
  type ActionDef,
  type ActionKind,
  type GroupDefense,
  type GroupMove,
  type LCombatant,
  type LData,
  type LRS,
  type LState,
  type Offer,
  type PendingMove,
  type Position,
  type PreparedReaction,
  type Touch,
  type PendingAttack,
  type TurnBudget,
  type Zone,
} from './model.js';

/** The keys of a combatant's data, in the order it is built with. */
const DATA_KEYS: readonly string[] = ['surprised', 'fatigue', 'wounds', 'stealth', 'moveRollRound', 'turn', 'busyHands', 'noMeleeUntilRound', 'carriedBy', 'forfeitRound', 'turnRound', 'bypassedRound'];
const copyDataLiteral = (v: LData): LData => ({
  surprised: v.surprised,
  fatigue: v.fatigue,
  wounds: v.wounds,
  stealth: v.stealth,
  moveRollRound: v.moveRollRound,
  turn: v.turn,
  busyHands: v.busyHands,
  noMeleeUntilRound: v.noMeleeUntilRound,
  carriedBy: v.carriedBy,
  forfeitRound: v.forfeitRound,
  turnRound: v.turnRound,
  bypassedRound: v.bypassedRound,
});
const copyDataSpread = (v: LData): LData => ({ ...v });
/**
 * A shallow copy of a combatant's data for the copy-on-write path: field by field when it has exactly
 * `DATA_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyData(v: LData): LData {
  return hasExactKeys(v, DATA_KEYS) ? copyDataLiteral(v) : copyDataSpread(v);
}
const sameDataLiteral = (c: LData, o: LData): boolean =>
  c.surprised === o.surprised &&
  c.fatigue === o.fatigue &&
  c.wounds === o.wounds &&
  c.stealth === o.stealth &&
  c.moveRollRound === o.moveRollRound &&
  c.turn === o.turn &&
  c.busyHands === o.busyHands &&
  c.noMeleeUntilRound === o.noMeleeUntilRound &&
  c.carriedBy === o.carriedBy &&
  c.forfeitRound === o.forfeitRound &&
  c.turnRound === o.turnRound &&
  c.bypassedRound === o.bypassedRound;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: LData, o: LData): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c as never, o as never);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = ['zones', 'turnRolls', 'queue', 'lastOrder', 'pending', 'reactions', 'groupMoves', 'defense', 'overflow', 'forfeits', 'touches', 'touchLog', 'offers', 'customActions', 'movers', 'attacks'];
const copyRsLiteral = (v: LRS): LRS => ({
  zones: v.zones,
  turnRolls: v.turnRolls,
  queue: v.queue,
  lastOrder: v.lastOrder,
  pending: v.pending,
  reactions: v.reactions,
  groupMoves: v.groupMoves,
  defense: v.defense,
  overflow: v.overflow,
  forfeits: v.forfeits,
  touches: v.touches,
  touchLog: v.touchLog,
  offers: v.offers,
  customActions: v.customActions,
  movers: v.movers,
  attacks: v.attacks,
});
const copyRsSpread = (v: LRS): LRS => ({ ...v });
/**
 * A shallow copy of the ruleset state (`rs`) for the copy-on-write path: field by field when it has exactly
 * `RS_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyRs(v: LRS): LRS {
  return hasExactKeys(v, RS_KEYS) ? copyRsLiteral(v) : copyRsSpread(v);
}
const sameRsLiteral = (c: LRS, o: LRS): boolean =>
  c.zones === o.zones &&
  c.turnRolls === o.turnRolls &&
  c.queue === o.queue &&
  c.lastOrder === o.lastOrder &&
  c.pending === o.pending &&
  c.reactions === o.reactions &&
  c.groupMoves === o.groupMoves &&
  c.defense === o.defense &&
  c.overflow === o.overflow &&
  c.forfeits === o.forfeits &&
  c.touches === o.touches &&
  c.touchLog === o.touchLog &&
  c.offers === o.offers &&
  c.customActions === o.customActions &&
  c.movers === o.movers &&
  c.attacks === o.attacks;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: LRS, o: LRS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c as never, o as never);
}

// Writes below a combatant's top level and below `rs`'s top level go through the writer (`own`):
// on the copy-on-write path they copy what they change (the mutative path's writer is a no-op).
const dataOf = (w: Writer, c: LCombatant): LData => w.own<LData>(c, 'data', copyData, sameData);
const turnOf = (w: Writer, c: LCombatant): TurnBudget => w.own<TurnBudget>(dataOf(w, c), 'turn');
const part = <K extends keyof LRS>(w: Writer, rs: LRS, k: K): LRS[K] => w.own<LRS[K]>(rs, k);

function reanchor(s: LState, from: string, to: string, w: Writer): void {
  for (let i = 0; i < s.effects.length; i++) {
    const m = s.effects[i]!.expires as Marker | null;
    if (!m || typeof m !== 'object') continue;
    if ((m.at === 'turn-start' || m.at === 'turn-end') && m.anchor === from) {
      // "the Ability will end at the position in turn order you originally occupied"
      // the end of its turn there is the start of the next one's; END is the end of the action phase
      w.own<Effect>(w.own<Effect[]>(s, 'effects'), i).expires = { at: 'turn-start', round: m.round, anchor: to };
    }
  }
}

/** Keep the spatial model consistent after positions change. */
export function normalize(s: LState, w: Writer = draftWriter): void {
  const groups = new Map<string, string[]>();
  const engs = new Map<string, Set<string>>();
  // carried characters and riders move along with their carrier / mount
  for (const c of Object.values(s.combatants)) {
    const carrier = c.data.carriedBy ? s.combatants[c.data.carriedBy] : c.stats.mountId ? s.combatants[c.stats.mountId] : undefined;
    if (carrier) {
      const p = posOf(carrier);
      const q = c.position as Position | null;
      if (!q || q.zone !== p.zone || q.area !== p.area || q.group !== p.group || q.engagement !== p.engagement) {
        w.changed(c);
        c.position = { ...p };
      }
    }
  }
  for (const c of Object.values(s.combatants)) {
    const p = posOf(c);
    if (p.group) groups.set(p.group, [...(groups.get(p.group) ?? []), c.id]);
    if (p.engagement) {
      const set = engs.get(p.engagement) ?? new Set<string>();
      set.add(c.side);
      engs.set(p.engagement, set);
    }
  }
  for (const c of Object.values(s.combatants)) {
    const p = c.position as Position | null;
    if (!p) continue;
    // "A group can be as small as 2 characters"
    const dropGroup = !!p.group && (groups.get(p.group)?.length ?? 0) < 2;
    // an engagement needs two sides
    const dropEngagement = !!p.engagement && (engs.get(p.engagement)?.size ?? 0) < 2;
    if (dropGroup || dropEngagement) {
      const next = { ...p };
      if (dropGroup) next.group = null;
      if (dropEngagement) next.engagement = null;
      w.changed(c);
      c.position = next;
    }
  }
  for (const [g, d] of Object.entries(s.rs.defense)) {
    const members = new Set(Object.values(s.combatants).filter((c) => posOf(c).group === g).map((c) => c.id));
    if (members.size < 2) {
      for (const id of d.protected) lockout(s, id, w);
      delete part(w, s.rs, 'defense')[g];
      continue;
    }
    const keep = d.protected.filter((id) => members.has(id));
    for (const id of d.protected) if (!members.has(id)) lockout(s, id, w);
    w.own<GroupDefense>(part(w, s.rs, 'defense'), g).protected = keep;
  }
}

/** "If a character voluntarily leaves group defense or otherwise becomes invalid for it ... they still cannot perform melee attacks until the next round." */
function lockout(s: LState, id: string, w: Writer): void {
  const c = s.combatants[id];
  if (c) dataOf(w, c).noMeleeUntilRound = Math.max(c.data.noMeleeUntilRound, s.clock.round + 1);
}

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
