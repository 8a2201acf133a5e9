import { chebyshev } from '@fray/engine';
import { actionDef, type ActionDef } from './catalogue.js';
import { PHASES, phaseIndex, type Phase } from './phases.js';
import type {
  Blocked} from './rules.js';
import {
  alive,
  baseSpeedOf,
  block,
  checkPath,
  earliestPhase,
  has,
  hasCond,
  isRanged,
  progressSubtypes,
  provocation,
  readiedThisRound,
  reachOf,
  shapeOf,
  weaponOf,
  weaponSpeedOf,
  type Shape,
} from './rules.js';
import { removeDirtyTrickBlock } from './dirty-trick.js';
import { nockedThisPhase } from './missiles.js';
import { optsOf, type ActParams, type C, type InProgress, type S, type Sq } from './types.js';

export interface Evaluation {
  sh: Shape;
  earliest: Phase;
  provokes: { from: string[]; reason: string } | null;
  /** the consecutive advanced action this would spoil */
  spoils: InProgress | null;
  blocked: Blocked | null;
}

/** "this limitation shouldn't be applied to reloading ranged weapons as a free action" */
export const isReload = (sh: Shape): boolean => sh.type === 'free' && (sh.def.id === 'draw-nock' || sh.def.id.startsWith('load-'));

export const consecutiveInProgress = (c: C): InProgress | undefined => c.data.inProgress.find((r) => r.consecutive);
export const fullRoundInProgress = (c: C): InProgress | undefined => c.data.inProgress.find((r) => r.fullRound);

const HELPLESS = ['helpless', 'unconscious', 'paralyzed', 'sleeping', 'pinned'];

/** Checks common to every action spent on one's own initiative (taking or continuing). */
export function commonBlock(s: S, c: C, anytime: boolean, speak = false, apCost = 0): Blocked | null {
  if (!alive(c)) return block('ILLEGAL_ACTION', 'down', `${c.name} is down and cannot act.`);
  if (s.rs.surprise && !c.data.aware) {
    return block('ILLEGAL_ACTION', 'surprise-round', `${c.name} is unaware: "only those creatures [that are aware] may act during the first round".`);
  }
  if (!speak && readiedThisRound(s, c)) {
    return block('ILLEGAL_ACTION', 'ready-forfeits', `${c.name} readied an action: "Once you ready an action, you forfeit all other actions this round."`);
  }
  if (!speak && c.data.stopped) return block('ILLEGAL_ACTION', 'stopped', `${c.name} chose to make no further expenditures of AP this round.`);
  if (apCost > 0 && c.data.ap < 1) return apBlock(s, c);
  if (!anytime && s.clock.current !== c.id) {
    return block('NOT_YOUR_TURN', 'initiative-order', `Not ${c.name}'s initiative: "Combatants act in initiative order (highest to lowest) during each phase".`);
  }
  return null;
}

export function apBlock(s: S, c: C): Blocked | null {
  const o = optsOf(s);
  if (c.data.ap < 1) {
    return s.rs.surprise
      ? block('BUDGET_EXHAUSTED', 'action-points', `${c.name} has no AP left: "Creatures are limited to using ${o.surpriseAp} action points during a surprise round."`)
      : block('BUDGET_EXHAUSTED', 'action-points', `${c.name} has no AP left: "Creatures begin each combat round with ${o.apPerRound} AP"; they do not carry over.`);
  }
  if (c.data.apThisPhase >= o.apPerPhase) {
    return block('BUDGET_EXHAUSTED', 'one-ap-a-phase', `${c.name} already spent ${o.apPerPhase} AP this phase: an action takes a phase per AP ("each phase ... approximately 1 second").`);
  }
  return null;
}

