import type { Ctx } from '@fray/engine';
import type { Options } from './options.js';
import { type LastCheck, type RS, type State } from './state.js';

/** The handler context, with the state typed as this ruleset's. */
export type ArCtx = Ctx<RS, Options> & { readonly state: State };

/** DCs from the Power Level: "Easy DC (DC 10)", "Moderate DC (DC 10 + Power Level)", "Hard DC (DC 10 + Power level x 2)". */
export const dcEasy = (): number => 10;
export const dcModerate = (o: Options): number => 10 + o.powerLevel;
export const dcHard = (o: Options): number => 10 + 2 * o.powerLevel;

/** Degrees of success / failure: one at the DC, one more per `degreeStep` beyond it. */
export function degreesOf(total: number, dc: number, step: number): { success: boolean; degrees: number } {
  if (total >= dc) return { success: true, degrees: 1 + Math.floor((total - dc) / step) };
  return { success: false, degrees: 1 + Math.floor((dc - total) / step) };
}

/**
 * The assist / gambit / hunch ladder: "Success grants ... +1 Advantage per degree of success.
 * One degree of failure provides no modifier, but two or more degrees impose -1 Disadvantage per
 * additional degree of failure." Input: signed degrees (success positive, failure negative).
 */
export function ladder(signed: number): number {
  if (signed > 0) return signed;
  if (signed >= -1) return 0;
  return signed + 1;
}
export const signedDegrees = (r: { success: boolean; degrees: number }): number => (r.success ? r.degrees : -r.degrees);

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

function formula(die: string, mod: number): string {
  return mod === 0 ? `1${die}` : `1${die}${mod > 0 ? '+' : '-'}${Math.abs(mod)}`;
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
  const patch = input.record === false ? {} : { lastCheck: { [input.who]: last } };
  ctx.emit({
    type: 'action-round.check',
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
    gmOnly: input.gmOnly || undefined,
    ...patch,
  });
}

export interface OpposedSide {
  who: string;
  bonus: number;
  advantage?: number;
  purpose: string;
}

/** An opposed check: both roll d20 + bonus; the active side succeeds by beating the other's total. */
export function opposed(ctx: ArCtx, active: OpposedSide, passive: OpposedSide, kind: string, extra: Partial<CheckInput> = {}): CheckResult & { opposing: number } {
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
