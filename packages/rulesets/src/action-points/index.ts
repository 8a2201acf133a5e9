import { display } from './display.js';
import { adjustVital } from './vitals.js';
import { z } from 'zod';
import { keepIf, withParts, commandSchema, draftWriter, hasExactKeys, sameShallow, idSchema, type ActionOption, type CatalogueEntry, type EngineEvent, type ParamSpec, type Ruleset, type Viewer, type Writer } from '@fray/engine';
import { ACTIONS, ACTION_IDS, REACTIONS, actionDef, type ActionDef } from './catalogue.js';
import {
  addEffect,
  advance,
  attackRoll,
  castDefensively,
  drive,
  enterPhase,
  mustContinue,
  plain,
  settle,
  spoil,
  startRound,
  stepsFor,
  type Pending,
  type Step,
} from './flow.js';
import { removableFor } from './dirty-trick.js';
import { PHASES, phaseIndex } from './phases.js';
import type {
  Blocked} from './rules.js';
import {
  alive,
  canAct,
  canMakeAoO,
  earliestPhase,
  expiryOf,
  progressSubtypes,
  provocation,
  readiedThisRound,
  rule,
  shapeOf,
  threatens,
  threateningFoes,
  weaponOf,
} from './rules.js';
import {
  RULESET_ID,
  EVENT_PREFIX,
  ev,
  actParamsShape,
  optionDocs,
  optionsSchema,
  optsOf,
  positionSchema,
  squareSchema,
  st,
  statDocs,
  statsSchema,
  type ActParams,
  type C,
  type Data,
  type InProgress,
  type Options,
  type QueuedReady,
  type RS,
  type S,
  type Stats,
  type X,
} from './types.js';
import { consecutiveInProgress, continueBlock, evaluate, freeBudget, isReload } from './validate.js';

export { PHASES, SPEEDS, DEFAULT_BASE_SPEED_BY_SIZE, DEFAULT_WEAPON_SPEED_BY_CATEGORY, baseActionSpeed } from './phases.js';
export { ACTIONS, REACTIONS } from './catalogue.js';
export type { RS, Data, Stats, Options } from './types.js';

const fail = (ctx: X, b: Blocked): never => ctx.fail(b.code, b.rule, b.message);
const combatantIn = (ctx: X, id: string): C => st(ctx).combatants[id]!;

const ACT_PARAM_KEYS = Object.keys(actParamsShape);
function paramsOf(cmd: Record<string, unknown>): ActParams {
  const out: Record<string, unknown> = {};
  for (const k of ACT_PARAM_KEYS) if (cmd[k] !== undefined) out[k] = cmd[k];
  return out as ActParams;
}

function newPending(ctx: X, c: C, action: string, params: ActParams, penalty: number, recKey: string | null, complete: boolean, readied = false): Pending {
  return { uid: ctx.newId('p'), actorId: c.id, action, params: plain(params), penalty, recKey, complete, readied };
}

// ---------------------------------------------------------------- commands

/** The state before the command: a plain value, cheaper to read than the draft (validation happens before any emit). */
const before = (ctx: X): S => (ctx.base ?? ctx.state) as unknown as S;

function act(ctx: X, cmd: Record<string, unknown>): void {
  const s = before(ctx);
  const o = optsOf(s);
  const c = s.combatants[cmd.combatantId as string]!;
  const def = actionDef(cmd.action as string)!;
  const p = paramsOf(cmd);
  const e = evaluate(s, c, def, p, true);
  if (e.blocked) fail(ctx, e.blocked);
  const sh = e.sh;
  if (e.spoils) spoil(ctx, c, e.spoils, `AP spent on ${def.label}`);
  const penalty = sh.subtypes.includes('attack') ? 0 - o.attackPenaltyStep * c.data.attacksThisRound : 0;
  if (sh.cost > 0) ctx.emit({ type: ev('ap-spent'), combatantId: c.id, amount: 1, action: def.id });
  ctx.emit({ type: ev('action-taken'), combatantId: c.id, action: def.id, actionType: sh.type, subtypes: sh.subtypes, phase: PHASES[s.rs.phaseIdx], penalty, ...(isReload(sh) ? { reload: true } : {}) });

  if (def.id === 'cast-defensively') {
    const me = combatantIn(ctx, c.id);
    const rec = me.data.inProgress.find((r) => actionDef(r.action)?.tags.includes('spell') && !r.defensive && r.spent < r.cost)!;
    castDefensively(ctx, me, rec);
    return;
  }
  if (def.id === 'speak' || def.id === 'recall-knowledge' || def.id === 'prepare-components' || def.id === 'free-ability' || def.id === 'cease-concentrating' || def.id === 'drop-item') {
    ctx.emit({ type: ev('resolved'), combatantId: c.id, action: def.id, key: null, readied: false, outcome: {}, ...(p.text ? { text: p.text } : {}) });
    return;
  }

  if (sh.type === 'advanced' || sh.type === 'full-round') {
    const rec: InProgress = {
      key: ctx.newId('a'),
      action: def.id,
      cost: sh.cost,
      spent: 1,
      consecutive: sh.consecutive,
      fullRound: sh.type === 'full-round',
      startedRound: s.rs.round,
      startedPhase: s.rs.phaseIdx,
      lastRound: s.rs.round,
      lastPhase: s.rs.phaseIdx,
      attackPenalty: penalty,
      defensive: false,
      params: p,
    };
    ctx.emit({ type: ev('advanced-started'), combatantId: c.id, advanced: plain(rec) });
    if (p.defensively && def.tags.includes('spell')) {
      const fb = freeBudget(s, c);
      if (fb) fail(ctx, fb);
      ctx.emit({ type: ev('action-taken'), combatantId: c.id, action: 'cast-defensively', actionType: 'free', subtypes: [], phase: PHASES[s.rs.phaseIdx], penalty: 0 });
      if (!castDefensively(ctx, combatantIn(ctx, c.id), rec)) return;
    }
    const pend = newPending(ctx, c, def.id, p, penalty, rec.key, rec.spent >= rec.cost);
    drive(ctx, stepsFor(st(ctx), combatantIn(ctx, c.id), pend, true));
  } else {
    const pend = newPending(ctx, c, def.id, p, penalty, null, true);
    drive(ctx, stepsFor(st(ctx), combatantIn(ctx, c.id), pend, true));
  }
  settle(ctx);
}