function phaseBlock(s: S, c: C, sh: Shape, earliest: Phase, p: ActParams): Blocked | null {
  if (s.rs.phaseIdx >= phaseIndex(earliest)) return null;
  if (sh.subtypes.includes('attack')) {
    const w = weaponOf(c, p.weaponId, sh.tags.includes('natural'));
    if (w?.kind === 'bow' && sh.tags.includes('weapon') && nockedThisPhase(s, c)) {
      return block(
        'WRONG_PHASE',
        'nocked-this-phase',
        `The arrow on ${w.name} was nocked in this ${PHASES[s.rs.phaseIdx]} phase: only "Readied missiles (arrows already nocked and drawn)" fire now; "an arrow that was nocked and drawn in the second action phase as a free action may be released" from the thrown phase on.`,
      );
    }
    const detail = w && !isRanged(w) ? `base action speed ${baseSpeedOf(s, c)}, ${w.name} speed ${weaponSpeedOf(s, w)}` : `base action speed ${baseSpeedOf(s, c)}`;
    return block(
      'WRONG_PHASE',
      'action-speed',
      `${sh.def.label} may begin no earlier than the ${earliest} phase (${detail}): "the earliest action phase in which the action may begin is the one associated with the character's base action speed or weapon speed, whichever is later".`,
    );
  }
  return block('WRONG_PHASE', 'action-phases', `${sh.def.label} may be taken from the ${earliest} phase on ("these are the earliest phases of combat when such actions can be attempted").`);
}

/** Why `c` may not take `def` now (with `full`, the parameters are checked too). */
export function evaluate(s: S, c: C, def: ActionDef, p: ActParams, full: boolean, threat?: C[]): Evaluation {
  const sh = shapeOf(s, c, def, p);
  const earliest = earliestPhase(s, c, sh, p);
  const cons = consecutiveInProgress(c);
  const spoils = sh.cost > 0 && cons ? cons : null;
  const provokes = provocation(s, c, sh, p, true, true, threat);
  const blocked = whyBlocked(s, c, sh, earliest, p, full);
  return { sh, earliest, provokes, spoils, blocked };
}

