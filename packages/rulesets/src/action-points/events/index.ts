import { draftWriter, type EngineEvent, type Writer } from '@fray/engine';
import type { ActionType, Subtype } from '../catalogue/index.js';
import type { Phase } from '../mechanics/phases.js';
import { copyData, sameData } from './copy.js';
import type { C, Data, InProgress, QueuedReady, ReadyState, RS, S, Sq, X } from '../state.js';

/** Every event of the ruleset, by type: what `evolve` applies and the log shows. */
export type ApEvent =
  | { type: 'action-points.tie-rolls'; rolls: Record<string, number> }
  | {
      type: 'action-points.round-started';
      round: number;
      surprise: boolean;
      regularRound: number;
      combatTurn: number;
      ap: Record<string, number>;
      initiative: Record<string, number>;
      tiebreak: Record<string, number>;
    }
  | { type: 'action-points.phase-started'; phase: Phase; index: number }
  | { type: 'action-points.turn'; combatantId: string; initiative: [number, number] }
  | { type: 'action-points.round-ended'; round: number; lost: Record<string, number>; carried: string[] }
  | { type: 'action-points.intent-declared'; combatantId: string; intent: string; action?: string; targetId?: string }
  | { type: 'action-points.ap-spent'; combatantId: string; amount: number; action: string; reaction?: true }
  | {
      type: 'action-points.action-taken';
      combatantId: string;
      action: string;
      actionType: ActionType;
      subtypes: Subtype[];
      phase: Phase;
      penalty: number;
      reload?: true;
      reaction?: true;
    }
  | { type: 'action-points.advanced-started'; combatantId: string; advanced: InProgress }
  | { type: 'action-points.advanced-progressed'; combatantId: string; key: string; spent: number; round: number; phase: number }
  | { type: 'action-points.advanced-spoiled'; combatantId: string; key: string; action: string; reason: string; message: string }
  | { type: 'action-points.action-lost'; combatantId: string; action: string; key: string | null; reason: string }
  | {
      type: 'action-points.resolved';
      combatantId: string;
      action: string;
      key: string | null;
      readied: boolean;
      outcome: Record<string, unknown>;
      text?: string;
    }
  | { type: 'action-points.cast-defensively'; combatantId: string; key: string; success: boolean; dc: number; total: number }
  | { type: 'action-points.stopped'; combatantId: string; apLost: number }
  | { type: 'action-points.delayed'; combatantId: string; until: number; phase: Phase }
  | { type: 'action-points.readied'; combatantId: string; ready: ReadyState }
  | { type: 'action-points.ready-lost'; combatantId: string; reason: string }
  | { type: 'action-points.ready-triggered'; combatantId: string; queued: QueuedReady }
  | { type: 'action-points.ready-queue-cleared' }
  | {
      type: 'action-points.reaction-used';
      combatantId: string;
      kind: 'attack-of-opportunity' | 'spend-aoo' | 'ready' | 'immediate-action';
      against?: string;
      text?: string | null;
    }
  | { type: 'action-points.provoked'; combatantId: string; reason: string }
  | { type: 'action-points.damaged'; targetId: string; sourceId: string | null; amount: number; hp: number }
  | { type: 'action-points.hp-set'; combatantId: string; hp: number }
  | {
      type: 'action-points.attack-resolved';
      combatantId: string;
      targetId: string;
      weaponId: string | null;
      rollId: string;
      total: number;
      penalty: number;
      ac: number;
      hit: boolean;
      damage: number;
    }
  | {
      type: 'action-points.maneuver-resolved';
      combatantId: string;
      targetId: string;
      action: string;
      rollId: string;
      total: number;
      cmd: number;
      success: boolean;
      margin: number;
      penalty: number;
    }
  | { type: 'action-points.moved'; combatantId: string; from: Sq | null; to: Sq; path: Sq[] }
  | { type: 'action-points.movement-stopped'; combatantId: string; at: Sq; reason: string }
  | { type: 'action-points.weapon-fired'; combatantId: string; weaponId: string; kind: 'bow' | 'crossbow' | 'firearm' }
  | { type: 'action-points.nocked'; combatantId: string; weaponId: string; at?: number }
  | { type: 'action-points.loaded'; combatantId: string; weaponId: string }
  | { type: 'action-points.awareness-set'; combatantId: string; aware: boolean };

type Ev<T extends ApEvent['type']> = Extract<ApEvent, { type: T }>;

/** Emit one of the ruleset's events. */
export function emit(ctx: X, e: ApEvent): void {
  ctx.emit(e);
}

/** A combatant's data, made the command's own to change (copy-on-write: copied once, then in place). */
const own = (w: Writer, c: C): Data => w.own<Data>(c, 'data', copyData, sameData);