function continueAction(ctx: X, cmd: Record<string, unknown>): void {
  const s = before(ctx);
  const c = s.combatants[cmd.combatantId as string]!;
  const rec = cmd.key ? c.data.inProgress.find((r) => r.key === cmd.key) : (consecutiveInProgress(c) ?? c.data.inProgress[0]);
  const b = continueBlock(s, c, rec);
  if (b) fail(ctx, b);
  const r = rec!;
  const spent = r.spent + 1;
  const other = consecutiveInProgress(c);
  if (other && other.key !== r.key) spoil(ctx, c, other, `AP spent on ${actionDef(r.action)!.label}`);
  ctx.emit({ type: ev('ap-spent'), combatantId: c.id, amount: 1, action: r.action });
  ctx.emit({ type: ev('advanced-progressed'), combatantId: c.id, key: r.key, spent, round: s.rs.round, phase: s.rs.phaseIdx });
  const pend = newPending(ctx, c, r.action, r.params, r.attackPenalty, r.key, spent >= r.cost);
  drive(ctx, stepsFor(st(ctx), combatantIn(ctx, c.id), pend, false));
  settle(ctx);
}

function endTurn(ctx: X, id: string): void {
  const s = st(ctx);
  if (s.clock.current !== id) ctx.fail('NOT_YOUR_TURN', rule('initiative-order'), `It is not ${s.combatants[id]?.name ?? id}'s initiative.`);
  const c = s.combatants[id]!;
  const rec = mustContinue(s, c);
  if (rec) spoil(ctx, c, rec, 'not continued: "you must spend an action point (if you have any left) or the action is lost"');
  advance(ctx);
}

// ---------------------------------------------------------------- legal actions

function paramSpecs(s: S, c: C, def: ActionDef): ParamSpec[] {
  const out: ParamSpec[] = [];
  if (def.tags.includes('target') || def.id === 'aid-another') {
    out.push({ name: 'targetId', kind: 'combatant', options: Object.values(s.combatants).filter((o) => o.id !== c.id).map((o) => o.id), optional: def.id === 'aid-another' });
  }
  if (def.tags.includes('weapon') && c.stats.weapons.length) out.push({ name: 'weaponId', kind: 'item', options: c.stats.weapons.map((w) => w.id), optional: true });
  if (def.tags.includes('path')) out.push({ name: 'path', kind: 'path', label: 'squares, in order' });
  if (def.tags.includes('variable')) out.push({ name: 'ap', kind: 'number', min: def.minAp ?? 1, optional: true });
  if (def.tags.includes('spell')) out.push({ name: 'spellLevel', kind: 'number', min: 0, max: 9, optional: true }, { name: 'defensively', kind: 'boolean', optional: true });
  if (def.id === 'ready') out.push({ name: 'readied', kind: 'text' }, { name: 'trigger', kind: 'choice', options: ['attacked', 'casts', 'moves-adjacent', 'acts', 'custom'] });
  if (def.id === 'remove-dirty-trick') out.push({ name: 'targetId', kind: 'combatant', options: removableFor(s, c).map((o) => o.id), optional: true }, { name: 'effectId', kind: 'text', optional: true });
  if (def.id === 'dirty-trick') out.push({ name: 'condition', kind: 'choice', options: ['blinded', 'dazzled', 'deafened', 'entangled', 'shaken', 'sickened'], optional: true });
  return out;
}

export interface ApActionOption extends ActionOption {
  subtype?: string[];
  earliestPhase?: string;
  apLeft: number;
  inProgress: Array<{ key: string; action: string; spent: number; cost: number; consecutive: boolean }>;
  spoils?: { key: string; action: string } | null;
}

