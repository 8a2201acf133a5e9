import { chebyshev, ruleError, type EngineError, type Item } from '@fray/engine';
import { RULE } from '../catalogue/index.js';
import { combinablePowers, powerReachWhy } from '../mechanics/combat.js';
import type { Options } from '../options.js';
import { checkFree } from './turn.js';
import {
  combatant,
  freeHand,
  groundItemNear,
  heldItems,
  isIncapacitated,
  isTwoHanded,
  posOf,
  type C,
  type LastCheck,
  type Power,
  type State,
} from '../state/index.js';

/** Why the other actions may not happen: delay, powers, Destiny, items, commands, influence. */

/** DELAY: "You cannot delay if you have already taken an action on your turn, or if you are unable to take actions". */
export function checkDelay(s: State, c: C): EngineError | null {
  if (s.clock.current !== c.id) return ruleError('NOT_YOUR_TURN', RULE.delay, `Only the acting character can delay.`);
  if (c.data.acted)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.delay,
      'You cannot delay if you have already taken an action on your turn. "You must delay your entire turn."',
    );
  if (isIncapacitated(s, c)) return ruleError('ILLEGAL_ACTION', RULE.delay, 'You cannot delay if you are unable to take actions.');
  return null;
}

/** "At any point after any other character in the conflict has acted, you can choose to take your turn". */
export function checkActNow(s: State, c: C): EngineError | null {
  if (!c.data.delaying) return ruleError('ILLEGAL_ACTION', RULE.delay, `${c.name} is not delaying.`);
  const cur = s.clock.current;
  if (cur !== null && combatant(s, cur).data.acted) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.delay,
      `${combatant(s, cur).name} is in the middle of a turn: take your delayed turn after it ends.`,
    );
  }
  if (s.rs.turnSeq <= c.data.delayedSeq + 1 && cur !== null) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.delay,
      'You may take your turn "at any point after any other character in the conflict has acted": no one has acted since you delayed.',
    );
  }
  return null;
}

// ---------------------------------------------------------------- powers

export function checkPower(c: C, powerId: string): EngineError | null {
  return c.stats.powers.some((x) => x.id === powerId)
    ? null
    : ruleError('INVALID_COMMAND', RULE.powers, `${c.name} has no power "${powerId}".`);
}

/** "you can only use one Area Power per round, regardless of action type used." */
export function checkAreaPower(s: State, c: C, p: Power): EngineError | null {
  if (!p.area || !s.rs.areaPowerUsed.includes(c.id)) return null;
  return ruleError('ILLEGAL_ACTION', RULE.oneAreaPower, '"you can only use one Area Power per round, regardless of action type used."');
}

/** One target unless an area power; each within the power's reach or range. */
export function checkPowerTargets(o: Options, c: C, p: Power, targets: C[]): EngineError | null {
  if (!p.area && targets.length > 1) return ruleError('ILLEGAL_ACTION', RULE.powers, `${p.name} is not an area power: one target.`);
  for (const x of targets) {
    const why = powerReachWhy(o, c, p, x);
    if (why) return ruleError('ILLEGAL_ACTION', RULE.power[p.range], `${x.name}: ${why}.`);
  }
  return null;
}

/** "Switching between Alternate Effects of a power requires a quick action": to one of its alternates. */
export function checkAlternate(p: Power, alternate: string): EngineError | null {
  if (p.alternates.includes(alternate) || alternate === p.name) return null;
  return ruleError('ILLEGAL_ACTION', RULE.switchAlternate, `${p.name} has no alternate effect "${alternate}".`);
}

/** COMBINE works "as long as you have a power with the same effect". */
export function checkCombine(helper: C, ally: C, powerId?: string): EngineError | null {
  if (powerId && !ally.stats.powers.some((p) => p.id === powerId))
    return ruleError('INVALID_COMMAND', RULE.assistCombine, `${ally.name} has no power "${powerId}".`);
  if (helper.stats.powers.length === 0)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.assistCombine,
      `${helper.name} has no powers: COMBINE works "as long as you have a power with the same effect".`,
    );
  if (combinablePowers(helper, ally, powerId).length === 0) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.assistCombine,
      `${helper.name} has no power with the same effect as ${powerId ? `${ally.name}'s ${powerId}` : `any of ${ally.name}'s powers`}: COMBINE works "as long as you have a power with the same effect".`,
    );
  }
  return null;
}

