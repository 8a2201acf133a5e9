import { draftWriter, type EngineEvent, type Hex, type Writer } from '@fray/engine';
import type { ActionType } from './catalogue.js';
import {
  clone,
  copyData,
  phaseKey,
  phaseOrdinal,
  phaseOrder,
  sameData,
  type C,
  type Data,
  type Hold,
  type Intent,
  type Job,
  type ManoeuvreUse,
  type PhaseName,
  type RS,
  type S,
} from './state/index.js';

type Id = { combatantId: string };

/** Every event of `ocv-phases`: what `emit` accepts and `evolve` applies. */
export type OcvPhasesEvent =
  // the clock and the order
  | { type: 'ocv-phases.map-set'; map: RS['map'] }
  | ({ type: 'ocv-phases.awareness'; aware: boolean } & Id)
  | { type: 'ocv-phases.initiative'; scores: Record<string, number>; order: string[]; tieBreaks: Record<string, number[]> }
  | ({ type: 'ocv-phases.joined'; score: number } & Id)
  | ({ type: 'ocv-phases.left' } & Id)
  | { type: 'ocv-phases.phase-started'; turn: number; phase: PhaseName; seconds: number }
  | { type: 'ocv-phases.stalled'; reason: string }
  | ({ type: 'ocv-phases.slot'; outcome: 'spent' | 'aborted' | 'incapable' | 'acts' } & Id)
  | ({ type: 'ocv-phases.slot-yielded' } & Id)
  | { type: 'ocv-phases.current'; combatantId: string | null }
  | ({ type: 'ocv-phases.offered' } & Id)
  | ({ type: 'ocv-phases.action-ended'; holding: Hold['kind'] | null; acted: boolean } & Id)
  // pools
  | ({ type: 'ocv-phases.recovered'; reason: string; stun: number; endurance: number } & Id)
  | ({ type: 'ocv-phases.pools'; stun?: number; endurance?: number } & Id)
  | ({ type: 'ocv-phases.restricted'; restricted: boolean } & Id)
  // actions
  | ({
      type: 'ocv-phases.declared';
      row: string;
      actionType: ActionType;
      via: Job['via'];
      use: ManoeuvreUse | undefined;
      targets?: string[];
    } & Id)
  | ({ type: 'ocv-phases.moved'; from: Hex | null; to: Hex; step: true | undefined } & Id)
  | ({ type: 'ocv-phases.provoked'; from: string[]; opportunity: string; reason: string } & Id)
  | ({ type: 'ocv-phases.skill-check'; skill: string; target: number; rollId: string; total: number; success: boolean } & Id)
  | ({
      type: 'ocv-phases.attack-resolved';
      targetId: string;
      row: string;
      rollId: string;
      ocv: number;
      dcv: number;
      dcvModifiers: string[];
      need: number;
      total: number;
      hit: boolean;
      aoo: true | undefined;
      use: ManoeuvreUse | undefined;
    } & Id)
  | ({ type: 'ocv-phases.attack-reresolved'; targetId: string; rollId: string; total: number; need: number; hit: boolean } & Id)
  | ({ type: 'ocv-phases.acted'; row: string; via?: Job['via']; targets?: string[] | undefined; note?: string } & Id)
  | ({ type: 'ocv-phases.interrupted'; row: string; reason: string } & Id)
  | ({ type: 'ocv-phases.full-started'; action: string | null } & Id)
  // delay, ready, abort and interruptions
  | ({ type: 'ocv-phases.held'; hold: Hold } & Id)
  | ({ type: 'ocv-phases.hold-expired'; reason: string } & Id)
  | ({ type: 'ocv-phases.hold-taken'; kind: Hold['kind']; before: string | null } & Id)
  | ({ type: 'ocv-phases.aborted'; action: string; givesUp: 'this' | 'next'; lock: number | null } & Id)
  | ({ type: 'ocv-phases.job-pushed'; job: Job } & Id)
  | ({ type: 'ocv-phases.job-popped' } & Id)
  | ({ type: 'ocv-phases.intent'; intent: Intent } & Id)
  | { type: 'ocv-phases.intents-taken'; windowId: string }
  | { type: 'ocv-phases.pause'; combatantId: string | null };

