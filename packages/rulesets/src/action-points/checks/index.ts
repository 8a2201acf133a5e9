import { ruleError, type EngineError } from '@fray/engine';
import { RULE, actionDef, type ActionDef } from '../catalogue/index.js';
import { PHASES, phaseIndex, type Phase } from '../mechanics/phases.js';
import { keyBefore } from '../mechanics/order.js';
import {
  baseSpeedOf,
  earliestPhase,
  isRanged,
  isReload,
  nockedThisPhase,
  progressSubtypes,
  shapeOf,
  weaponOf,
  weaponSpeedOf,
  type Shape,
} from '../mechanics/shape.js';
import { provocation } from '../mechanics/threat.js';
import {
  alive,
  consecutiveInProgress,
  initKey,
  noAttacks,
  optsOf,
  readiedThisRound,
  type ActParams,
  type C,
  type InProgress,
  type S,
} from '../state.js';
import { actionBlock } from './actions.js';
import { paramBlock } from './params.js';

/**
 * Every "why not" of taking or continuing an action: pure functions of the state that answer null
 * (allowed) or the refusal naming the most specific rule. The commands `ensure` them; `legal.ts`
 * shows the same answers as `blocked`.
 */

/** Why it is not `c`'s initiative: the rule that ended its turn (AP spent, a delay) or the order itself. */
export function checkInitiative(s: S, c: C): EngineError | null {
  if (s.clock.current === c.id) return null;
  if (c.data.ap < 1) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.actionPoints,
      `${c.name} has spent all its AP this round, so its turns in this round are over ("the next phase begins until each participant has used their allotment of action points").`,
    );
  }
  if (c.data.delayUntil > s.rs.phaseIdx) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.delay,
      `${c.name} delayed until the ${PHASES[c.data.delayUntil]} phase ("it may perform another action now or delay until the next phase").`,
    );
  }
  const cur = s.clock.current ? s.combatants[s.clock.current] : undefined;
  if (cur && s.rs.cursor && keyBefore(initKey(c), s.rs.cursor)) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.initiativeOrder,
      `${c.name}'s place in the ${PHASES[s.rs.phaseIdx]} phase has passed; it is ${cur.name}'s initiative ("Combatants act in initiative order (highest to lowest) during each phase").`,
    );
  }
  return ruleError(
    'NOT_YOUR_TURN',
    RULE.initiativeOrder,
    `Not ${c.name}'s initiative: "Combatants act in initiative order (highest to lowest) during each phase".`,
  );
}

/** Why `c` cannot act at all now: down, or unaware in the surprise round. */
export function checkCanAct(s: S, c: C): EngineError | null {
  if (!alive(c)) return ruleError('ILLEGAL_ACTION', RULE.down, `${c.name} is down and cannot act.`);
  if (s.rs.surprise && !c.data.aware) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.surpriseRound,
      `${c.name} is unaware: "only those creatures [that are aware] may act during the first round".`,
    );
  }
  return null;
}

/** Checks common to every action spent on one's own initiative (taking or continuing). */
function checkCommon(s: S, c: C, anytime: boolean, speak = false, apCost = 0): EngineError | null {
  const a = checkCanAct(s, c);
  if (a) return a;
  if (!speak && readiedThisRound(s, c)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.readyForfeits,
      `${c.name} readied an action: "Once you ready an action, you forfeit all other actions this round."`,
    );
  }
  if (!speak && c.data.stopped)
    return ruleError('ILLEGAL_ACTION', RULE.stopped, `${c.name} chose to make no further expenditures of AP this round.`);
  if (apCost > 0 && c.data.ap < 1) return checkAp(s, c);
  return anytime ? null : checkInitiative(s, c);
}

/** Whether `c` has an AP to spend in this phase. */
function checkAp(s: S, c: C): EngineError | null {
  const o = optsOf(s);
  if (c.data.ap < 1) {
    return s.rs.surprise
      ? ruleError(
          'BUDGET_EXHAUSTED',
          RULE.actionPoints,
          `${c.name} has no AP left: "Creatures are limited to using ${o.surpriseAp} action points during a surprise round."`,
        )
      : ruleError(
          'BUDGET_EXHAUSTED',
          RULE.actionPoints,
          `${c.name} has no AP left: "Creatures begin each combat round with ${o.apPerRound} AP"; they do not carry over.`,
        );
  }
  if (c.data.apThisPhase >= o.apPerPhase) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.oneApAPhase,
      `${c.name} already spent ${o.apPerPhase} AP this phase: an action takes a phase per AP ("each phase ... approximately 1 second").`,
    );
  }
  return null;
}

/** Whether a free action fits this phase's and this round's limits. */
export function checkFreeBudget(s: S, c: C): EngineError | null {
  const o = optsOf(s);
  if (c.data.freeThisPhase >= o.freeActionsPerPhase) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.freePerPhase,
      `"you can perform no more than one free action per action phase" (limit ${o.freeActionsPerPhase}).`,
    );
  }
  if (c.data.freeThisRound >= o.freeActionsPerRound) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.freePerRound,
      `"a limit of six such actions a round is logical" (limit ${o.freeActionsPerRound}).`,
    );
  }
  return null;
}

