import { actionDef, type ActionDef, type ActionType, type Subtype, type Tag } from '../catalogue/index.js';
import type { Options } from '../options.js';
import {
  DEFAULT_BASE_SPEED_BY_SIZE,
  PHASES,
  baseActionSpeed,
  laterSpeed,
  phaseIndex,
  type Phase,
  type Speed,
  type SpeedTable,
} from './phases.js';
import { has, optsOf, type ActParams, type C, type InProgress, type S, type Weapon } from '../state.js';

/** What an action is for this creature now: its type, cost and subtypes after feats and parameters, its speed, its phase. */

/** The speed table of the options (built once per options object: options do not change). */
const speedTables = new WeakMap<Options, SpeedTable>();
function speedTableOf(o: Options): SpeedTable {
  let t = speedTables.get(o);
  if (!t) {
    t = {
      baseSpeedBySize: { ...DEFAULT_BASE_SPEED_BY_SIZE, ...o.baseSpeedBySize },
      fastMovement: o.fastMovement,
      slowMovement: o.slowMovement,
    };
    speedTables.set(o, t);
  }
  return t;
}

export function baseSpeedOf(s: S, c: C): Speed {
  if (c.stats.baseActionSpeed) return c.stats.baseActionSpeed;
  return baseActionSpeed(c.stats.size, c.stats.speed, speedTableOf(optsOf(s)));
}

export function weaponSpeedOf(s: S, w: Weapon): Speed {
  if (w.speed) return w.speed;
  const table = optsOf(s).weaponSpeedByCategory;
  return table[w.category] ?? 'fast';
}

export function weaponOf(c: C, weaponId: string | undefined, natural = false): Weapon | undefined {
  if (weaponId) return c.stats.weapons.find((w) => w.id === weaponId);
  return c.stats.weapons.find((w) => (natural ? w.category === 'natural' : w.kind === 'melee')) ?? c.stats.weapons[0];
}

export const isRanged = (w: Weapon | undefined): boolean => w !== undefined && w.kind !== 'melee';

/** Reach by stats object: stats are never changed in place (a GM edit assigns new stats), so the object identifies the value. */
const reachByStats = new WeakMap<object, number>();

export function reachOf(c: C): number {
  const stats = c.stats;
  let r = reachByStats.get(stats);
  if (r === undefined) {
    r = stats.reach;
    for (const w of stats.weapons) if (w.kind === 'melee' && w.reach !== undefined) r = Math.max(r, w.reach);
    reachByStats.set(stats, r);
  }
  return r;
}

/** What an action is once its parameters and the actor's feats are taken into account. */
export interface Shape {
  def: ActionDef;
  type: ActionType;
  cost: number;
  subtypes: Subtype[];
  consecutive: boolean;
  tags: Tag[];
}

export function shapeOf(s: S, c: C, def: ActionDef, p: ActParams): Shape {
  let type = def.type;
  let cost = def.ap;
  let subtypes = [...def.subtypes];
  let consecutive = def.consecutive && !optsOf(s).nonConsecutiveActions.includes(def.id);
  switch (def.id) {
    case 'aid-another': {
      const aided = p.aids ? actionDef(p.aids) : undefined;
      if (aided) subtypes = [...aided.subtypes];
      break;
    }
    case 'appraise-item':
      if (p.holding) subtypes = ['complex'];
      break;
    case 'search':
      if (p.area) subtypes = ['complex'];
      break;
    case 'feint':
      if (has(c, 'improved-feint')) subtypes = [];
      break;
    case 'load-light-crossbow':
      if (has(c, 'rapid-reload')) {
        type = 'free';
        cost = 0;
        subtypes = [];
      }
      break;
    case 'load-firearm-one-handed':
      if (has(c, 'rapid-reload')) {
        type = 'simple';
        cost = 1;
      }
      break;
    case 'load-firearm-two-handed':
      if (has(c, 'rapid-reload')) {
        type = 'advanced';
        cost = 2;
      }
      break;
    case 'sleight-of-hand':
      if (p.hasty) {
        type = 'simple';
        cost = 1;
      }
      break;
    case 'push-animal':
      if (p.companion) {
        type = 'simple';
        cost = 1;
      }
      break;
    case 'mount-dismount':
      if (p.free) {
        type = 'free';
        cost = 0;
      }
      break;
    case 'ready-drop-shield':
      if (p.free) {
        type = 'free';
        cost = 0;
      }
      break;
    case 'manipulate-item':
      if (p.ap !== undefined && p.ap > 1) {
        type = 'advanced';
        cost = p.ap;
        consecutive = p.consecutive ?? true;
      }
      break;
    case 'disable-device':
    case 'find-tracks':
      cost = Math.max(def.minAp ?? def.ap, p.ap ?? def.ap);
      if (def.id === 'disable-device' && p.consecutive !== undefined) consecutive = p.consecutive;
      break;
  }
  if (type === 'free' || type === 'simple') consecutive = false;
  return { def, type, cost, subtypes, consecutive, tags: def.tags };
}

