import { ruleError, type EngineError } from '@fray/engine';
import { RULE, actionDef } from '../catalogue/index.js';
import { reaches, dirtyTricksOn, removableFor, RULE_TEXT } from '../mechanics/dirty-trick.js';
import type { Shape } from '../mechanics/shape.js';
import { fullRoundInProgress, hasCond, noAttacks, type ActParams, type C, type S } from '../state.js';

/** The "why not" of single actions: what each one needs beyond AP and its phase. */

type ActionCheck = (s: S, c: C, p: ActParams, full: boolean, fr: string | null) => EngineError | null;

const fail = (rule: string, message: string): EngineError => ruleError('ILLEGAL_ACTION', rule, message);
const castingSpell = (c: C): boolean => c.data.inProgress.some((r) => actionDef(r.action)?.tags.includes('spell'));

/** "When taking a full-round action you may take a 5-foot step as a free action (for 0 AP) before, during, or after the action" */
function fiveFootStep(s: S, c: C, p: ActParams, full: boolean, fr: string | null): EngineError | null {
  const frDef = fr ? actionDef(fr) : undefined;
  if (!frDef) return fail(RULE.fullRoundStep, 'A free 5-foot step comes only with a full-round action.');
  if (frDef.tags.includes('no-step'))
    return fail(
      RULE.fullRoundStep,
      `${frDef.label} allows no 5-foot step ("some full-round actions specify that a 5-foot step is not allowed").`,
    );
  if (c.data.freeStepUsed) return fail(RULE.fullRoundStep, 'The free 5-foot step was already taken this round.');
  return null;
}

/** Dirty Trick: "The target or an ally adjacent to the target can remove the condition by spending 1 AP." */
function removeDirtyTrick(s: S, c: C, p: ActParams, full: boolean): EngineError | null {
  if (!full)
    return removableFor(s, c).length
      ? null
      : fail(RULE.removeDirtyTrick, `Neither ${c.name} nor an adjacent ally has a condition applied by a dirty trick.`);
  const t = p.targetId ? s.combatants[p.targetId] : c;
  if (!t) return ruleError('UNKNOWN_TARGET', RULE.target, `No combatant "${p.targetId}".`);
  if (t.id !== c.id && t.side !== c.side) return fail(RULE.removeDirtyTrick, `${t.name} is not an ally: "${RULE_TEXT}"`);
  if (!reaches(c, t)) return fail(RULE.removeDirtyTrick, `${t.name} is not adjacent to ${c.name}: "${RULE_TEXT}"`);
  const list = dirtyTricksOn(s, t.id);
  if (p.effectId ? !list.some((e) => e.id === p.effectId) : list.length === 0) {
    return fail(
      RULE.removeDirtyTrick,
      `${t.name} has no ${p.effectId ? `condition "${p.effectId}"` : 'condition'} applied by a dirty trick.`,
    );
  }
  return null;
}

function spellCombat(s: S, c: C): EngineError | null {
  if (c.data.actedThisRound.includes('spell-combat')) return fail(RULE.spellCombat, '"can take this action only once per round".');
  if (c.data.actedThisRound.some((a) => a === 'cast-standard-spell' || a === 'cast-round-spell')) {
    return fail(
      RULE.spellCombat,
      '"You can\'t also take the following actions this round: cast a standard-action spell or cast a 1-round-action spell."',
    );
  }
  return null;
}

const castAfterSpellCombat: ActionCheck = (s, c) =>
  c.data.actedThisRound.includes('spell-combat')
    ? fail(
        RULE.spellCombat,
        'After spell combat "You can\'t also take ... cast a standard-action spell or cast a 1-round-action spell" this round.',
      )
    : null;
const loadCrossbow: ActionCheck = (s, c) =>
  c.stats.weapons.some((w) => w.kind === 'crossbow' && c.data.unloaded.includes(w.id)) ? null : fail(RULE.load, 'No unloaded crossbow.');
const loadFirearm: ActionCheck = (s, c) =>
  c.stats.weapons.some((w) => w.kind === 'firearm' && c.data.unloaded.includes(w.id)) ? null : fail(RULE.load, 'No unloaded firearm.');
const grappling: ActionCheck = (s, c) => (hasCond(s, c.id, 'grappled') ? null : fail(RULE.grapple, `${c.name} is not grappling.`));