/** Emit one of the ruleset's own events (typed: a field of the wrong type does not compile). */
export function emit(ctx: C, event: OcvPhasesEvent): void {
  ctx.emit(event);
}

const isOwn = (e: EngineEvent): e is OcvPhasesEvent => e.type.startsWith('ocv-phases.');

type Combatant = S['combatants'][string];
// Writes below a combatant's top level and below `rs`'s top level go through the writer (`own`):
// on the copy-on-write path they copy what they change (the mutative path's writer is a no-op).
const dataOf = (w: Writer, c: Combatant): Data => w.own<Data>(c, 'data', copyData, sameData);
const part = <K extends keyof RS>(w: Writer, rs: RS, k: K): RS[K] => w.own<RS[K]>(rs, k);

/** The clock every client renders: round = Turn number, phase name, this Phase's order. */
function syncClock(s: S): void {
  s.clock.round = s.rs.turn;
  s.clock.phase = s.rs.phase;
  const order = phaseOrder(s);
  const cur = s.clock.order;
  if (cur.length !== order.length || cur.some((id, i) => id !== order[i])) s.clock.order = [...order];
}

function moveBefore(s: S, id: string, before: string | null, w: Writer): void {
  const order = s.rs.order.filter((x) => x !== id);
  const i = before === null ? -1 : order.indexOf(before);
  if (i < 0) order.push(id);
  else order.splice(i, 0, id);
  s.rs.order = order;
  // the score becomes that of the place taken: the next character's (acts first among equals), or the last one's
  const next = i < 0 ? null : order[i + 1];
  const prev = i < 0 ? order[order.length - 2] : null;
  const ref = next ?? prev;
  if (ref !== null && ref !== undefined) part(w, s.rs, 'scores')[id] = s.rs.scores[ref] ?? s.rs.scores[id] ?? 0;
}

function resetPhase(w: Writer, c: Combatant): void {
  const d0 = c.data;
  if (
    !d0.slots &&
    !d0.attacks &&
    !d0.full &&
    !d0.moved &&
    !d0.stepped &&
    !d0.free &&
    !d0.aoos &&
    !d0.opportunities.length &&
    !d0.restricted
  )
    return;
  const d = dataOf(w, c);
  d.slots = 0;
  d.attacks = 0;
  d.full = false;
  d.moved = false;
  d.stepped = false;
  d.free = 0;
  d.aoos = 0;
  d.opportunities = [];
  d.restricted = false;
}

/**
 * Apply an `ocv-phases` event to the state (a draft, or the copy-on-write working state writing
 * through `w`); false for events that are not the ruleset's.
 */
export function evolve(s: S, e: EngineEvent, w: Writer = draftWriter): boolean {
  if (!isOwn(e)) return false;
  const rs = s.rs;
  switch (e.type) {
    case 'ocv-phases.awareness':
      rs.unaware = rs.unaware.filter((x) => x !== e.combatantId);
      if (!e.aware) part(w, rs, 'unaware').push(e.combatantId);
      break;
    case 'ocv-phases.initiative':
      rs.order = [...e.order];
      rs.scores = { ...e.scores };
      break;
    case 'ocv-phases.joined': {
      const id = e.combatantId;
      part(w, rs, 'scores')[id] = e.score;
      rs.order = rs.order.filter((x) => x !== id);
      const i = rs.order.findIndex((x) => (rs.scores[x] ?? 0) < e.score);
      if (i < 0) rs.order.push(id);
      else rs.order.splice(i, 0, id);
      break;
    }
    case 'ocv-phases.left':
      left(s, e.combatantId, w);
      break;
    case 'ocv-phases.phase-started':
      rs.turn = e.turn;
      rs.phase = e.phase;
      if (e.phase !== 'post-turn') rs.phaseCount += 1;
      rs.passed = [];
      rs.spent = [];
      rs.offered = [];
      rs.stalled = false;
      s.clock.current = null;
      for (const o of Object.values(s.combatants)) resetPhase(w, o);
      break;
    case 'ocv-phases.hold-taken':
      holdTaken(s, e.combatantId, e.kind, e.before, w);
      break;
    default:
      return evolveClock(s, e, w);
  }
  // the events above change the Turn, the Phase or the order
  syncClock(s);
  return true;
}