function legal(state: S, id: string): ActionOption[] {
  const s = state;
  const c = s.combatants[id];
  if (!c || s.status !== 'active') return [];
  const apLeft = c.data.ap;
  const inProgress = c.data.inProgress.map((r) => ({ key: r.key, action: r.action, spent: r.spent, cost: r.cost, consecutive: r.consecutive }));
  const base = { apLeft, inProgress };
  const out: ApActionOption[] = [];
  const w = s.reaction;
  if (w) {
    if (w.responses[id] === 'pending') {
      for (const cmd of w.allowed) {
        out.push({ command: cmd, label: cmd === 'attackOfOpportunity' ? 'Attack of opportunity' : cmd === 'spendAoo' ? 'Spend a use of an attack of opportunity' : 'Complete the readied action', kind: 'reaction', cost: { ap: cmd === 'completeReady' ? (c.data.ready?.cost ?? 0) : 0 }, allowed: true, template: { combatantId: id }, rule: w.kind, ...base });
      }
    }
    return out;
  }
  const threat = threateningFoes(s, c);
  for (const def of ACTIONS) {
    const e = evaluate(s, c, def, {}, false, threat);
    const opt: ApActionOption = {
      command: 'act',
      action: def.id,
      label: def.label,
      kind: e.sh.type,
      cost: { ap: e.sh.cost },
      provokes: e.provokes,
      params: paramSpecs(s, c, def),
      template: { combatantId: id, action: def.id },
      allowed: !e.blocked,
      rule: def.rule,
      subtype: e.sh.subtypes.length ? e.sh.subtypes : ['safe'],
      earliestPhase: e.earliest,
      spoils: e.spoils ? { key: e.spoils.key, action: e.spoils.action } : null,
      ...base,
    };
    if (e.blocked) opt.blocked = e.blocked.toError();
    out.push(opt);
  }
  for (const r of c.data.inProgress) {
    const def = actionDef(r.action)!;
    const b = continueBlock(s, c, r);
    const sh = { ...shapeOf(s, c, def, r.params), subtypes: progressSubtypes(s, c, r) };
    const opt: ApActionOption = {
      command: 'continue',
      action: r.action,
      label: `Continue: ${def.label} (${r.spent}/${r.cost} AP)`,
      kind: sh.type,
      cost: { ap: 1 },
      provokes: provocation(s, c, sh, r.params, r.spent + 1 >= r.cost, false),
      template: { combatantId: id, key: r.key },
      allowed: !b,
      rule: 'During the next action phase, you may spend another AP towards completing the action.',
      subtype: sh.subtypes.length ? sh.subtypes : ['safe'],
      earliestPhase: earliestPhase(s, c, sh, r.params),
      ...base,
    };
    if (b) opt.blocked = b.toError();
    out.push(opt);
  }
  const mine = s.clock.current === id;
  const must = mine ? mustContinue(s, c) : null;
  const endOpt: ApActionOption = { command: 'turn.end', label: must ? `End my initiative (spoils ${must.action})` : 'End my initiative in this phase', kind: 'turn', allowed: mine, template: { combatantId: id }, rule: 'Actions are resolved in order of initiative within each phase.', ...base };
  if (!mine) endOpt.blocked = { code: 'NOT_YOUR_TURN', rule: rule('initiative-order'), message: 'Not your initiative.' };
  out.push(endOpt);
  const canStop = canAct(s, c) && !c.data.stopped && c.data.ap > 0;
  out.push({ command: 'stop', label: 'Make no further expenditures of AP this round', kind: 'turn', allowed: canStop, template: { combatantId: id }, rule: 'The combat round ends when all combatants have spent their available action points or have chosen to make no further expenditures of AP.', ...base });
  out.push({ command: 'delay', label: 'Delay to a later phase', kind: 'turn', allowed: mine && s.rs.phaseIdx < PHASES.length - 1, params: [{ name: 'untilPhase', kind: 'choice', options: PHASES.slice(s.rs.phaseIdx + 1) }], template: { combatantId: id }, rule: 'it may perform another action now or delay until the next phase', ...base });
  out.push({ command: 'declare', label: 'Declare an intent', kind: 'declaration', allowed: s.rs.phaseIdx === 0 && canAct(s, c), params: [{ name: 'intent', kind: 'text' }], template: { combatantId: id }, rule: 'During this phase all of the players declare what actions they intend their characters to take.', ...base });
  out.push({ command: 'immediateAction', label: 'Use an immediate-action ability', kind: 'reaction', allowed: canAct(s, c) && c.data.reactionsThisPhase < optsOf(s).reactionsPerPhase, template: { combatantId: id }, rule: 'Spells and abilities resolved as immediate actions are a type of a reaction.', ...base });
  return out;
}

// ---------------------------------------------------------------- evolve

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

/** Events that name a combatant but do not change it: looking it up would only make a draft of it. */
const LEAVES_COMBATANT = new Set(
  ['tie-rolls', 'round-started', 'phase-started', 'turn', 'round-ended', 'intent-declared', 'ready-queue-cleared', 'damaged', 'attack-resolved', 'maneuver-resolved', 'movement-stopped', 'provoked', 'spoken'].map(ev),
);

/** The keys of a combatant's data, in the order `initCombatant` gives them. */
export const DATA_KEYS: readonly string[] = ['hp', 'aware', 'initiative', 'tiebreak', 'tieRoll', 'apBudget', 'ap', 'apSpentThisRound', 'apThisPhase', 'stopped', 'delayUntil', 'freeThisPhase', 'freeThisRound', 'reactionsThisPhase', 'aooThisRound', 'attacksThisRound', 'simpleThisRound', 'escapesThisRound', 'actedThisRound', 'fullRoundThisRound', 'freeStepUsed', 'inProgress', 'ready', 'forfeitedRound', 'nocked', 'nockedAt', 'unloaded'];
const copyDataLiteral = (d: Data): Data => ({
  hp: d.hp,
  aware: d.aware,
  initiative: d.initiative,
  tiebreak: d.tiebreak,
  tieRoll: d.tieRoll,
  apBudget: d.apBudget,
  ap: d.ap,
  apSpentThisRound: d.apSpentThisRound,
  apThisPhase: d.apThisPhase,
  stopped: d.stopped,
  delayUntil: d.delayUntil,
  freeThisPhase: d.freeThisPhase,
  freeThisRound: d.freeThisRound,
  reactionsThisPhase: d.reactionsThisPhase,
  aooThisRound: d.aooThisRound,
  attacksThisRound: d.attacksThisRound,
  simpleThisRound: d.simpleThisRound,
  escapesThisRound: d.escapesThisRound,
  actedThisRound: d.actedThisRound,
  fullRoundThisRound: d.fullRoundThisRound,
  freeStepUsed: d.freeStepUsed,
  inProgress: d.inProgress,
  ready: d.ready,
  forfeitedRound: d.forfeitedRound,
  nocked: d.nocked,
  nockedAt: d.nockedAt,
  unloaded: d.unloaded,
});
const copyDataSpread = (d: Data): Data => ({ ...d });
/**
 * A shallow copy of a combatant's data for the copy-on-write path (`Writer.own`): field by field when
 * it has exactly `DATA_KEYS` (a site of the ruleset's own; the engine's shared spread site sees every
 * shape the data had and is several times slower), else a spread.
 */
