import { draftWriter, jsonCopy, type Ctx, type EngineEvent, type Item, type Writer } from '@fray/engine';
import type { Options } from './options.js';
import {
  copyData,
  sameData,
  type ActionType,
  type AttackKind,
  type Data,
  type LastCheck,
  type RS,
  type Slot,
  type Square,
  type State,
} from './state/index.js';

/** The handler context, with the state typed as this ruleset's. */
export type ArCtx = Ctx<RS, Options> & { readonly state: State };

/**
 * The ruleset's events are named facts (`action-round.<fact>`). Each carries, next to its
 * descriptive fields, the state it leaves: `data` (per-combatant patches), `rs` (a patch of the
 * ruleset state), `pos` (new squares) and `items` (new item lists). `evolve` applies exactly
 * these, so events alone rebuild the state.
 */
export type Patch = {
  data?: Record<string, Partial<Data>>;
  rs?: Partial<RS>;
  pos?: Record<string, Square>;
  items?: Record<string, Item[]>;
  /** the latest check of a combatant (merged into rs.lastCheck) */
  lastCheck?: Record<string, LastCheck>;
};

type Who = { combatantId: string };
type At = Who & { targetId: string };
type Until = Who & { until: string };
type Note = Who & { note: string | null };

/** Every fact and its descriptive fields (the patch comes on top). */
interface Facts {
  check: Who & {
    purpose: string;
    kind: string;
    rollId: string;
    total: number;
    dc: number;
    success: boolean;
    degrees: number;
    fortune: number | null;
    targetId: string | null;
    gmOnly?: boolean;
  };
  'combat-began': { roundSeconds: number; initiative: { id: string; score: number; bonus: number }[] };
  'round-started': { round: number; elapsedSeconds: number };
  'turn-started': Who & { round: number; turn: number };
  'turn-resumed': Who;
  'turn-skipped': Who & { reason: string };
  'turn-ended': Who;
  'delay-lost': Who;
  delayed: Who;
  'delay-ended': Who & { before: string | null };
  'readied-lost': Who & { action: string };
  'surge-fatigue-deferred': Who;
  'surge-fatigue': Who;
  'surge-fatigue-averted': Who & { stress: number };
  spent: Who & { action: string; actionType: Slot | 'free'; slot: Slot | 'free' | 'reaction-quick' };
  reacted: Who & { reaction: string };
  'quick-unavailable': Who & { reason: string };
  'action-lost': Who & { action: string; reason: string };
  moved: Who & { action: string; path: Square[]; to: Square };
  'movement-stopped': Who & { reason: string };
  'move-started': Who & { mode: string; squares: number };
  'move-continued': Who & { mode: string };
  advancing: Who & { nearestEnemy: string | null; exemptFromOa: boolean };
  withdrawing: Who & { nearestEnemy: string | null; exemptFromOa: boolean };
  running: Who & { streak: number };
  'run-failed': Who;
  'forced-move': At & { how: 'pull' | 'push'; squares: number; to: Square };
  'charge-missed': At & { reason: string };
  attacking: At & { kind: AttackKind; action: string };
  'attack-resolved': At & { kind: string; hit: boolean; advantage?: Record<string, number>; defense?: number; action: string };
  'damage-resolved': At & { damage: number; save: string; resisted: boolean; levels: number };
  damaged: Who & { levels: number; track: 'damage' | 'socialDamage'; source: string };
  healed: Who & { levels: number; track: 'damage' | 'socialDamage' };
  recovered: Who & { track: 'damage' | 'socialDamage' };
  stress: Who;
  fatigue: Who & { fatigue: number; level: string; reason: string };
  'death-save-failed': Who;
  'stunt-failed': At & { benefit: string; counter?: boolean };
  'stunt-no-effect': At & { benefit: string; reason: string };
  'stunt-succeeded': At & { benefit: string; degrees: number };
  disarmed: At & { itemId: string };
  'object-damaged': At & { itemId: string; damage: number };
  'item-taken': Who & { fromId: string; itemId: string; why: string };
  'picked-up': Who & { itemId: string; fromId: string };
  drawn: Who & { itemId: string; location: Item['location'] };
  sheathed: Who & { itemId: string; location: Item['location'] };
  retrieved: Who & { itemId: string; location: Item['location'] };
  stored: Who & { itemId: string };
  loaded: Who & { itemId: string };
  dropped: Who & { itemId: string };
  manipulated: Who & { description: string };
  'tool-used': Who & { itemId: string; description: string | null };
  ammo: Who & { mode: 'draw' | 'store' };
  stood: Who;
  aimed: At & { bonus: number };
  'aim-maintained': Who;
  'aim-lost': Who & { reason: string };
  defending: Until & { defense: number };
  stance: Until;
  readied: Who & { action: string; as: Slot; trigger: { event: string; by: string | null; description: string } };
  'readied-taken': Who & { action: string };
  analyzed: At & { advantage: number };
  'analysis-reduced': Who & { by: string };
  'assessment-failed': At & { gmMayLie: boolean };
  appraisal: At & { attack: string; defense: string; exact: Record<string, number> };
  assisted: Who & { by: string; degrees: number; advantage: number };
  'assistance-used': Who & { advantage: number };
  gambit: Who & { beneficiaryId: string; advantage: number; dc: number };
  'conversation-shifted': At & { subject: string; shifted: boolean; ignoreNegative: boolean; usePositive: boolean };
  'attitude-changed': At & { subject: string; before: number; after: number; hostileMayAttack: boolean };
  commanded: Who & { minionIds: string[]; order: string };
  studied: Who & { targetId: string | null; learned: boolean; degrees: number };
  said: Who & { text: string };
  'escape-failed': Who & { grabberId: string };
  escaped: Who & { grabberId: string };
  'power-used': Who & { powerId: string; power: string; alternate: string | null; targetIds: string[]; area: boolean };
  'area-power-used': Who & { powerId: string };
  'alternate-switched': Who & { powerId: string; alternate: string };
  'spent-destiny': Who & { pool: 'destiny' | 'fate' | 'corruption'; use: string; die: number };
  'check-adjusted': Who & { rollId: string; degrees: number; by: string; total?: number; success?: boolean };
  'scene-edited': Note & { die: number; advantage: number };
  inspired: Note & { die: number };
  'destiny-wasted': Who & { die: number };
  'surge-action': Who;
  'surge-alternate': Until;
  'surge-edge': Until;
  'surge-counter': Note;
  'surge-retry': Who;
  'free-action-limit-set': { limit: number };
  'ruling-set': { key: string; actionType: ActionType; provokes: boolean };
}