/** Per action id: what the action needs (a spell being cast, a bow, a grapple, ...). */
const ACTION_CHECKS = new Map<string, ActionCheck>([
  ['five-foot-step', fiveFootStep],
  [
    'cast-defensively',
    (s, c) =>
      c.data.inProgress.some((r) => actionDef(r.action)?.tags.includes('spell') && !r.defensive && r.spent < r.cost)
        ? null
        : fail(RULE.castDefensively, '"When casting a spell, you can take a free action to do so defensively": no spell is being cast.'),
  ],
  [
    'fight-defensively',
    (s, c) =>
      c.data.apSpentThisRound > 0 || c.data.actedThisRound.length > 0
        ? fail(RULE.fightDefensively, '"At the start of your round of actions, you can choose to fight defensively."')
        : null,
  ],
  [
    'prepare-components',
    (s, c) =>
      castingSpell(c)
        ? null
        : fail(
            RULE.conjunction,
            '"While casting a spell, you prepare a material spell component": no spell is being cast ("you must take any requisite actions before you can take the free action").',
          ),
  ],
  [
    'ready-drop-shield',
    (s, c, p) =>
      p.free && (c.stats.baseAttackBonus < 1 || !c.data.actedThisRound.includes('move'))
        ? fail(
            RULE.conjunction,
            '"If you have a base attack bonus of +1 or higher, you can do either of these as a free action when you take the move simple action."',
          )
        : null,
  ],
  ['draw-nock', (s, c) => (c.stats.weapons.some((w) => w.kind === 'bow') ? null : fail(RULE.drawNock, 'No bow to nock an arrow to.'))],
  ['load-light-crossbow', loadCrossbow],
  ['load-heavy-crossbow', loadCrossbow],
  ['load-firearm-one-handed', loadFirearm],
  ['load-firearm-two-handed', loadFirearm],
  ['escape-grapple', grappling],
  ['continue-grapple', grappling],
  [
    'end-grapple',
    (s, c) =>
      s.effects.some((e) => e.targetId === c.id && e.condition === 'grappled' && e.data?.['initiator'])
        ? null
        : fail(RULE.grapple, `${c.name} did not initiate a grapple.`),
  ],
  ['stand-up', (s, c) => (hasCond(s, c.id, 'prone') ? null : fail(RULE.standUp, `${c.name} is not prone.`))],
  ['drop-prone', (s, c) => (hasCond(s, c.id, 'prone') ? fail(RULE.dropProne, `${c.name} is already prone.`) : null)],
  ['spell-combat', spellCombat],
  ['cast-standard-spell', castAfterSpellCombat],
  ['cast-round-spell', castAfterSpellCombat],
  [
    'natural-attacks',
    (s, c) =>
      c.stats.weapons.some((w) => w.category === 'natural')
        ? null
        : fail(RULE.naturalAttacks, '"A creature that is using only its natural attacks" needs natural weapons.'),
  ],
  ['remove-dirty-trick', removeDirtyTrick],
  [
    'ready',
    (s, c) =>
      c.data.ap < 2 ? ruleError('BUDGET_EXHAUSTED', RULE.ready, '"you must have enough AP left to complete the action you ready".') : null,
  ],
]);

/** Why `c` may not take this action, beyond its AP and its phase (with `full`, its parameters too). */
export function actionBlock(s: S, c: C, sh: Shape, p: ActParams, full: boolean): EngineError | null {
  const def = sh.def;
  const fr = c.data.fullRoundThisRound ?? fullRoundInProgress(c)?.action ?? null;
  if (sh.type === 'full-round' && c.data.simpleThisRound > 0) {
    return fail(
      RULE.fullRoundAlone,
      `A full-round action "can't be combined with attack actions or any other simple action" and ${c.name} already took a simple action this round.`,
    );
  }
  if (sh.type === 'simple' && fr) {
    return fail(
      RULE.fullRoundAlone,
      `${c.name} is taking a full-round action (${fr}), which "can't be combined with attack actions or any other simple action".`,
    );
  }
  if (sh.subtypes.includes('attack') && noAttacks(s, c.id)) {
    return fail(
      RULE.totalDefense,
      `Under total defense "you can't take actions with the attack subtype" until the start of your next round of actions.`,
    );
  }
  const same = c.data.inProgress.find((r) => r.action === def.id);
  if (same && sh.cost > 0) return fail(RULE.advancedInProgress, `${def.label} is already in progress: continue it instead.`);
  const check = ACTION_CHECKS.get(def.id);
  return check ? check(s, c, p, full, fr) : null;
}