function whyBlocked(s: S, c: C, sh: Shape, earliest: Phase, p: ActParams, full: boolean): Blocked | null {
  const o = optsOf(s);
  const def = sh.def;
  const b = commonBlock(s, c, def.tags.includes('anytime'), def.id === 'speak', sh.cost);
  if (b) return b;
  if (def.requires && !has(c, def.requires)) return block('ILLEGAL_ACTION', 'requires', `${def.label} needs the ${def.requires} feature.`);
  const pb = phaseBlock(s, c, sh, earliest, p);
  if (pb) return pb;
  if (sh.cost > 0) {
    const ab = apBlock(s, c);
    if (ab) return ab;
  }
  if (sh.type === 'free' && !isReload(sh)) {
    if (c.data.freeThisPhase >= o.freeActionsPerPhase) {
      return block('BUDGET_EXHAUSTED', 'free-per-phase', `"you can perform no more than one free action per action phase" (limit ${o.freeActionsPerPhase}).`);
    }
    if (c.data.freeThisRound >= o.freeActionsPerRound) {
      return block('BUDGET_EXHAUSTED', 'free-per-round', `"a limit of six such actions a round is logical" (limit ${o.freeActionsPerRound}).`);
    }
  }
  const fr = c.data.fullRoundThisRound ?? fullRoundInProgress(c)?.action ?? null;
  if (sh.type === 'full-round' && c.data.simpleThisRound > 0) {
    return block('ILLEGAL_ACTION', 'full-round-alone', `A full-round action "can't be combined with attack actions or any other simple action" and ${c.name} already took a simple action this round.`);
  }
  if (sh.type === 'simple' && fr) {
    return block('ILLEGAL_ACTION', 'full-round-alone', `${c.name} is taking a full-round action (${fr}), which "can't be combined with attack actions or any other simple action".`);
  }
  if (sh.subtypes.includes('attack') && s.effects.some((e) => e.targetId === c.id && e.data?.['noAttacks'])) {
    return block('ILLEGAL_ACTION', 'total-defense', `Under total defense "you can't take actions with the attack subtype" until the start of your next round of actions.`);
  }
  const same = c.data.inProgress.find((r) => r.action === def.id);
  if (same && sh.cost > 0) return block('ILLEGAL_ACTION', 'advanced-in-progress', `${def.label} is already in progress: continue it instead.`);

  switch (def.id) {
    case 'five-foot-step': {
      const frDef = fr ? actionDef(fr) : undefined;
      if (!frDef) return block('ILLEGAL_ACTION', 'full-round-step', 'A free 5-foot step comes only with a full-round action.');
      if (frDef.tags.includes('no-step')) return block('ILLEGAL_ACTION', 'full-round-step', `${frDef.label} allows no 5-foot step ("some full-round actions specify that a 5-foot step is not allowed").`);
      if (c.data.freeStepUsed) return block('ILLEGAL_ACTION', 'full-round-step', 'The free 5-foot step was already taken this round.');
      break;
    }
    case 'cast-defensively':
      if (!c.data.inProgress.some((r) => actionDef(r.action)?.tags.includes('spell') && !r.defensive && r.spent < r.cost)) {
        return block('ILLEGAL_ACTION', 'cast-defensively', '"When casting a spell, you can take a free action to do so defensively": no spell is being cast.');
      }
      break;
    case 'fight-defensively':
      if (c.data.apSpentThisRound > 0 || c.data.actedThisRound.length > 0) {
        return block('ILLEGAL_ACTION', 'fight-defensively', '"At the start of your round of actions, you can choose to fight defensively."');
      }
      break;
    case 'prepare-components':
      if (!c.data.inProgress.some((r) => actionDef(r.action)?.tags.includes('spell'))) {
        return block('ILLEGAL_ACTION', 'conjunction', '"While casting a spell, you prepare a material spell component": no spell is being cast ("you must take any requisite actions before you can take the free action").');
      }
      break;
    case 'ready-drop-shield':
      if (p.free && (c.stats.baseAttackBonus < 1 || !c.data.actedThisRound.includes('move'))) {
        return block('ILLEGAL_ACTION', 'conjunction', '"If you have a base attack bonus of +1 or higher, you can do either of these as a free action when you take the move simple action."');
      }
      break;
    case 'draw-nock':
      if (!c.stats.weapons.some((w) => w.kind === 'bow')) return block('ILLEGAL_ACTION', 'draw-nock', 'No bow to nock an arrow to.');
      break;
    case 'load-light-crossbow':
    case 'load-heavy-crossbow':
      if (!c.stats.weapons.some((w) => w.kind === 'crossbow' && c.data.unloaded.includes(w.id))) return block('ILLEGAL_ACTION', 'load', 'No unloaded crossbow.');
      break;
    case 'load-firearm-one-handed':
    case 'load-firearm-two-handed':
      if (!c.stats.weapons.some((w) => w.kind === 'firearm' && c.data.unloaded.includes(w.id))) return block('ILLEGAL_ACTION', 'load', 'No unloaded firearm.');
      break;
    case 'escape-grapple':
    case 'continue-grapple':
      if (!hasCond(s, c.id, 'grappled')) return block('ILLEGAL_ACTION', 'grapple', `${c.name} is not grappling.`);
      break;
    case 'end-grapple':
      if (!s.effects.some((e) => e.targetId === c.id && e.condition === 'grappled' && e.data?.['initiator'])) {
        return block('ILLEGAL_ACTION', 'grapple', `${c.name} did not initiate a grapple.`);
      }
      break;
    case 'stand-up':
      if (!hasCond(s, c.id, 'prone')) return block('ILLEGAL_ACTION', 'stand-up', `${c.name} is not prone.`);
      break;
    case 'drop-prone':
      if (hasCond(s, c.id, 'prone')) return block('ILLEGAL_ACTION', 'drop-prone', `${c.name} is already prone.`);
      break;
    case 'spell-combat':
      if (c.data.actedThisRound.includes('spell-combat')) return block('ILLEGAL_ACTION', 'spell-combat', '"can take this action only once per round".');
      if (c.data.actedThisRound.some((a) => a === 'cast-standard-spell' || a === 'cast-round-spell')) {
        return block('ILLEGAL_ACTION', 'spell-combat', '"You can\'t also take the following actions this round: cast a standard-action spell or cast a 1-round-action spell."');
      }
      break;
    case 'cast-standard-spell':
    case 'cast-round-spell':
      if (c.data.actedThisRound.includes('spell-combat')) {
        return block('ILLEGAL_ACTION', 'spell-combat', 'After spell combat "You can\'t also take ... cast a standard-action spell or cast a 1-round-action spell" this round.');
      }
      break;
    case 'natural-attacks':
      if (!c.stats.weapons.some((w) => w.category === 'natural')) return block('ILLEGAL_ACTION', 'natural-attacks', '"A creature that is using only its natural attacks" needs natural weapons.');
      break;
    case 'remove-dirty-trick': {
      const b = removeDirtyTrickBlock(s, c, p, full);
      if (b) return b;
      break;
    }
    case 'ready':
      if (c.data.ap < 2) return block('BUDGET_EXHAUSTED', 'ready', '"you must have enough AP left to complete the action you ready".');
      break;
  }
  if (!full) return null;
  return paramBlock(s, c, sh, p);
}