export type Fact = keyof Facts;
/**
 * The typed union of the ruleset's own events.
 * @public
 */
export type ArEvent = { [K in Fact]: { type: `action-round.${K}` } & Facts[K] & Patch }[Fact];
/** Facts about one combatant whose only patch is its data (`patchData`). */
type DataFact = { [K in Fact]: Facts[K] extends Who ? K : never }[Fact];

const eventTypes = new Map<string, string>();
/** `action-round.<fact>`, the same string each time (a new one per event is hashed again wherever it is looked up). */
function eventType(fact: string): string {
  let t = eventTypes.get(fact);
  if (t === undefined) eventTypes.set(fact, (t = `action-round.${fact}`));
  return t;
}

/** Emit one of the ruleset's events: the fact, its fields, and the state it leaves. */
export function emit<K extends Fact>(ctx: ArCtx, fact: K, fields: Facts[K], patch: Patch = {}): void {
  ctx.emit({ ...fields, ...patch, type: eventType(fact) });
}

/** A fact about one combatant that patches its data. */
export function patchData<K extends DataFact>(
  ctx: ArCtx,
  fact: K,
  id: string,
  patch: Partial<Data>,
  fields?: Omit<Facts[K], 'combatantId'>,
): void {
  // what emit(ctx, fact, { combatantId: id, ...fields }, { data: { [id]: patch } }) builds (the same
  // keys in the same order), in one object literal instead of three spreads; without fields, no
  // spread (of an empty object: the same keys in the same order)
  ctx.emit(
    fields === undefined
      ? { combatantId: id, data: { [id]: patch }, type: eventType(fact) }
      : { combatantId: id, ...fields, data: { [id]: patch }, type: eventType(fact) },
  );
}

/** The event's values go into the state as they are (changed in place later in the command, as the draft did). */
function adoptAll<T extends object>(w: Writer, patch: T): T {
  for (const k in patch) w.adopt(patch[k]);
  return patch;
}

function isOwn(e: EngineEvent): e is ArEvent {
  return e.type.startsWith('action-round.');
}

/**
 * Applies an event's patches. Writes below a combatant's top level and below `rs`'s top level go
 * through the writer (`own`): on the copy-on-write path they copy what they change (the mutative
 * path's writer is a no-op). Every fact of the union carries its state as a patch, so evolve
 * applies the patch whichever fact it is.
 */
export function evolve(s: State, e: EngineEvent, w: Writer = draftWriter): boolean {
  if (!isOwn(e)) return false;
  if (e.data) {
    const data = e.data;
    for (const id in data) {
      const c = s.combatants[id];
      if (c) Object.assign(w.own<Data>(c, 'data', copyData, sameData), adoptAll(w, data[id]!));
    }
  }
  if (e.rs) Object.assign(s.rs, adoptAll(w, e.rs));
  if (e.lastCheck) for (const [id, l] of Object.entries(e.lastCheck)) w.own<RS['lastCheck']>(s.rs, 'lastCheck')[id] = w.adopt(l);
  if (e.pos) {
    for (const [id, sq] of Object.entries(e.pos)) {
      const c = s.combatants[id];
      if (c) {
        w.changed(c);
        c.position = { x: sq.x, y: sq.y };
      }
    }
  }
  if (e.items) {
    for (const [id, items] of Object.entries(e.items)) {
      const c = s.combatants[id];
      if (c) {
        w.changed(c);
        c.items = w.adopt(items);
      }
    }
  }
  return true;
}

/** A plain copy of a value read from a draft (events must never hold draft proxies); the same as a JSON round trip. */
export function plain<T>(v: T): T {
  return v === undefined ? v : jsonCopy(v);
}