export function copyData(d: Data): Data {
  return hasExactKeys(d, DATA_KEYS) ? copyDataLiteral(d) : copyDataSpread(d);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.hp === o.hp &&
  c.aware === o.aware &&
  c.initiative === o.initiative &&
  c.tiebreak === o.tiebreak &&
  c.tieRoll === o.tieRoll &&
  c.apBudget === o.apBudget &&
  c.ap === o.ap &&
  c.apSpentThisRound === o.apSpentThisRound &&
  c.apThisPhase === o.apThisPhase &&
  c.stopped === o.stopped &&
  c.delayUntil === o.delayUntil &&
  c.freeThisPhase === o.freeThisPhase &&
  c.freeThisRound === o.freeThisRound &&
  c.reactionsThisPhase === o.reactionsThisPhase &&
  c.aooThisRound === o.aooThisRound &&
  c.attacksThisRound === o.attacksThisRound &&
  c.simpleThisRound === o.simpleThisRound &&
  c.escapesThisRound === o.escapesThisRound &&
  c.actedThisRound === o.actedThisRound &&
  c.fullRoundThisRound === o.fullRoundThisRound &&
  c.freeStepUsed === o.freeStepUsed &&
  c.inProgress === o.inProgress &&
  c.ready === o.ready &&
  c.forfeitedRound === o.forfeitedRound &&
  c.nocked === o.nocked &&
  c.nockedAt === o.nockedAt &&
  c.unloaded === o.unloaded;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: Data, o: Data): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c as never, o as never);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = ['round', 'surprise', 'regularRound', 'combatTurn', 'phaseIdx', 'cursor', 'intents', 'readyQueue', 'seq'];
const copyRsLiteral = (v: RS): RS => ({
  round: v.round,
  surprise: v.surprise,
  regularRound: v.regularRound,
  combatTurn: v.combatTurn,
  phaseIdx: v.phaseIdx,
  cursor: v.cursor,
  intents: v.intents,
  readyQueue: v.readyQueue,
  seq: v.seq,
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
  c.round === o.round &&
  c.surprise === o.surprise &&
  c.regularRound === o.regularRound &&
  c.combatTurn === o.combatTurn &&
  c.phaseIdx === o.phaseIdx &&
  c.cursor === o.cursor &&
  c.intents === o.intents &&
  c.readyQueue === o.readyQueue &&
  c.seq === o.seq;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c as never, o as never);
}

const facts = new Map<string, string>();
/** The part of an event type after `action-points.` ('' for another's), remembered per type. */
function factOf(type: string): string {
  let f = facts.get(type);
  if (f === undefined) {
    f = type.startsWith(EVENT_PREFIX) ? type.slice(EVENT_PREFIX.length) : '';
    // event types are a small set; a stream of unknown ones is not remembered without bound
    if (facts.size < 512) facts.set(type, f);
  }
  return f;
}

/**
 * Writes below a combatant's top level and below `rs`'s top level go through the writer (`own`): on
 * the copy-on-write path they copy what they change (the mutative path's writer is a no-op).
 */
function evolve(s: S, e: EngineEvent, w: Writer = draftWriter): boolean {
  const cid = e.combatantId as string | undefined;
  const c = cid && !LEAVES_COMBATANT.has(e.type) ? s.combatants[cid] : undefined;
  const dataOf = (x: S['combatants'][string]): Data => w.own<Data>(x, 'data', copyData, sameData);
  const D = (): Data => dataOf(c!);
  const removeRec = (key: unknown) => {
    if (c && typeof key === 'string') D().inProgress = c.data.inProgress.filter((r) => r.key !== key);
  };
  // the fact after the prefix, matched against literals (not a new `ev(...)` string per case)
  switch (factOf(e.type)) {
    case 'tie-rolls':
      for (const [id, v] of Object.entries(e.rolls as Record<string, number>)) if (s.combatants[id]) dataOf(s.combatants[id]!).tieRoll = v;
      return true;
    case 'round-started': {
      s.rs.round = e.round as number;
      s.rs.surprise = e.surprise as boolean;
      s.rs.regularRound = e.regularRound as number;
      s.rs.combatTurn = e.combatTurn as number;
      s.rs.intents = [];
      s.rs.readyQueue = [];
      s.rs.phaseIdx = 0;
      s.rs.cursor = null;
      const ap = e.ap as Record<string, number>;
      const init = e.initiative as Record<string, number>;
      const tb = e.tiebreak as Record<string, number>;
      for (const x of Object.values(s.combatants)) resetRound(dataOf(x), ap[x.id] ?? 0, init[x.id] ?? 0, tb[x.id] ?? 0);
      return true;
    }
    case 'phase-started':
      s.rs.phaseIdx = e.index as number;
      s.rs.cursor = null;
      for (const x of Object.values(s.combatants)) {
        // (a combatant whose counters are all 0 already is left as it is)
        if (x.data.apThisPhase === 0 && x.data.freeThisPhase === 0 && x.data.reactionsThisPhase === 0) continue;
        const d = dataOf(x);
        d.apThisPhase = 0;
        d.freeThisPhase = 0;
        d.reactionsThisPhase = 0;
      }
      return true;
    case 'turn':
      s.clock.current = cid ?? null;
      s.rs.cursor = e.initiative as [number, number];
      return true;
    case 'round-ended':
      for (const x of Object.values(s.combatants)) if (x.data.ap !== 0) dataOf(x).ap = 0;
      return true;
    case 'ap-spent':
      if (c) {
        const d = D();
        d.ap -= e.amount as number;
        d.apSpentThisRound += e.amount as number;
        if (!e.reaction) d.apThisPhase += e.amount as number;
      }
      return true;
    case 'action-taken':
      if (c) {
        const action = e.action as string;
        const type = e.actionType as string;
        const d = D();
        w.own<string[]>(d, 'actedThisRound').push(action);
        if (type === 'simple' && !e.reaction) d.simpleThisRound += 1;
        if (type === 'free' && !e.reload) {
          d.freeThisPhase += 1;
          d.freeThisRound += 1;
        }
        if ((e.subtypes as string[]).includes('attack')) d.attacksThisRound += 1;
        if (type === 'full-round') d.fullRoundThisRound = action;
        if (action === 'escape-grapple') d.escapesThisRound += 1;
        if (action === 'five-foot-step') d.freeStepUsed = true;
      }
      return true;
    case 'advanced-started':
      // the event's record itself goes into the state (changed in place later in the command, as the draft did)
      if (c) w.own<InProgress[]>(D(), 'inProgress').push(w.adopt(e.advanced as InProgress));
      return true;
    case 'advanced-progressed': {
      const i = c ? c.data.inProgress.findIndex((x) => x.key === e.key) : -1;
      if (i >= 0) {
        const r = w.own<InProgress>(w.own<InProgress[]>(D(), 'inProgress'), i);
        r.spent = e.spent as number;
        r.lastRound = e.round as number;
        r.lastPhase = e.phase as number;
      }
      return true;
    }
    case 'advanced-spoiled':
    case 'action-lost':
    case 'resolved':
      removeRec(e.key);
      return true;
    case 'cast-defensively': {
      const i = c ? c.data.inProgress.findIndex((x) => x.key === e.key) : -1;
      if (i >= 0 && e.success) w.own<InProgress>(w.own<InProgress[]>(D(), 'inProgress'), i).defensive = true;
      return true;
    }
    case 'intent-declared': {
      const intent: RS['intents'][number] = { combatantId: cid!, intent: e.intent as string };
      if (e.action) intent.action = e.action as string;
      if (e.targetId) intent.targetId = e.targetId as string;
      w.own<RS['intents']>(s.rs, 'intents').push(intent);
      return true;
    }
    case 'stopped':
      if (c) D().stopped = true;
      return true;
    case 'delayed':
      if (c) D().delayUntil = e.until as number;
      return true;
    case 'readied':
      if (c) {
        D().ready = w.adopt(e.ready as Data['ready']);
        D().forfeitedRound = (e.ready as { round: number }).round;
      }
      return true;
    case 'ready-lost':
      if (c) D().ready = null;
      return true;
    case 'ready-triggered':
      if (c) D().ready = null;
      w.own<RS['readyQueue']>(s.rs, 'readyQueue').push(w.adopt(e.queued as QueuedReady));
      return true;
    case 'ready-queue-cleared':
      s.rs.readyQueue = [];
      return true;
    case 'reaction-used':
      if (c) {
        D().reactionsThisPhase += 1;
        if (e.kind === 'attack-of-opportunity' || e.kind === 'spend-aoo') D().aooThisRound += 1;
      }
      return true;
    case 'damaged': {
      const t = s.combatants[e.targetId as string];
      if (t) dataOf(t).hp = e.hp as number;
      return true;
    }
    case 'hp-set':
      if (c) D().hp = e.hp as number;
      return true;
    case 'moved':
      if (c) {
        w.changed(c);
        c.position = w.adopt(e.to);
      }
      return true;
    case 'weapon-fired':
      if (c) {
        if (e.kind === 'bow') D().nocked = null;
        else if (!c.data.unloaded.includes(e.weaponId as string)) w.own<string[]>(D(), 'unloaded').push(e.weaponId as string);
      }
      return true;
    case 'nocked':
      if (c) Object.assign(D(), { nocked: e.weaponId as string, nockedAt: (e.at as number | undefined) ?? -1 });
      return true;
    case 'loaded':
      if (c) D().unloaded = c.data.unloaded.filter((x) => x !== e.weaponId);
      return true;
    case 'awareness-set':
      if (c) D().aware = e.aware as boolean;
      return true;
    case 'attack-resolved':
    case 'maneuver-resolved':
    case 'movement-stopped':
    case 'provoked':
    case 'spoken':
      return true;
    default:
      return false;
  }
}