function paramBlock(s: S, c: C, sh: Shape, p: ActParams): Blocked | null {
  const def = sh.def;
  const pos = c.position as Sq | null;
  const speedSquares = Math.floor(c.stats.speed / 5);
  let target: C | undefined;
  if (def.tags.includes('target') && def.id !== 'aid-another') {
    if (!p.targetId) return block('INVALID_COMMAND', 'target', `${def.label} needs a target (targetId).`);
  }
  if (p.targetId) {
    target = s.combatants[p.targetId];
    if (!target) return block('UNKNOWN_TARGET', 'target', `No combatant "${p.targetId}".`);
    if (target.id === c.id && def.id !== 'remove-dirty-trick') return block('ILLEGAL_ACTION', 'target', 'You cannot target yourself with this action.');
    const needsDown = def.id === 'coup-de-grace' || def.id === 'administer-potion';
    if (def.id === 'coup-de-grace' && !(target.data.hp <= 0 || HELPLESS.some((h) => hasCond(s, target!.id, h)))) {
      return block('ILLEGAL_ACTION', 'coup-de-grace', `"a helpless foe": ${target.name} is not helpless.`);
    }
    if (!needsDown && def.id !== 'first-aid' && !alive(target)) return block('ILLEGAL_ACTION', 'target', `${target.name} is down.`);
  }
  const weaponed = def.tags.includes('weapon') || def.tags.includes('maneuver') || def.id === 'coup-de-grace';
  const w = def.tags.includes('weapon') || def.tags.includes('natural') ? weaponOf(c, p.weaponId, def.tags.includes('natural')) : undefined;
  if (p.weaponId && !c.stats.weapons.some((x) => x.id === p.weaponId)) return block('INVALID_COMMAND', 'weapon', `No weapon "${p.weaponId}".`);
  if (w && (w.kind === 'crossbow' || w.kind === 'firearm') && c.data.unloaded.includes(w.id) && def.tags.includes('weapon')) {
    return block('ILLEGAL_ACTION', 'load', `${w.name} is not loaded.`);
  }
  if (weaponed && target && !(w && isRanged(w) && def.tags.includes('weapon'))) {
    const tpos = target.position as Sq | null;
    const reach = def.id === 'steal' ? c.stats.reach : reachOf(c);
    if (!pos || !tpos || chebyshev(pos, tpos) > Math.max(1, reach)) {
      if (def.id !== 'charge' && def.id !== 'overrun') return block('ILLEGAL_ACTION', 'reach', `${target.name} is not within ${c.name}'s melee reach.`);
    }
  }
  if (def.tags.includes('path')) {
    if (!p.path) return block('INVALID_COMMAND', 'movement', `${def.label} needs a path of squares.`);
    const max = def.id === 'charge' ? 2 * speedSquares : def.id === 'run' ? 4 * speedSquares : def.id === 'step' || def.id === 'five-foot-step' ? 1 : speedSquares;
    const pb = checkPath(s, c, p.path, max, { straight: def.id === 'charge' || def.id === 'run', clear: def.id === 'charge', passThrough: def.id === 'overrun' ? p.targetId : undefined });
    if (pb) return pb;
    if (def.id === 'charge' && target) {
      const end = p.path[p.path.length - 1]!;
      if (!target.position || chebyshev(end, target.position as Sq) > Math.max(1, reachOf(c))) {
        return block('ILLEGAL_ACTION', 'charge', '"ending the move in the closest space from which you can attack that foe": the path does not end within reach.');
      }
    }
  }
  if (def.id === 'ready') {
    if (!p.readied || !p.trigger) return block('INVALID_COMMAND', 'ready', '"You must designate a definite trigger": give `readied` and `trigger`.');
    const rd = actionDef(p.readied.action);
    if (!rd || (rd.type !== 'simple' && rd.type !== 'advanced') || rd.id === 'ready') {
      return block('ILLEGAL_ACTION', 'ready', '"You ready a single simple or advanced action".');
    }
    const rsh = shapeOf(s, c, rd, { targetId: p.readied.targetId, weaponId: p.readied.weaponId });
    if (c.data.ap - 1 < rsh.cost) {
      return block('BUDGET_EXHAUSTED', 'ready', `"you must have enough AP left to complete the action you ready": ${rd.label} needs ${rsh.cost} AP after readying.`);
    }
  }
  if (def.id === 'aid-another' && p.aids && !actionDef(p.aids)) return block('INVALID_COMMAND', 'aid-another', `Unknown action "${p.aids}".`);
  return null;
}

