import { dcEasy, degreesOf, formula, ladder, signedDegrees } from '../../mechanics/dice.js';
import { patchData, type ArCtx, type ArEvent } from '../../events.js';
import { boost, effectsOn, skillOf, sumN, type C, type LastCheck } from '../../state/index.js';

/** The d20 checks: rolled through ctx.roll, recorded as `action-round.check` events. */

const CHECK = 'action-round.check';

export interface CheckInput {
  who: string;
  bonus: number;
  /** net Advantage (positive) / Disadvantage (negative) ranks */
  advantage?: number;
  dc: number;
  purpose: string;
  kind: string;
  /** Raise: "+5 DC for +2 degrees of success or +1 degree of failure", at most two */
  raises?: number;
  /** roll the Fortune Die too (Defend) */
  fortune?: boolean;
  targetId?: string | null;
  attack?: LastCheck['attack'];
  gmOnly?: boolean;
  /** do not record as the combatant's last check (resistance checks of others) */
  record?: boolean;
}

export interface CheckResult {
  total: number;
  dc: number;
  success: boolean;
  degrees: number;
  natural: number;
  rollId: string;
  fortune: number | null;
}

/** Roll a d20 check through ctx.roll and record it as an event. */
export function check(ctx: ArCtx, input: CheckInput): CheckResult {
  const o = ctx.options;
  const mod = input.bonus + (input.advantage ?? 0);
  const roll = ctx.roll(formula('d20', mod), input.purpose, { combatantId: input.who, gmOnly: input.gmOnly });
  const natural = roll.faces[0]?.value ?? 0;
  let total = roll.total;
  let fortune: number | null = null;
  if (input.fortune) {
    fortune = ctx.roll(`1${o.fortuneDie}`, `Fortune Die (${input.purpose})`, { combatantId: input.who, gmOnly: input.gmOnly }).total;
    total += fortune;
  }
  const raises = input.raises ?? 0;
  const dc = input.dc + 5 * raises;
  const base = degreesOf(total, dc, o.degreeStep);
  const success = base.success;
  let degrees = base.degrees;
  if (success && natural === 20 && o.natural20 === 'extra-degree') degrees += 1;
  if (raises) degrees += success ? 2 * raises : raises;
  record(ctx, input, { total, dc, success, degrees, natural, rollId: roll.id, fortune });
  return { total, dc, success, degrees, natural, rollId: roll.id, fortune };
}

function record(ctx: ArCtx, input: CheckInput, r: CheckResult): void {
  const last: LastCheck = {
    id: r.rollId,
    combatantId: input.who,
    purpose: input.purpose,
    kind: input.kind,
    total: r.total,
    dc: r.dc,
    success: r.success,
    degrees: r.degrees,
    natural: r.natural,
    targetId: input.targetId ?? null,
    attack: input.attack ?? null,
    seq: ctx.state.rs.turnSeq,
  };
  // Built as one literal (`type` first), `gmOnly` and `lastCheck` added only when they have a value:
  // no spreads, and no `gmOnly: undefined` for the engine to delete (a deleted key turns the event into
  // a slow dictionary object that every later read pays for).
  const event: ArEvent = {
    type: CHECK,
    combatantId: input.who,
    purpose: input.purpose,
    kind: input.kind,
    rollId: r.rollId,
    total: r.total,
    dc: r.dc,
    success: r.success,
    degrees: r.degrees,
    fortune: r.fortune,
    targetId: input.targetId ?? null,
  };
  if (input.gmOnly) event.gmOnly = true;
  if (input.record !== false) event.lastCheck = { [input.who]: last };
  ctx.emit(event);
}

export interface OpposedSide {
  who: string;
  bonus: number;
  advantage?: number;
  purpose: string;
}