// ---------------------------------------------------------------- invariants

function invariants(state: S): string[] {
  const s = state;
  const o = optsOf(s);
  const out: string[] = [];
  if (s.status !== 'active') return out;
  if (s.clock.round !== s.rs.round) out.push(`clock.round ${s.clock.round} != rs.round ${s.rs.round}`);
  if (s.clock.phase !== PHASES[s.rs.phaseIdx]) out.push(`clock.phase ${s.clock.phase} != ${PHASES[s.rs.phaseIdx]}`);
  for (const c of Object.values(s.combatants)) {
    const d = c.data;
    const max = s.rs.surprise ? (d.aware ? o.surpriseAp : 0) : o.apPerRound + c.stats.bonusAp;
    if (d.ap < 0) out.push(`${c.id}: negative AP (${d.ap})`);
    if (d.ap > max) out.push(`${c.id}: ${d.ap} AP exceeds the round's ${max} (carried over?)`);
    if (d.apBudget > max) out.push(`${c.id}: budget ${d.apBudget} exceeds ${max}`);
    if (d.ap + d.apSpentThisRound > d.apBudget) out.push(`${c.id}: ap ${d.ap} + spent ${d.apSpentThisRound} > budget ${d.apBudget}`);
    if (d.apThisPhase > o.apPerPhase) out.push(`${c.id}: ${d.apThisPhase} AP this phase`);
    if (d.freeThisPhase > o.freeActionsPerPhase + 1) out.push(`${c.id}: ${d.freeThisPhase} free actions this phase`);
    if (d.freeThisRound > o.freeActionsPerRound + 1) out.push(`${c.id}: ${d.freeThisRound} free actions this round`);
    if (d.reactionsThisPhase > o.reactionsPerPhase) out.push(`${c.id}: ${d.reactionsThisPhase} reactions this phase`);
    if (s.rs.surprise && !d.aware && d.apSpentThisRound > 0) out.push(`${c.id}: unaware but spent AP in the surprise round`);
    if (d.inProgress.filter((r) => r.consecutive).length > 1) out.push(`${c.id}: two consecutive advanced actions in progress`);
    for (const r of d.inProgress) if (r.spent > r.cost || r.spent < 1 || (r.spent === r.cost && !s.reaction)) out.push(`${c.id}: advanced ${r.action} at ${r.spent}/${r.cost}`);
  }
  const cur = s.clock.current;
  if (cur && !s.combatants[cur]) out.push(`current ${cur} is not a combatant`);
  const order = s.clock.order;
  if (new Set(order).size !== order.length) out.push('duplicate ids in the order');
  return out;
}

// ---------------------------------------------------------------- the ruleset

