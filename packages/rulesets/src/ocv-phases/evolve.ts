import { draftWriter, hasExactKeys, sameShallow, type EngineEvent, type Hex, type Writer } from '@fray/engine';
import { clone, phaseKey, phaseOrdinal, phaseOrder, type Data, type Hold, type Intent, type Job, type ManoeuvreUse, type PhaseName, type S } from './model.js';

type C = S['combatants'][string];
type RS = S['rs'];
/** The keys of a combatant's data, in the order it is built with. */
const DATA_KEYS: readonly string[] = ['stun', 'endurance', 'slots', 'attacks', 'full', 'moved', 'stepped', 'free', 'aoos', 'opportunities', 'restricted', 'braced', 'manoeuvres', 'dodging', 'hold', 'skipNext', 'abortLock', 'fullStarted'];
const copyDataLiteral = (v: Data): Data => ({
  stun: v.stun,
  endurance: v.endurance,
  slots: v.slots,
  attacks: v.attacks,
  full: v.full,
  moved: v.moved,
  stepped: v.stepped,
  free: v.free,
  aoos: v.aoos,
  opportunities: v.opportunities,
  restricted: v.restricted,
  braced: v.braced,
  manoeuvres: v.manoeuvres,
  dodging: v.dodging,
  hold: v.hold,
  skipNext: v.skipNext,
  abortLock: v.abortLock,
  fullStarted: v.fullStarted,
});
const copyDataSpread = (v: Data): Data => ({ ...v });
/**
 * A shallow copy of a combatant's data for the copy-on-write path: field by field when it has exactly
 * `DATA_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyData(v: Data): Data {
  return hasExactKeys(v, DATA_KEYS) ? copyDataLiteral(v) : copyDataSpread(v);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.stun === o.stun &&
  c.endurance === o.endurance &&
  c.slots === o.slots &&
  c.attacks === o.attacks &&
  c.full === o.full &&
  c.moved === o.moved &&
  c.stepped === o.stepped &&
  c.free === o.free &&
  c.aoos === o.aoos &&
  c.opportunities === o.opportunities &&
  c.restricted === o.restricted &&
  c.braced === o.braced &&
  c.manoeuvres === o.manoeuvres &&
  c.dodging === o.dodging &&
  c.hold === o.hold &&
  c.skipNext === o.skipNext &&
  c.abortLock === o.abortLock &&
  c.fullStarted === o.fullStarted;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: Data, o: Data): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c as never, o as never);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = ['map', 'order', 'scores', 'unaware', 'turn', 'phase', 'phaseCount', 'passed', 'spent', 'offered', 'jobs', 'intents', 'pauseFor', 'attacks', 'stalled'];
const copyRsLiteral = (v: RS): RS => ({
  map: v.map,
  order: v.order,
  scores: v.scores,
  unaware: v.unaware,
  turn: v.turn,
  phase: v.phase,
  phaseCount: v.phaseCount,
  passed: v.passed,
  spent: v.spent,
  offered: v.offered,
  jobs: v.jobs,
  intents: v.intents,
  pauseFor: v.pauseFor,
  attacks: v.attacks,
  stalled: v.stalled,
});
const copyRsSpread = (v: RS): RS => ({ ...v });
/**
 * A shallow copy of the ruleset state (`rs`) for the copy-on-write path: field by field when it has exactly
 * `RS_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyRs(v: RS): RS {
  return hasExactKeys(v, RS_KEYS) ? copyRsLiteral(v) : copyRsSpread(v);
}
const sameRsLiteral = (c: RS, o: RS): boolean =>
  c.map === o.map &&
  c.order === o.order &&
  c.scores === o.scores &&
  c.unaware === o.unaware &&
  c.turn === o.turn &&
  c.phase === o.phase &&
  c.phaseCount === o.phaseCount &&
  c.passed === o.passed &&
  c.spent === o.spent &&
  c.offered === o.offered &&
  c.jobs === o.jobs &&
  c.intents === o.intents &&
  c.pauseFor === o.pauseFor &&
  c.attacks === o.attacks &&
  c.stalled === o.stalled;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c as never, o as never);
}

// Writes below a combatant's top level and below `rs`'s top level go through the writer (`own`):
// on the copy-on-write path they copy what they change (the mutative path's writer is a no-op).
const dataOf = (w: Writer, c: C): Data => w.own<Data>(c, 'data', copyData, sameData);
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

function resetPhase(w: Writer, c: C): void {
  const d0 = c.data;
  if (!d0.slots && !d0.attacks && !d0.full && !d0.moved && !d0.stepped && !d0.free && !d0.aoos && !d0.opportunities.length && !d0.restricted) return;
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

export function evolveOcv(s: S, e: EngineEvent, w: Writer = draftWriter): boolean {
  if (!e.type.startsWith('ocv-phases.')) return false;
  const rs = s.rs;
  // Looked up only by the events that use it: each lookup makes a draft of the combatant.
  let cached: S['combatants'][string] | undefined | null = null;
  const cOf = (): S['combatants'][string] | undefined =>
    cached === null ? (cached = typeof e.combatantId === 'string' ? s.combatants[e.combatantId] : undefined) : cached;
  switch (e.type.slice('ocv-phases.'.length)) {
    case 'map-set':
      rs.map = clone(e.map as S['rs']['map']);
      break;
    case 'awareness':
      rs.unaware = rs.unaware.filter((x) => x !== e.combatantId);
      if (!e.aware) part(w, rs, 'unaware').push(e.combatantId as string);
      break;
    case 'initiative':
      rs.order = [...(e.order as string[])];
      rs.scores = { ...(e.scores as Record<string, number>) };
      break;
    case 'joined': {
      const id = e.combatantId as string;
      part(w, rs, 'scores')[id] = e.score as number;
      rs.order = rs.order.filter((x) => x !== id);
      const i = rs.order.findIndex((x) => (rs.scores[x] ?? 0) < (e.score as number));
      if (i < 0) rs.order.push(id);
      else rs.order.splice(i, 0, id);
      break;
    }
    case 'left': {
      const id = e.combatantId as string;
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
      break;
    }
    case 'phase-started': {
      rs.turn = e.turn as number;
      rs.phase = e.phase as PhaseName;
      if (e.phase !== 'post-turn') rs.phaseCount += 1;
      rs.passed = [];
      rs.spent = [];
      rs.offered = [];
      rs.stalled = false;
      s.clock.current = null;
      for (const o of Object.values(s.combatants)) resetPhase(w, o);
      break;
    }
    case 'stalled':
      rs.stalled = true;
      s.clock.current = null;
      break;
    case 'recovered':
      dataOf(w, cOf()!).stun = e.stun as number;
      dataOf(w, cOf()!).endurance = e.endurance as number;
      break;
    case 'pools':
      if (typeof e.stun === 'number') dataOf(w, cOf()!).stun = e.stun;
      if (typeof e.endurance === 'number') dataOf(w, cOf()!).endurance = e.endurance;
      break;
    case 'slot': {
      const id = e.combatantId as string;
      if (!rs.passed.includes(id)) part(w, rs, 'passed').push(id);
      const d = dataOf(w, cOf()!);
      if (d.hold && d.hold.key !== phaseKey(rs)) d.hold = null;
      if (d.abortLock !== null && phaseOrdinal(rs) >= d.abortLock) d.abortLock = null;
      if (e.outcome === 'aborted') d.skipNext = false;
      if (e.outcome === 'acts') {
        d.manoeuvres = [];
        d.dodging = false;
        d.braced = false;
        s.clock.current = id;
      }
      break;
    }
    case 'slot-yielded':
      rs.passed = rs.passed.filter((x) => x !== e.combatantId);
      break;
    case 'current':
      s.clock.current = (e.combatantId as string | null) ?? null;
      break;
    case 'offered':
      part(w, rs, 'offered').push(e.combatantId as string);
      s.clock.current = e.combatantId as string;
      break;
    case 'declared': {
      const d = dataOf(w, cOf()!);
      const t = e.actionType as string;
      if (e.via === 'regular') {
        if (t === 'attack') {
          d.slots += 1;
          d.attacks += 1;
        } else if (t === 'move') d.slots += 1;
        else if (t === 'full') d.full = true;
        else if (t === 'free') d.free += 1;
      }
      if (e.use) {
        const u = e.use as ManoeuvreUse;
        w.own<Data['manoeuvres']>(d, 'manoeuvres').push({ ...u });
        if (u.id === 'dodge') d.dodging = true;
      }
      if (e.row === 'brace') d.braced = true;
      break;
    }
    case 'moved': {
      const to = e.to as Hex;
      w.changed(cOf()!);
      cOf()!.position = { q: to.q, r: to.r };
      if (e.step) dataOf(w, cOf()!).stepped = true;
      else dataOf(w, cOf()!).moved = true;
      break;
    }
    case 'provoked':
      for (const id of e.from as string[]) {
        const o = s.combatants[id];
        if (o) w.own<string[]>(dataOf(w, o), 'opportunities').push(e.opportunity as string);
      }
      break;
    case 'attack-resolved': {
      if (e.aoo) {
        dataOf(w, cOf()!).aoos += 1;
        w.own<Data['manoeuvres']>(dataOf(w, cOf()!), 'manoeuvres').push(clone(e.use as ManoeuvreUse));
      }
      part(w, rs, 'attacks').push({
        rollId: e.rollId as string,
        attackerId: e.combatantId as string,
        targetId: e.targetId as string,
        ocv: e.ocv as number,
        need: e.need as number,
        hit: e.hit as boolean,
      });
      if (rs.attacks.length > 16) part(w, rs, 'attacks').splice(0, rs.attacks.length - 16);
      break;
    }
    case 'attack-reresolved': {
      const i = rs.attacks.findIndex((x) => x.rollId === e.rollId);
      if (i >= 0) w.own<RS['attacks'][number]>(part(w, rs, 'attacks'), i).hit = e.hit as boolean;
      break;
    }
    case 'held':
      dataOf(w, cOf()!).hold = clone(e.hold as Hold);
      break;
    case 'hold-expired':
      dataOf(w, cOf()!).hold = null;
      break;
    case 'hold-taken': {
      const id = e.combatantId as string;
      dataOf(w, cOf()!).hold = null;
      moveBefore(s, id, (e.before as string | null) ?? null, w);
      if (!rs.passed.includes(id)) part(w, rs, 'passed').push(id);
      if (e.kind === 'delay') {
        dataOf(w, cOf()!).manoeuvres = [];
        dataOf(w, cOf()!).dodging = false;
        dataOf(w, cOf()!).braced = false;
        s.clock.current = id;
      }
      break;
    }
    case 'aborted': {
      const d = dataOf(w, cOf()!);
      if (e.givesUp === 'this') {
        if (!rs.spent.includes(cOf()!.id)) part(w, rs, 'spent').push(cOf()!.id);
        if (d.hold?.kind === 'delay') d.hold = null;
      } else {
        d.skipNext = true;
      }
      if (d.hold?.kind === 'ready') d.hold = null;
      d.abortLock = (e.lock as number | null) ?? null;
      break;
    }
    case 'restricted':
      dataOf(w, cOf()!).restricted = e.restricted as boolean;
      break;
    case 'full-started':
      dataOf(w, cOf()!).fullStarted = (e.action as string | null) ?? null;
      break;
    case 'job-pushed':
      part(w, rs, 'jobs').push(clone(e.job as Job));
      break;
    case 'job-popped':
      part(w, rs, 'jobs').pop();
      break;
    case 'intent':
      part(w, rs, 'intents').push(clone(e.intent as Intent));
      break;
    case 'intents-taken':
      rs.intents = rs.intents.filter((i) => i.windowId !== e.windowId);
      break;
    case 'pause':
      rs.pauseFor = (e.combatantId as string | null) ?? null;
      break;
    case 'acted':
    case 'skill-check':
    case 'action-ended':
    case 'interrupted':
    case 'item':
      break;
    default:
      return false;
  }
  if (ORDER_EVENTS.has(e.type)) syncClock(s);

  return true;
}

/** the events that change the Turn, the Phase or the order */
const ORDER_EVENTS = new Set(
  ['initiative', 'joined', 'left', 'phase-started', 'hold-taken', 'awareness'].map((t) => `ocv-phases.${t}`),
);