function resetRound(d: Data, ap: number, initiative: number, tiebreak: number): void {
  d.initiative = initiative;
  d.tiebreak = tiebreak;
  d.apBudget = ap;
  d.ap = ap;
  d.apSpentThisRound = 0;
  d.apThisPhase = 0;
  d.stopped = false;
  d.delayUntil = 0;
  d.freeThisPhase = 0;
  d.freeThisRound = 0;
  d.reactionsThisPhase = 0;
  d.aooThisRound = 0;
  d.attacksThisRound = 0;
  d.simpleThisRound = 0;
  d.escapesThisRound = 0;
  d.actedThisRound = [];
  d.fullRoundThisRound = null;
  d.freeStepUsed = false;
}

function roundStarted(s: S, e: Ev<'action-points.round-started'>, w: Writer): void {
  s.rs.round = e.round;
  s.rs.surprise = e.surprise;
  s.rs.regularRound = e.regularRound;
  s.rs.combatTurn = e.combatTurn;
  s.rs.intents = [];
  s.rs.readyQueue = [];
  s.rs.phaseIdx = 0;
  s.rs.cursor = null;
  for (const x of Object.values(s.combatants)) resetRound(own(w, x), e.ap[x.id] ?? 0, e.initiative[x.id] ?? 0, e.tiebreak[x.id] ?? 0);
}

function phaseStarted(s: S, e: Ev<'action-points.phase-started'>, w: Writer): void {
  s.rs.phaseIdx = e.index;
  s.rs.cursor = null;
  for (const x of Object.values(s.combatants)) {
    // (a combatant whose counters are all 0 already is left as it is)
    if (x.data.apThisPhase === 0 && x.data.freeThisPhase === 0 && x.data.reactionsThisPhase === 0) continue;
    const d = own(w, x);
    d.apThisPhase = 0;
    d.freeThisPhase = 0;
    d.reactionsThisPhase = 0;
  }
}

function apSpent(c: C, e: Ev<'action-points.ap-spent'>, w: Writer): void {
  const d = own(w, c);
  d.ap -= e.amount;
  d.apSpentThisRound += e.amount;
  if (!e.reaction) d.apThisPhase += e.amount;
}

function actionTaken(c: C, e: Ev<'action-points.action-taken'>, w: Writer): void {
  const action = e.action;
  const type = e.actionType;
  const d = own(w, c);
  w.own<string[]>(d, 'actedThisRound').push(action);
  if (type === 'simple' && !e.reaction) d.simpleThisRound += 1;
  if (type === 'free' && !e.reload) {
    d.freeThisPhase += 1;
    d.freeThisRound += 1;
  }
  if (e.subtypes.includes('attack')) d.attacksThisRound += 1;
  if (type === 'full-round') d.fullRoundThisRound = action;
  if (action === 'escape-grapple') d.escapesThisRound += 1;
  if (action === 'five-foot-step') d.freeStepUsed = true;
}

/** The advanced action `key` of `c`, made the command's own to change (or undefined). */
function ownRecord(c: C, key: string, w: Writer): InProgress | undefined {
  const i = c.data.inProgress.findIndex((x) => x.key === key);
  return i >= 0 ? w.own<InProgress>(w.own<InProgress[]>(own(w, c), 'inProgress'), i) : undefined;
}

function removeRecord(c: C, key: string | null, w: Writer): void {
  if (typeof key === 'string') own(w, c).inProgress = c.data.inProgress.filter((r) => r.key !== key);
}

function intentDeclared(s: S, e: Ev<'action-points.intent-declared'>, w: Writer): void {
  const intent: RS['intents'][number] = { combatantId: e.combatantId, intent: e.intent };
  if (e.action) intent.action = e.action;
  if (e.targetId) intent.targetId = e.targetId;
  w.own<RS['intents']>(s.rs, 'intents').push(intent);
}

function weaponFired(c: C, e: Ev<'action-points.weapon-fired'>, w: Writer): void {
  if (e.kind === 'bow') own(w, c).nocked = null;
  else if (!c.data.unloaded.includes(e.weaponId)) w.own<string[]>(own(w, c), 'unloaded').push(e.weaponId);
}

function reactionUsed(c: C, e: Ev<'action-points.reaction-used'>, w: Writer): void {
  const d = own(w, c);
  d.reactionsThisPhase += 1;
  if (e.kind === 'attack-of-opportunity' || e.kind === 'spend-aoo') d.aooThisRound += 1;
}