const id = idSchema;

export const actionPoints: Ruleset<RS, Options, Stats, Data> = {
  display,
  adjustVital: adjustVital as never,
  id: RULESET_ID,
  name: 'Action Points and Dynamic Combat',
  summary:
    '3 AP a round (2 in a surprise round) spent across seven action phases ordered by speed: declaration, ready-missile, thrown, fast, average, slow, very slow. Simple, advanced (consecutive or not), full-round, free actions and reactions; attack, complex, move and safe subtypes; attacks of opportunity before the provoking action.',
  optionsSchema: optionsSchema as unknown as z.ZodType<Options>,
  optionDocs,
  statsSchema: statsSchema as unknown as z.ZodType<Stats>,
  statDocs,
  positionSchema,
  space: { kind: 'squares' },
  initialState: () => ({ round: 0, surprise: false, regularRound: 0, combatTurn: 0, phaseIdx: 0, cursor: null, intents: [], readyQueue: [], seq: 0 }),
  initCombatant: (stats) => ({
    hp: stats.hp,
    aware: true,
    initiative: stats.dexterity + stats.initiativeModifier,
    tiebreak: 0,
    tieRoll: 0,
    apBudget: 0,
    ap: 0,
    apSpentThisRound: 0,
    apThisPhase: 0,
    stopped: false,
    delayUntil: 0,
    freeThisPhase: 0,
    freeThisRound: 0,
    reactionsThisPhase: 0,
    aooThisRound: 0,
    attacksThisRound: 0,
    simpleThisRound: 0,
    escapesThisRound: 0,
    actedThisRound: [],
    fullRoundThisRound: null,
    freeStepUsed: false,
    inProgress: [],
    ready: null,
    forfeitedRound: 0,
    nocked: null,
    nockedAt: -1,
    unloaded: stats.weapons.filter((w) => !w.loaded).map((w) => w.id),
  }),
  catalogue: [
    ...[...ACTIONS, ...REACTIONS].map(
      (a): CatalogueEntry => ({
        id: a.id,
        label: a.label,
        kind: a.type,
        cost: a.minAp ? `at least ${a.minAp} AP` : { ap: a.ap },
        provokes: a.subtypes.includes('complex')
          ? 'always, before it is taken and in each phase AP are spent on it'
          : a.subtypes.includes('move')
            ? 'when leaving a threatened square (or standing up in one)'
            : a.subtypes.includes('attack')
              ? a.feat
                ? `from the target, without ${a.feat}; ranged: from all threatening foes`
                : 'only when ranged (or unarmed without improved-unarmed-strike)'
              : 'no (safe)',
        rule: a.rule,
        notes: `subtypes: ${a.subtypes.join(', ') || 'safe'}${a.type === 'advanced' || a.type === 'full-round' ? `; ${a.consecutive ? 'consecutive' : 'non-consecutive'} AP` : ''}`,
      }),
    ),
    { id: 'declare', label: 'Declare an intent', kind: 'declaration', rule: 'Intended actions are just that; the Judge and the players can choose to adjust their plans in later phases' },
    { id: 'stop', label: 'Stop spending AP this round', kind: 'turn', rule: 'or have chosen to make no further expenditures of AP' },
    { id: 'delay', label: 'Delay to a later phase', kind: 'turn', rule: 'it may perform another action now or delay until the next phase' },
    { id: 'continue', label: 'Spend an AP on an advanced action in progress', kind: 'advanced', cost: { ap: 1 }, rule: 'During the next action phase, you may spend another AP towards completing the action.' },
  ],

  commands: {
    act: {
      actor: 'combatant',
      schema: commandSchema('act', { combatantId: id, action: z.enum(ACTION_IDS), ...actParamsShape }),
      handle: (ctx, cmd) => act(ctx, cmd),
    },
    continue: {
      actor: 'combatant',
      schema: commandSchema('continue', { combatantId: id, key: id.optional() }),
      handle: (ctx, cmd) => continueAction(ctx, cmd),
    },
    declare: {
      actor: 'combatant',
      schema: commandSchema('declare', { combatantId: id, intent: z.string().min(1).max(500), action: z.enum(ACTION_IDS).optional(), targetId: id.optional() }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string]!;
        if (s.rs.phaseIdx !== 0) ctx.fail('WRONG_PHASE', rule('declaration'), '"During this phase [the declaration phase] all of the players declare what actions they intend".');
        if (!canAct(s, c)) ctx.fail('ILLEGAL_ACTION', rule('surprise-round'), `${c.name} cannot act this round.`);
        const e: EngineEvent = { type: ev('intent-declared'), combatantId: c.id, intent: cmd.intent as string };
        if (cmd.action) e.action = cmd.action;
        if (cmd.targetId) e.targetId = cmd.targetId;
        ctx.emit(e);
      },
    },
    stop: {
      actor: 'combatant',
      schema: commandSchema('stop', { combatantId: id }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string]!;
        if (c.data.stopped) ctx.fail('ILLEGAL_ACTION', rule('stopped'), `${c.name} already stopped.`);
        for (const r of c.data.inProgress.filter((x) => x.consecutive)) {
          if (c.data.ap > 0) spoil(ctx, c, r, 'stopped: "If you stop spending AP on such an action, it never comes to completion"');
        }
        ctx.emit({ type: ev('stopped'), combatantId: c.id, apLost: c.data.ap });
        if (st(ctx).clock.current === c.id) advance(ctx);
      },
    },
    delay: {
      actor: 'combatant',
      schema: commandSchema('delay', { combatantId: id, untilPhase: z.enum(PHASES) }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string]!;
        if (s.clock.current !== c.id) ctx.fail('NOT_YOUR_TURN', rule('initiative-order'), `It is not ${c.name}'s initiative.`);
        const until = phaseIndex(cmd.untilPhase as (typeof PHASES)[number]);
        if (until <= s.rs.phaseIdx) ctx.fail('INVALID_COMMAND', rule('delay'), 'Delay to a later phase.');
        const rec = mustContinue(s, c);
        if (rec) spoil(ctx, c, rec, 'delayed instead of continuing it');
        ctx.emit({ type: ev('delayed'), combatantId: c.id, until, phase: cmd.untilPhase });
        advance(ctx);
      },
    },
    attackOfOpportunity: {
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('attackOfOpportunity', { combatantId: id, weaponId: id.optional() }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const w = s.reaction;
        if (!w || w.kind !== ev('attack-of-opportunity')) return ctx.fail('NO_REACTION_PENDING', 'engine.reactions', 'No attack of opportunity is on offer.');
        const c = s.combatants[cmd.combatantId as string]!;
        const t = w.trigger.combatantId ? s.combatants[w.trigger.combatantId] : undefined;
        if (!t) return ctx.fail('UNKNOWN_TARGET', rule('attack-of-opportunity'), 'The provoking creature is gone.');
        if (!canMakeAoO(s, c) || !threatens(s, c, t.position as never)) {
          ctx.fail('ILLEGAL_ACTION', rule('attack-of-opportunity'), '"When a foe you threaten provokes an attack of opportunity, you can make a single melee attack against that foe."');
        }
        const weapon = weaponOf(c, cmd.weaponId as string | undefined);
        if (weapon && weapon.kind !== 'melee') ctx.fail('ILLEGAL_ACTION', rule('attack-of-opportunity'), 'An attack of opportunity is a melee attack.');
        ctx.emit({ type: ev('reaction-used'), combatantId: c.id, kind: 'attack-of-opportunity', against: t.id });
        if (optsOf(s).resolveAttacks) attackRoll(ctx, c, t, weapon, 0, 'attack of opportunity');
      },
    },
    spendAoo: {
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('spendAoo', { combatantId: id, text: z.string().min(1).max(200) }),
      handle(ctx, cmd) {
        const s = st(ctx);
        if (!s.reaction || s.reaction.kind !== ev('attack-of-opportunity')) return ctx.fail('NO_REACTION_PENDING', 'engine.reactions', 'No attack of opportunity is on offer.');
        const c = s.combatants[cmd.combatantId as string]!;
        if (!canMakeAoO(s, c)) ctx.fail('ILLEGAL_ACTION', rule('attack-of-opportunity'), 'No attack of opportunity left.');
        ctx.emit({ type: ev('reaction-used'), combatantId: c.id, kind: 'spend-aoo', text: cmd.text });
      },
    },
    completeReady: {
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('completeReady', { combatantId: id, targetId: id.optional(), path: z.array(squareSchema).min(1).max(200).optional() }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string]!;
        if (!s.reaction || s.reaction.kind !== ev('ready')) return ctx.fail('NO_REACTION_PENDING', 'engine.reactions', 'No readied trigger is pending.');
        const ready = c.data.ready;
        if (!ready) return ctx.fail('ILLEGAL_ACTION', rule('ready'), `${c.name} has no readied action.`);
        if (c.data.ap < ready.cost) ctx.fail('BUDGET_EXHAUSTED', rule('ready'), `"you must have enough AP left to complete the action you ready": ${ready.cost} needed.`);
        const params: ActParams = { ...ready.params };
        if (cmd.targetId) params.targetId = cmd.targetId as string;
        if (!params.targetId && s.reaction.trigger.combatantId && actionDef(ready.action)!.tags.includes('target')) params.targetId = s.reaction.trigger.combatantId;
        if (cmd.path) params.path = cmd.path as ActParams['path'];
        const def = actionDef(ready.action)!;
        const sh = shapeOf(s, c, def, params);
        const penalty = sh.subtypes.includes('attack') ? 0 - optsOf(s).attackPenaltyStep * c.data.attacksThisRound : 0;
        ctx.emit({ type: ev('reaction-used'), combatantId: c.id, kind: 'ready' });
        if (ready.cost > 0) ctx.emit({ type: ev('ap-spent'), combatantId: c.id, amount: ready.cost, action: ready.action, reaction: true });
        ctx.emit({ type: ev('action-taken'), combatantId: c.id, action: ready.action, actionType: sh.type, subtypes: sh.subtypes, phase: PHASES[s.rs.phaseIdx], penalty, reaction: true });
        const queued: QueuedReady = plain({ actorId: c.id, action: ready.action, params, penalty });
        ctx.emit({ type: ev('ready-triggered'), combatantId: c.id, queued });
      },
    },
    immediateAction: {
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('immediateAction', { combatantId: id, text: z.string().min(1).max(200).optional(), effect: actParamsShape.effect }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string]!;
        if (!canAct(s, c)) ctx.fail('ILLEGAL_ACTION', rule('surprise-round'), `${c.name} cannot act now.`);
        if (c.data.reactionsThisPhase >= optsOf(s).reactionsPerPhase) ctx.fail('BUDGET_EXHAUSTED', rule('reactions-per-phase'), '"Reactions may be limited to one per phase".');
        ctx.emit({ type: ev('reaction-used'), combatantId: c.id, kind: 'immediate-action', text: cmd.text ?? null });
        const eff = cmd.effect as ActParams['effect'];
        if (eff) {
          const spec: Parameters<typeof addEffect>[1] = { name: eff.name, targetId: eff.targetId ?? c.id, sourceId: c.id, duration: eff.rounds ? { unit: 'rounds', count: eff.rounds } : null };
          if (eff.condition) spec.condition = eff.condition;
          if (eff.data) spec.data = eff.data;
          addEffect(ctx, spec);
        }
      },
    },
    setAware: {
      actor: 'gm',
      inSetup: true,
      schema: commandSchema('setAware', { combatantId: id, aware: z.boolean() }),
      handle(ctx, cmd) {
        if (ctx.state.status !== 'setup') ctx.fail('COMBAT_ALREADY_STARTED', rule('awareness'), '"Determine which characters are aware of their opponents" before combat starts.');
        if (!ctx.state.combatants[cmd.combatantId as string]) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
        ctx.emit({ type: ev('awareness-set'), combatantId: cmd.combatantId, aware: cmd.aware });
      },
    },
    setHp: {
      actor: 'gm',
      duringReaction: true,
      inSetup: true,
      schema: commandSchema('setHp', { combatantId: id, hp: z.number().int().min(-1000).max(100000) }),
      handle(ctx, cmd) {
        if (!ctx.state.combatants[cmd.combatantId as string]) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
        ctx.emit({ type: ev('hp-set'), combatantId: cmd.combatantId, hp: cmd.hp });
        settle(ctx);
      },
    },
    advancePhase: {
      actor: 'gm',
      schema: commandSchema('advancePhase', {}),
      handle(ctx) {
        const s = st(ctx);
        enterPhase(ctx, s.rs.phaseIdx + 1);
      },
    },
    spoil: {
      actor: 'gm',
      duringReaction: true,
      schema: commandSchema('spoil', { combatantId: id, key: id.optional(), reason: z.string().min(1).max(200).default('GM ruling') }),
      handle(ctx, cmd) {
        const c = st(ctx).combatants[cmd.combatantId as string];
        const rec = c?.data.inProgress.find((r) => !cmd.key || r.key === cmd.key);
        if (!c || !rec) return ctx.fail('INVALID_COMMAND', rule('advanced'), 'No advanced action in progress.');
        spoil(ctx, c, rec, cmd.reason as string);
      },
    },
    provoke: {
      actor: 'gm',
      schema: commandSchema('provoke', { combatantId: id, from: z.array(id).max(50).optional(), reason: z.string().min(1).max(200) }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string];
        if (!c) return ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
        const from = ((cmd.from as string[] | undefined) ?? Object.values(s.combatants).filter((f) => f.side !== c.side && threatens(s, f, c.position as never)).map((f) => f.id)).filter(
          (fid) => s.combatants[fid] && canMakeAoO(s, s.combatants[fid]!),
        );
        if (from.length === 0) return ctx.fail('ILLEGAL_ACTION', rule('attack-of-opportunity'), 'Nobody can make an attack of opportunity.');
        ctx.emit({ type: ev('provoked'), combatantId: c.id, reason: cmd.reason });
        ctx.openReaction({ kind: ev('attack-of-opportunity'), trigger: { combatantId: c.id, action: 'gm', description: cmd.reason as string }, eligible: from, allowed: ['attackOfOpportunity', 'spendAoo'], resume: { queue: [] } });
      },
    },
    triggerReady: {
      actor: 'gm',
      schema: commandSchema('triggerReady', { combatantId: id, sourceId: id.optional() }),
      handle(ctx, cmd) {
        const s = st(ctx);
        const c = s.combatants[cmd.combatantId as string];
        if (!c?.data.ready) return ctx.fail('ILLEGAL_ACTION', rule('ready'), 'That combatant has no readied action.');
        ctx.openReaction({ kind: ev('ready'), trigger: { combatantId: (cmd.sourceId as string | undefined) ?? null, action: 'gm', description: c.data.ready.trigger.description }, eligible: [c.id], allowed: ['completeReady'], resume: { queue: [] } });
      },
    },
  },

  evolve: (draft, e, w) => evolve(draft as S, e, w),
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through `w`
  cow: true,
  // the top of rs, copied field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,

  startCombat(ctx) {
    const s = st(ctx);
    const o = optsOf(s);
    const all = Object.values(s.combatants);
    if (o.initiativeTies === 'roll') {
      const rolls: Record<string, number> = {};
      for (const c of all) {
        const init = c.stats.dexterity + c.stats.initiativeModifier;
        if (all.some((x) => x.id !== c.id && x.stats.dexterity + x.stats.initiativeModifier === init)) {
          rolls[c.id] = ctx.roll('1d20', `initiative tie-break for ${c.name}`, { combatantId: c.id }).total;
        }
      }
      if (Object.keys(rolls).length) ctx.emit({ type: ev('tie-rolls'), rolls });
    }
    const aware = all.filter((c) => c.data.aware).length;
    const surprise = o.surpriseRound && aware > 0 && aware < all.length;
    startRound(ctx, 1, surprise);
  },

  endTurn: (ctx, cid) => endTurn(ctx, cid),
  legalActions: (state, cid) => legal(state as S, cid),

  onCombatantRemoved(ctx) {
    const s = st(ctx);
    if (s.status === 'active' && !s.reaction && s.clock.current === null && s.rs.cursor !== null) advance(ctx);
  },

  effectExpiry: (state, effect) => expiryOf(state as S, effect),

  onReactionClosed(ctx, w) {
    let queue = ((w.resume as { queue?: Step[] } | null)?.queue ?? []).slice();
    if (w.kind === ev('ready')) {
      const rq = st(ctx).rs.readyQueue;
      if (rq.length) {
        ctx.emit({ type: ev('ready-queue-cleared') });
        const pre: Step[] = [];
        for (const r of rq) {
          const c = st(ctx).combatants[r.actorId];
          if (!c) continue;
          const pend = newPending(ctx, c, r.action, r.params, r.penalty, null, true, true);
          pre.push(...stepsFor(st(ctx), c, pend, true).filter((x) => x.t !== 'ready' || !x.kinds.includes('acts')));
        }
        queue = [...pre, ...queue];
      }
    }
    drive(ctx, queue);
    settle(ctx);
  },

  projectState(rs: RS, viewer: Viewer, state) {
    if (viewer.role === 'gm') return rs;
    const pid = viewer.role === 'player' ? viewer.playerId : null;
    const visible = (cid: string) => {
      const c = state.combatants[cid];
      return !!c && (!c.hidden || (pid !== null && c.controller === pid));
    };
    return withParts(rs, { intents: keepIf(rs.intents, (i) => visible(i.combatantId)), readyQueue: keepIf(rs.readyQueue, (r) => visible(r.actorId)) });
  },

  invariants: (state) => invariants(state as S),
};

export { readiedThisRound, alive };
export default actionPoints;