function checkPhase(s: S, c: C, sh: Shape, earliest: Phase, p: ActParams): EngineError | null {
  if (s.rs.phaseIdx >= phaseIndex(earliest)) return null;
  if (sh.subtypes.includes('attack')) {
    const w = weaponOf(c, p.weaponId, sh.tags.includes('natural'));
    if (w?.kind === 'bow' && sh.tags.includes('weapon') && nockedThisPhase(s, c)) {
      return ruleError(
        'WRONG_PHASE',
        RULE.nockedThisPhase,
        `The arrow on ${w.name} was nocked in this ${PHASES[s.rs.phaseIdx]} phase: only "Readied missiles (arrows already nocked and drawn)" fire now; "an arrow that was nocked and drawn in the second action phase as a free action may be released" from the thrown phase on.`,
      );
    }
    const detail =
      w && !isRanged(w)
        ? `base action speed ${baseSpeedOf(s, c)}, ${w.name} speed ${weaponSpeedOf(s, w)}`
        : `base action speed ${baseSpeedOf(s, c)}`;
    return ruleError(
      'WRONG_PHASE',
      RULE.actionSpeed,
      `${sh.def.label} may begin no earlier than the ${earliest} phase (${detail}): "the earliest action phase in which the action may begin is the one associated with the character's base action speed or weapon speed, whichever is later".`,
    );
  }
  return ruleError(
    'WRONG_PHASE',
    RULE.actionPhases,
    `${sh.def.label} may be taken from the ${earliest} phase on ("these are the earliest phases of combat when such actions can be attempted").`,
  );
}

/**
 * The checks every action of one combatant shares on one state (`checkCommon` by its variant, and
 * `checkAp`), each asked once: `legalActions` evaluates the whole catalogue for one combatant.
 */
export interface SharedChecks {
  common(anytime: boolean, speak: boolean, apCost: number): EngineError | null;
  ap(): EngineError | null;
}

export function sharedChecks(s: S, c: C): SharedChecks {
  // answers once known, null included (`??=` would ask again): checkCommon by variant, then checkAp
  const common = new Map<number, EngineError | null>();
  let ap: EngineError | null | undefined;
  return {
    common(anytime, speak, apCost) {
      const k = (anytime ? 4 : 0) + (speak ? 2 : 0) + (apCost > 0 ? 1 : 0);
      const known = common.get(k);
      if (known !== undefined) return known;
      const answer = checkCommon(s, c, anytime, speak, apCost);
      common.set(k, answer);
      return answer;
    },
    ap: () => (ap === undefined ? (ap = checkAp(s, c)) : ap),
  };
}

/** An action as `c` would take it now: its shape, earliest phase, provocation, what it spoils, and why not. */
export interface Evaluation {
  sh: Shape;
  earliest: Phase;
  provokes: { from: string[]; reason: string } | null;
  /** the consecutive advanced action this would spoil */
  spoils: InProgress | null;
  blocked: EngineError | null;
}

/** Why `c` may not take `def` now (with `full`, the parameters are checked too; `shared`: answers already known on this state). */
export function evaluate(s: S, c: C, def: ActionDef, p: ActParams, full: boolean, threat?: C[], shared?: SharedChecks): Evaluation {
  const sh = shapeOf(s, c, def, p);
  const earliest = earliestPhase(s, c, sh, p);
  const cons = consecutiveInProgress(c);
  const spoils = sh.cost > 0 && cons ? cons : null;
  const provokes = provocation(s, c, sh, p, true, true, threat);
  const blocked = whyBlocked(s, c, sh, earliest, p, full, shared);
  return { sh, earliest, provokes, spoils, blocked };
}

function whyBlocked(
  s: S,
  c: C,
  sh: Shape,
  earliest: Phase,
  p: ActParams,
  full: boolean,
  shared: SharedChecks | undefined,
): EngineError | null {
  const def = sh.def;
  const anytime = def.tags.includes('anytime');
  const b = shared ? shared.common(anytime, def.id === 'speak', sh.cost) : checkCommon(s, c, anytime, def.id === 'speak', sh.cost);
  if (b) return b;
  if (def.requires && !c.stats.feats.includes(def.requires))
    return ruleError('ILLEGAL_ACTION', RULE.requires, `${def.label} needs the ${def.requires} feature.`);
  const pb = checkPhase(s, c, sh, earliest, p);
  if (pb) return pb;
  const ab = sh.cost > 0 ? (shared ? shared.ap() : checkAp(s, c)) : null;
  if (ab) return ab;
  const fb = sh.type === 'free' && !isReload(sh) ? checkFreeBudget(s, c) : null;
  if (fb) return fb;
  const ac = actionBlock(s, c, sh, p, full);
  if (ac) return ac;
  return full ? paramBlock(s, c, sh, p) : null;
}

/** Why `c` may not spend an AP on the advanced action `rec` now. */
export function checkContinue(s: S, c: C, rec: InProgress | undefined): EngineError | null {
  const b = checkCommon(s, c, false, false, 1);
  if (b) return b;
  if (!rec) return ruleError('ILLEGAL_ACTION', RULE.advanced, `${c.name} has no advanced action in progress.`);
  const def = actionDef(rec.action)!;
  const sh = { ...shapeOf(s, c, def, rec.params), subtypes: progressSubtypes(s, c, rec) };
  const earliest = earliestPhase(s, c, sh, rec.params);
  if (s.rs.phaseIdx < phaseIndex(earliest))
    return ruleError('WRONG_PHASE', RULE.actionPhases, `${def.label} may be continued from the ${earliest} phase on.`);
  if (rec.lastRound === s.rs.round && rec.lastPhase === s.rs.phaseIdx) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.advancedOneApAPhase,
      '"When you declare an advanced action, you spend 1 AP immediately. During the next action phase, you may spend another AP".',
    );
  }
  if (sh.subtypes.includes('attack') && noAttacks(s, c.id)) {
    return ruleError('ILLEGAL_ACTION', RULE.totalDefense, 'Under total defense "you can\'t take actions with the attack subtype".');
  }
  return checkAp(s, c);
}