// ---------------------------------------------------------------- Destiny, Fate, Corruption

type Pool = 'destiny' | 'fate' | 'corruption';

/** SPEND DESTINY, FATE, OR CORRUPTION: a point in the pool, and what each use needs. */
export function checkSpend(s: State, c: C, pool: Pool, use: string, benefit: string | undefined): EngineError | null {
  if (c.data[pool] <= 0) return ruleError('BUDGET_EXHAUSTED', RULE.destiny, `${c.name} has no ${pool} to spend.`);
  return checkSpendWhileDown(s, c, use) ?? checkSpendUse(s, s.rs.lastCheck[c.id], use, benefit);
}

/** "If unconscious, or unable to take free actions for some other reason, you can still spend ... to attempt to use the Recover action": only that. */
export function checkSpendWhileDown(s: State, c: C, use: string): EngineError | null {
  if (use === 'recover' || !isIncapacitated(s, c)) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.destinyUnconscious,
    `${c.name} cannot take free actions: "If unconscious ... you can still spend Destiny, Fate, or Corruption to attempt to use the Recover action, but must roll a 6" (only Recover).`,
  );
}

function checkSpendUse(s: State, last: LastCheck | undefined, use: string, benefit: string | undefined): EngineError | null {
  if (use === 'coup' && !(last && last.success))
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.destinyCoup,
      '"COUP: ... increase the Degree of success on a successful check": your last check did not succeed.',
    );
  if (use === 'improve-roll' && !last)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.destinyImproveRoll,
      'No check of yours to improve ("You cannot spend ... on die rolls made by the GM or other players").',
    );
  if (use === 'stunt' && !(last && last.success && last.attack && s.combatants[last.attack.targetId])) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.destinyStunt,
      '"STUNT: ... immediately add a Stunt to a successful Attack": your last check was not a successful attack.',
    );
  }
  if (use === 'stunt' && !benefit) return ruleError('INVALID_COMMAND', RULE.destinyStunt, 'Choose the stunt benefit.');
  return null;
}

/** SURGE: what each benefit needs named. */
export function checkSurge(
  s: State,
  c: C,
  cmd: { benefit: string; powerId?: string; alternate?: string; trait?: string; effectId?: string },
): EngineError | null {
  if (cmd.benefit === 'alternate-effect' && !(cmd.powerId && cmd.alternate))
    return ruleError('INVALID_COMMAND', RULE.surge, 'Name the power and the alternate effect.');
  if (cmd.benefit === 'boost' && !cmd.trait) return ruleError('INVALID_COMMAND', RULE.surge, 'Name the trait to boost.');
  if (cmd.benefit === 'resistance' && !s.effects.some((e) => e.id === cmd.effectId && e.targetId === c.id))
    return ruleError('INVALID_COMMAND', RULE.surge, 'Name an ongoing effect on you.');
  return null;
}

/** RECOVER "resist": an ongoing effect on you. */
export function checkRecover(s: State, c: C, choice: string, effectId: string | undefined): EngineError | null {
  if (choice !== 'resist' || s.effects.some((e) => e.id === effectId && e.targetId === c.id)) return null;
  return ruleError('INVALID_COMMAND', RULE.recover, 'Name an ongoing effect on you to resist.');
}

// ---------------------------------------------------------------- items

export function checkOwnItem(c: C, itemId: string): EngineError | null {
  return c.items.some((i) => i.id === itemId) ? null : ruleError('INVALID_COMMAND', RULE.items, `${c.name} has no item "${itemId}".`);
}