/** The subtypes of an advanced action in progress (a defensive casting lost its complex subtype). */
export function progressSubtypes(s: S, c: C, rec: InProgress): Subtype[] {
  const def = actionDef(rec.action)!;
  const sh = shapeOf(s, c, def, rec.params);
  return rec.defensive ? sh.subtypes.filter((x) => x !== 'complex') : sh.subtypes;
}

/**
 * The earliest phase an action may be taken: the reconstructed table of action phases.
 * - declaration: free actions at the speed of thought (speak, recall knowledge, ...)
 * - ready-missile: other free and swift actions, readied missiles, triggered weapons (crossbows,
 *   firearms), simple and advanced actions without the move or attack subtypes
 * - thrown: thrown weapons and ranged weapons not fired earlier, actions with the move subtype
 * - fast / average / slow / very-slow: attack actions, from the later of base action speed and
 *   weapon speed ("whichever is later"); missiles and spells are not gated by weapon speed.
 */
export function earliestPhase(s: S, c: C, sh: Shape, p: ActParams): Phase {
  const override = optsOf(s).earliestPhaseOverrides[sh.def.id];
  if (override) return override;
  if (sh.type === 'free') return sh.tags.includes('thought') ? 'declaration' : 'ready-missile';
  if (sh.subtypes.includes('attack')) {
    const natural = sh.tags.includes('natural');
    const w = sh.tags.includes('weapon') || natural ? weaponOf(c, p.weaponId, natural) : weaponOf(c, p.weaponId);
    if (w && isRanged(w) && sh.tags.includes('weapon')) return missilePhase(s, c, w);
    const base = baseSpeedOf(s, c);
    const speed = w && !isRanged(w) ? laterSpeed(base, weaponSpeedOf(s, w)) : base;
    return speed;
  }
  if (sh.subtypes.includes('move')) return 'thrown';
  return 'ready-missile';
}

/** The current phase of the current round as one number (the `nockedAt` stamp of a nocked arrow). */
export const phaseStamp = (s: S): number => s.rs.round * PHASES.length + s.rs.phaseIdx;

/**
 * "Readied missiles (arrows already nocked and drawn)" fire in the ready-missile phase; "an arrow that was nocked and
 * drawn in the second action phase as a free action may be released" in the third. An arrow nocked in this very phase
 * was not readied before it began (unless the table sets `nockedFiresSamePhase`).
 */
export const nockedThisPhase = (s: S, c: C): boolean =>
  !optsOf(s).nockedFiresSamePhase && c.data.nocked !== null && c.data.nockedAt === phaseStamp(s);

/** The earliest phase of a missile: triggered weapons (crossbows, firearms) and readied arrows in the ready-missile phase; thrown weapons and bows not readied in the thrown phase. */
function missilePhase(s: S, c: C, w: Weapon): Phase {
  if (w.kind === 'crossbow' || w.kind === 'firearm') return 'ready-missile';
  if (w.kind === 'bow') return c.data.nocked === w.id && !nockedThisPhase(s, c) ? 'ready-missile' : 'thrown';
  return 'thrown';
}

/** "this limitation shouldn't be applied to reloading ranged weapons as a free action" */
export const isReload = (sh: Shape): boolean => sh.type === 'free' && (sh.def.id === 'draw-nock' || sh.def.id.startsWith('load-'));

/** The consecutive advanced action `c` must spend an AP on in this phase, if any. */
export function mustContinue(s: S, c: C): InProgress | null {
  const rec = c.data.inProgress.find((r) => r.consecutive);
  if (!rec || c.data.ap < 1 || c.data.apThisPhase >= optsOf(s).apPerPhase) return null;
  if (rec.lastRound === s.rs.round && rec.lastPhase === s.rs.phaseIdx) return null;
  const sh = shapeOf(s, c, actionDef(rec.action)!, rec.params);
  if (s.rs.phaseIdx < phaseIndex(earliestPhase(s, c, sh, rec.params))) return null;
  return rec;
}