/** An opposed check: both roll d20 + bonus; the active side succeeds by beating the other's total. */
export function opposed(
  ctx: ArCtx,
  active: OpposedSide,
  passive: OpposedSide,
  kind: string,
  extra: Partial<CheckInput> = {},
): CheckResult & { opposing: number } {
  const o = ctx.options;
  const pmod = passive.bonus + (passive.advantage ?? 0);
  const proll = ctx.roll(formula('d20', pmod), passive.purpose, { combatantId: passive.who });
  const amod = active.bonus + (active.advantage ?? 0);
  const aroll = ctx.roll(formula('d20', amod), active.purpose, { combatantId: active.who });
  const raises = extra.raises ?? 0;
  const dc = proll.total + 5 * raises;
  const natural = aroll.faces[0]?.value ?? 0;
  let success: boolean;
  let degrees: number;
  if (aroll.total === dc) {
    const activeWins = o.opposedTies === 'higher-bonus' && amod > pmod;
    success = activeWins;
    degrees = 1;
  } else {
    ({ success, degrees } = degreesOf(aroll.total, aroll.total > dc ? dc + 1 : dc, o.degreeStep));
  }
  if (success && natural === 20 && o.natural20 === 'extra-degree') degrees += 1;
  if (raises) degrees += success ? 2 * raises : raises;
  const r: CheckResult = { total: aroll.total, dc, success, degrees, natural, rollId: aroll.id, fortune: null };
  record(ctx, { who: active.who, bonus: active.bonus, dc, purpose: active.purpose, kind, ...extra }, r);
  return { ...r, opposing: proll.total };
}

// ---------------------------------------------------------------- skill checks

type SkillOpts = { hunch?: boolean; raises?: number; advantage?: number; targetId?: string | null };

/** Advantage a skill check of `c` gets: Hunch, assistance received (used up), gambits. */
function skillAdvantage(ctx: ArCtx, c: C, skill: string, opts: SkillOpts): number {
  let adv = opts.advantage ?? 0;
  if (opts.hunch) {
    // "attempt an Intuition check vs an Easy DC (DC 10). Success grants you +1 Advantage per degree of success on the Skill check"
    const h = check(ctx, {
      who: c.id,
      bonus: skillOf(c, 'intuition'),
      dc: dcEasy(),
      purpose: `hunch before ${skill}`,
      kind: 'hunch',
      record: false,
    });
    adv += ladder(signedDegrees(h));
  }
  if (c.data.assistDegrees !== 0) {
    adv += ladder(c.data.assistDegrees);
    patchData(ctx, 'assistance-used', c.id, { assistDegrees: 0 }, { advantage: ladder(c.data.assistDegrees) });
  }
  return adv + sumN(effectsOn(ctx.state, c.id, 'advantage'));
}

/** A skill check: assistance received, gambit advantage, Hunch, Raise, boost. */
export function skillCheck(ctx: ArCtx, c: C, skill: string, dc: number, purpose: string, opts: SkillOpts = {}): CheckResult {
  const adv = skillAdvantage(ctx, c, skill, opts);
  return check(ctx, {
    who: c.id,
    bonus: skillOf(c, skill) + boost(ctx.state, c.id, skill.toLowerCase()),
    advantage: adv,
    dc,
    purpose,
    kind: 'skill',
    raises: opts.raises,
    targetId: opts.targetId ?? null,
  });
}

/** A skill check opposed by the target's skill (rolled, or passive: 10 + the skill). */
export function opposedSkill(
  ctx: ArCtx,
  c: C,
  skill: string,
  t: C,
  tSkill: string,
  purpose: string,
  opts: SkillOpts & { passive?: boolean } = {},
): CheckResult {
  const adv = skillAdvantage(ctx, c, skill, { hunch: opts.hunch });
  const bonus = skillOf(c, skill) + boost(ctx.state, c.id, skill.toLowerCase());
  if (opts.passive) {
    // "opposed by the target’s passive Deception check": 10 + the skill
    return check(ctx, {
      who: c.id,
      bonus,
      advantage: adv,
      dc: 10 + skillOf(t, tSkill),
      purpose,
      kind: 'skill',
      raises: opts.raises,
      targetId: t.id,
    });
  }
  return opposed(
    ctx,
    { who: c.id, bonus, advantage: adv, purpose },
    { who: t.id, bonus: skillOf(t, tSkill) + boost(ctx.state, t.id, tSkill), purpose: `${t.name}: ${tSkill} (opposed)` },
    'skill',
    { raises: opts.raises, targetId: t.id },
  );
}