/** "Drawing and putting weapons away": draw what is carried into a free hand, put away what is in hand. */
export function checkDraw(c: C, it: Item, mode: 'draw' | 'sheathe', hand: Item['location'] | null, rule: string): EngineError | null {
  if (mode === 'draw') {
    if (it.location !== 'carried') return ruleError('ILLEGAL_ACTION', rule, `${it.name} is not carried.`);
    return hand ? null : ruleError('ILLEGAL_ACTION', rule, `${c.name} has no free hand for ${it.name}.`);
  }
  return it.location === 'carried' || it.location === 'ground' ? ruleError('ILLEGAL_ACTION', rule, `${it.name} is not in hand.`) : null;
}

/** "Picking up ... an object": on the ground within a step, and a free hand for it. */
export function checkPickUp(s: State, c: C, itemId: string, rule: string): EngineError | null {
  const found = groundItemNear(s, c, itemId);
  if (!found) return ruleError('ILLEGAL_ACTION', rule, `No item "${itemId}" on the ground within reach.`);
  return freeHand(c, isTwoHanded(found.item)) ? null : ruleError('ILLEGAL_ACTION', rule, `${c.name} has no free hand.`);
}

/** RETRIEVE: an own item, or one on the ground within reach. */
export function checkRetrievable(s: State, c: C, itemId: string): EngineError | null {
  if (c.items.some((i) => i.id === itemId) || groundItemNear(s, c, itemId)) return null;
  return ruleError('INVALID_COMMAND', RULE.retrieve, `No item "${itemId}" within reach.`);
}

/** RETRIEVE into a hand: a stored item and a free hand. */
export function checkRetrieveToHand(c: C, it: Item): EngineError | null {
  if (it.location === 'carried' && freeHand(c, isTwoHanded(it))) return null;
  return ruleError('ILLEGAL_ACTION', RULE.retrieve, `${it.name} cannot be taken in hand (no free hand, or not stored).`);
}

/** "dropping a held item" */
export function checkHeld(c: C, it: Item): EngineError | null {
  return heldItems(c).some((h) => h.id === it.id)
    ? null
    : ruleError('ILLEGAL_ACTION', RULE.drop, '"dropping a held item": it is not in hand.');
}

/** "loading a complex weapon" */
export function checkComplex(it: Item): EngineError | null {
  return (it.tags ?? []).includes('complex') ? null : ruleError('ILLEGAL_ACTION', RULE.load, `${it.name} is not a complex weapon.`);
}

// ---------------------------------------------------------------- others

/** COMMAND: "a character or creature under your control". */
export function checkMinion(c: C, m: C): EngineError | null {
  return m.stats.commander === c.id
    ? null
    : ruleError(
        'ILLEGAL_ACTION',
        RULE.command,
        `"a character or creature under your control": ${m.name} is not under ${c.name}'s control.`,
      );
}

/** INFLUENCE: within conversation range. */
export function checkConversation(o: Options, c: C, t: C): EngineError | null {
  const pc = posOf(c);
  const pt = posOf(t);
  return pc && pt && chebyshev(pc, pt) <= o.conversationRange
    ? null
    : ruleError('ILLEGAL_ACTION', RULE.influence, `${t.name} is out of conversation range.`);
}

/** ASSIST a skill check: name the skill. */
export function checkAssistSkill(skill: string | undefined): EngineError | null {
  return skill ? null : ruleError('INVALID_COMMAND', RULE.assist, 'Name the skill your assistance adds to.');
}

/** TALK: "speaking is a free action that you can perform even when it isn’t your turn", but not while incapacitated. */
export function checkTalk(s: State, c: C): EngineError | null {
  if (isIncapacitated(s, c)) return ruleError('ILLEGAL_ACTION', RULE.incapacitated, `${c.name} is incapacitated and cannot speak.`);
  return checkFree(s, c);
}

/** GAMBIT: "Success grants you or an ally"; moving needs the Disadvantage chosen. */
export function checkGambit(c: C, beneficiary: C | null, moving: boolean, movement: string): EngineError | null {
  if (beneficiary && beneficiary.side !== c.side) return ruleError('ILLEGAL_ACTION', RULE.gambit, '"Success grants you or an ally".');
  if (moving && movement === 'none')
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.gambit,
      'To move during a gambit take -1 (speed -1 rank) or -2 (normal speed) Disadvantage: set movement.',
    );
  return null;
}