function left(s: S, id: string, w: Writer): void {
  const rs = s.rs;
  rs.order = rs.order.filter((x) => x !== id);
  delete part(w, rs, 'scores')[id];
  rs.unaware = rs.unaware.filter((x) => x !== id);
  rs.passed = rs.passed.filter((x) => x !== id);
  rs.spent = rs.spent.filter((x) => x !== id);
  rs.offered = rs.offered.filter((x) => x !== id);
  rs.jobs = rs.jobs.filter((j) => j.actor !== id);
  rs.intents = rs.intents.filter((j) => j.combatantId !== id);
  if (rs.pauseFor === id) rs.pauseFor = null;
  for (const o of Object.values(s.combatants)) {
    const h = o.data.hold;
    if (h && ((h.kind === 'delay' && h.before === id) || (h.kind === 'ready' && h.trigger.by === id))) dataOf(w, o).hold = null;
  }
}

function holdTaken(s: S, id: string, kind: Hold['kind'], before: string | null, w: Writer): void {
  const rs = s.rs;
  const c = s.combatants[id]!;
  dataOf(w, c).hold = null;
  moveBefore(s, id, before ?? null, w);
  if (!rs.passed.includes(id)) part(w, rs, 'passed').push(id);
  if (kind === 'delay') {
    const d = dataOf(w, c);
    d.manoeuvres = [];
    d.dodging = false;
    d.braced = false;
    s.clock.current = id;
  }
}

function slot(s: S, id: string, outcome: 'spent' | 'aborted' | 'incapable' | 'acts', w: Writer): void {
  const rs = s.rs;
  if (!rs.passed.includes(id)) part(w, rs, 'passed').push(id);
  const d = dataOf(w, s.combatants[id]!);
  if (d.hold && d.hold.key !== phaseKey(rs)) d.hold = null;
  if (d.abortLock !== null && phaseOrdinal(rs) >= d.abortLock) d.abortLock = null;
  if (outcome === 'aborted') d.skipNext = false;
  if (outcome === 'acts') {
    d.manoeuvres = [];
    d.dodging = false;
    d.braced = false;
    s.clock.current = id;
  }
}

/** The clock's other events and the pools. */
function evolveClock(s: S, e: OcvPhasesEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'ocv-phases.map-set':
      rs.map = clone(e.map);
      break;
    case 'ocv-phases.stalled':
      rs.stalled = true;
      s.clock.current = null;
      break;
    case 'ocv-phases.slot':
      slot(s, e.combatantId, e.outcome, w);
      break;
    case 'ocv-phases.slot-yielded':
      rs.passed = rs.passed.filter((x) => x !== e.combatantId);
      break;
    case 'ocv-phases.current':
      s.clock.current = e.combatantId ?? null;
      break;
    case 'ocv-phases.offered':
      part(w, rs, 'offered').push(e.combatantId);
      s.clock.current = e.combatantId;
      break;
    case 'ocv-phases.pause':
      rs.pauseFor = e.combatantId ?? null;
      break;
    case 'ocv-phases.recovered': {
      const d = dataOf(w, s.combatants[e.combatantId]!);
      d.stun = e.stun;
      d.endurance = e.endurance;
      break;
    }
    case 'ocv-phases.pools': {
      const c = s.combatants[e.combatantId]!;
      if (typeof e.stun === 'number') dataOf(w, c).stun = e.stun;
      if (typeof e.endurance === 'number') dataOf(w, c).endurance = e.endurance;
      break;
    }
    case 'ocv-phases.restricted':
      dataOf(w, s.combatants[e.combatantId]!).restricted = e.restricted;
      break;
    case 'ocv-phases.full-started':
      dataOf(w, s.combatants[e.combatantId]!).fullStarted = e.action ?? null;
      break;
    default:
      return evolveAction(s, e, w);
  }
  return true;
}