/** The events that change one combatant (`combatantId`; nothing when it is gone). False: not one of them. */
function evolveCombatant(s: S, e: Extract<ApEvent, { combatantId: string }>, w: Writer): boolean {
  const c = s.combatants[e.combatantId];
  switch (e.type) {
    case 'action-points.ap-spent':
      if (c) apSpent(c, e, w);
      return true;
    case 'action-points.action-taken':
      if (c) actionTaken(c, e, w);
      return true;
    case 'action-points.advanced-started':
      // the event's record itself goes into the state (changed in place later in the command, as the draft did)
      if (c) w.own<InProgress[]>(own(w, c), 'inProgress').push(w.adopt(e.advanced));
      return true;
    case 'action-points.advanced-progressed': {
      const r = c && ownRecord(c, e.key, w);
      if (r) {
        r.spent = e.spent;
        r.lastRound = e.round;
        r.lastPhase = e.phase;
      }
      return true;
    }
    case 'action-points.advanced-spoiled':
    case 'action-points.action-lost':
    case 'action-points.resolved':
      if (c) removeRecord(c, e.key, w);
      return true;
    case 'action-points.cast-defensively': {
      const r = c && e.success ? ownRecord(c, e.key, w) : undefined;
      if (r) r.defensive = true;
      return true;
    }
    case 'action-points.readied':
      if (c) {
        const d = own(w, c);
        d.ready = w.adopt(e.ready);
        d.forfeitedRound = e.ready.round;
      }
      return true;
    case 'action-points.reaction-used':
      if (c) reactionUsed(c, e, w);
      return true;
    case 'action-points.moved':
      if (c) {
        w.changed(c);
        c.position = w.adopt(e.to);
      }
      return true;
    case 'action-points.weapon-fired':
      if (c) weaponFired(c, e, w);
      return true;
    default:
      return c ? setData(c, e, w) : DATA_EVENTS.has(e.type);
  }
}

const DATA_EVENTS = new Set<string>([
  'action-points.stopped',
  'action-points.delayed',
  'action-points.ready-lost',
  'action-points.ready-triggered',
  'action-points.hp-set',
  'action-points.nocked',
  'action-points.loaded',
  'action-points.awareness-set',
]);

/** The events that set a field or two of a combatant's data. */
function setData(c: C, e: Extract<ApEvent, { combatantId: string }>, w: Writer): boolean {
  switch (e.type) {
    case 'action-points.stopped':
      own(w, c).stopped = true;
      return true;
    case 'action-points.delayed':
      own(w, c).delayUntil = e.until;
      return true;
    case 'action-points.ready-lost':
    case 'action-points.ready-triggered':
      own(w, c).ready = null;
      return true;
    case 'action-points.hp-set':
      own(w, c).hp = e.hp;
      return true;
    case 'action-points.nocked':
      Object.assign(own(w, c), { nocked: e.weaponId, nockedAt: e.at ?? -1 });
      return true;
    case 'action-points.loaded':
      own(w, c).unloaded = c.data.unloaded.filter((x) => x !== e.weaponId);
      return true;
    case 'action-points.awareness-set':
      own(w, c).aware = e.aware;
      return true;
    default:
      return false;
  }
}

/**
 * Apply one of the ruleset's events (false: not one of its own). Writes below a combatant's top level
 * and below `rs`'s top level go through the writer (`own`): on the copy-on-write path they copy what
 * they change (the mutative path's writer is a no-op).
 */
export function evolve(s: S, event: EngineEvent, w: Writer = draftWriter): boolean {
  const e = event as ApEvent;
  switch (e.type) {
    case 'action-points.tie-rolls':
      for (const [id, v] of Object.entries(e.rolls)) if (s.combatants[id]) own(w, s.combatants[id]).tieRoll = v;
      return true;
    case 'action-points.round-started':
      roundStarted(s, e, w);
      return true;
    case 'action-points.phase-started':
      phaseStarted(s, e, w);
      return true;
    case 'action-points.turn':
      s.clock.current = e.combatantId;
      s.rs.cursor = e.initiative;
      return true;
    case 'action-points.round-ended':
      for (const x of Object.values(s.combatants)) if (x.data.ap !== 0) own(w, x).ap = 0;
      return true;
    case 'action-points.intent-declared':
      intentDeclared(s, e, w);
      return true;
    case 'action-points.ready-triggered':
      evolveCombatant(s, e, w);
      w.own<RS['readyQueue']>(s.rs, 'readyQueue').push(w.adopt(e.queued));
      return true;
    case 'action-points.ready-queue-cleared':
      s.rs.readyQueue = [];
      return true;
    case 'action-points.damaged': {
      const t = s.combatants[e.targetId];
      if (t) own(w, t).hp = e.hp;
      return true;
    }
    case 'action-points.attack-resolved':
    case 'action-points.maneuver-resolved':
    case 'action-points.movement-stopped':
    case 'action-points.provoked':
      return true;
    default:
      return evolveCombatant(s, e, w);
  }
}