export const phaseName = (i: number): Phase => PHASES[Math.max(0, Math.min(PHASES.length - 1, i))]!;

export function freeBudget(s: S, c: C): Blocked | null {
  const o = optsOf(s);
  if (c.data.freeThisPhase >= o.freeActionsPerPhase) return block('BUDGET_EXHAUSTED', 'free-per-phase', `"no more than one free action per action phase" (limit ${o.freeActionsPerPhase}).`);
  if (c.data.freeThisRound >= o.freeActionsPerRound) return block('BUDGET_EXHAUSTED', 'free-per-round', `"a limit of six such actions a round" (limit ${o.freeActionsPerRound}).`);
  return null;
}

export function continueBlock(s: S, c: C, rec: InProgress | undefined): Blocked | null {
  const b = commonBlock(s, c, false, false, 1);
  if (b) return b;
  if (!rec) return block('ILLEGAL_ACTION', 'advanced', `${c.name} has no advanced action in progress.`);
  const def = actionDef(rec.action)!;
  const sh = { ...shapeOf(s, c, def, rec.params), subtypes: progressSubtypes(s, c, rec) };
  const earliest = earliestPhase(s, c, sh, rec.params);
  if (s.rs.phaseIdx < phaseIndex(earliest)) return block('WRONG_PHASE', 'action-phases', `${def.label} may be continued from the ${earliest} phase on.`);
  if (rec.lastRound === s.rs.round && rec.lastPhase === s.rs.phaseIdx) {
    return block('ILLEGAL_ACTION', 'advanced-one-ap-a-phase', '"When you declare an advanced action, you spend 1 AP immediately. During the next action phase, you may spend another AP".');
  }
  if (sh.subtypes.includes('attack') && s.effects.some((e) => e.targetId === c.id && e.data?.['noAttacks'])) {
    return block('ILLEGAL_ACTION', 'total-defense', 'Under total defense "you can\'t take actions with the attack subtype".');
  }
  return apBlock(s, c);
}