function declared(d: Data, e: Extract<OcvPhasesEvent, { type: 'ocv-phases.declared' }>, w: Writer): void {
  if (e.via === 'regular') {
    const t = e.actionType;
    if (t === 'attack') {
      d.slots += 1;
      d.attacks += 1;
    } else if (t === 'move') d.slots += 1;
    else if (t === 'full') d.full = true;
    else if (t === 'free') d.free += 1;
  }
  if (e.use) {
    const u = e.use;
    w.own<Data['manoeuvres']>(d, 'manoeuvres').push({ ...u });
    if (u.id === 'dodge') d.dodging = true;
  }
  if (e.row === 'brace') d.braced = true;
}

function attackResolved(s: S, e: Extract<OcvPhasesEvent, { type: 'ocv-phases.attack-resolved' }>, w: Writer): void {
  const rs = s.rs;
  if (e.aoo) {
    const d = dataOf(w, s.combatants[e.combatantId]!);
    d.aoos += 1;
    w.own<Data['manoeuvres']>(d, 'manoeuvres').push(clone(e.use!));
  }
  part(w, rs, 'attacks').push({ rollId: e.rollId, attackerId: e.combatantId, targetId: e.targetId, ocv: e.ocv, need: e.need, hit: e.hit });
  if (rs.attacks.length > 16) part(w, rs, 'attacks').splice(0, rs.attacks.length - 16);
}

function aborted(s: S, e: Extract<OcvPhasesEvent, { type: 'ocv-phases.aborted' }>, w: Writer): void {
  const rs = s.rs;
  const c = s.combatants[e.combatantId]!;
  const d = dataOf(w, c);
  if (e.givesUp === 'this') {
    if (!rs.spent.includes(c.id)) part(w, rs, 'spent').push(c.id);
    if (d.hold?.kind === 'delay') d.hold = null;
  } else {
    d.skipNext = true;
  }
  if (d.hold?.kind === 'ready') d.hold = null;
  d.abortLock = e.lock ?? null;
}

/** Actions, holds and interruptions. */
function evolveAction(s: S, e: OcvPhasesEvent, w: Writer): boolean {
  const rs = s.rs;
  switch (e.type) {
    case 'ocv-phases.declared':
      declared(dataOf(w, s.combatants[e.combatantId]!), e, w);
      break;
    case 'ocv-phases.moved': {
      const c = s.combatants[e.combatantId]!;
      w.changed(c);
      c.position = { q: e.to.q, r: e.to.r };
      if (e.step) dataOf(w, c).stepped = true;
      else dataOf(w, c).moved = true;
      break;
    }
    case 'ocv-phases.provoked':
      for (const id of e.from) {
        const o = s.combatants[id];
        if (o) w.own<string[]>(dataOf(w, o), 'opportunities').push(e.opportunity);
      }
      break;
    case 'ocv-phases.attack-resolved':
      attackResolved(s, e, w);
      break;
    case 'ocv-phases.attack-reresolved': {
      const i = rs.attacks.findIndex((x) => x.rollId === e.rollId);
      if (i >= 0) w.own<RS['attacks'][number]>(part(w, rs, 'attacks'), i).hit = e.hit;
      break;
    }
    case 'ocv-phases.held':
      dataOf(w, s.combatants[e.combatantId]!).hold = clone(e.hold);
      break;
    case 'ocv-phases.hold-expired':
      dataOf(w, s.combatants[e.combatantId]!).hold = null;
      break;
    case 'ocv-phases.aborted':
      aborted(s, e, w);
      break;
    case 'ocv-phases.job-pushed':
      part(w, rs, 'jobs').push(clone(e.job));
      break;
    case 'ocv-phases.job-popped':
      part(w, rs, 'jobs').pop();
      break;
    case 'ocv-phases.intent':
      part(w, rs, 'intents').push(clone(e.intent));
      break;
    case 'ocv-phases.intents-taken':
      rs.intents = rs.intents.filter((i) => i.windowId !== e.windowId);
      break;
    case 'ocv-phases.acted':
    case 'ocv-phases.skill-check':
    case 'ocv-phases.action-ended':
    case 'ocv-phases.interrupted':
      break;
    default:
      return false;
  }
  return true;
}
