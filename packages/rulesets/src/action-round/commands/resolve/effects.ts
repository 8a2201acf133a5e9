import { expireEffects, makeEffect, type Effect, type Ruleset } from '@fray/engine';
import { patchData, type ArCtx } from '../../events.js';
import { combatant, cond, effectsOn, type State } from '../../state/index.js';
import { check } from './roll.js';

/** Effects, damage and fatigue: what happens to a character, as events. */

/** When an effect ends: at the start or end of a turn (`turn` = the combatant's turnsTaken then). */
export interface Marker {
  of: string;
  at: 'start' | 'end';
  turn: number;
}
function isMarker(v: unknown): v is Marker {
  return typeof v === 'object' && v !== null && 'of' in v && 'at' in v && 'turn' in v;
}

const noRuleset: Pick<Ruleset, 'effectExpiry'> = {};

export function addEffect(
  ctx: ArCtx,
  init: {
    name: string;
    condition?: string;
    targetId: string;
    sourceId: string | null;
    data?: Record<string, unknown>;
    expires: Marker | null;
    beneficial?: boolean;
  },
): string {
  const effect: Effect = makeEffect(ctx, noRuleset, {
    name: init.name,
    condition: init.condition,
    targetId: init.targetId,
    sourceId: init.sourceId,
    duration: null,
    data: { ...(init.data ?? {}), ...(init.beneficial !== undefined ? { beneficial: init.beneficial } : {}) },
  });
  if (init.expires) {
    effect.duration = { unit: init.expires.at === 'start' ? 'until-start-of-turn' : 'until-end-of-turn', count: 1 };
    effect.expires = { ...init.expires };
  }
  ctx.emit({ type: 'effect.applied', effect, gmOnly: effect.gmOnly || undefined });
  return effect.id;
}

/** "until the end of your next turn" / "until the start of your next turn" of a combatant. */
export function nextTurn(s: State, id: string, at: 'start' | 'end'): Marker {
  const c = combatant(s, id);
  return { of: id, at, turn: c.data.turnsTaken + 1 };
}

/** Effects of `id` that end now, at the start or end of its turn. */
export function expireAt(ctx: ArCtx, id: string, at: 'start' | 'end', filter: (e: Effect) => boolean = () => true): void {
  const c = combatant(ctx.state, id);
  expireEffects(ctx, (e) => {
    const m = e.expires;
    return isMarker(m) && m.of === id && m.at === at && m.turn <= c.data.turnsTaken && filter(e);
  });
}

/** Apply damage levels; at the damage limit the character is incapacitated. */
export function takeDamage(ctx: ArCtx, id: string, levels: number, track: 'damage' | 'socialDamage', source: string): void {
  if (levels <= 0) return;
  const c = combatant(ctx.state, id);
  const value = c.data[track] + levels;
  patchData(ctx, 'damaged', id, track === 'damage' ? { damage: value } : { socialDamage: value }, { levels, track, source });
  if (value >= ctx.options.damageLimit && !cond(ctx.state, id, 'incapacitated')) {
    addEffect(ctx, { name: 'Incapacitated', condition: 'incapacitated', targetId: id, sourceId: null, expires: null });
  }
}

const FATIGUE = ['fresh', 'fatigued', 'exhausted', 'incapacitated'];
export function setFatigue(ctx: ArCtx, id: string, fatigue: number, reason: string): void {
  const f = Math.max(0, Math.min(3, fatigue));
  patchData(ctx, 'fatigue', id, { fatigue: f }, { fatigue: f, level: FATIGUE[f] ?? 'incapacitated', reason });
}

export function loseAim(ctx: ArCtx, id: string, reason: string): void {
  patchData(ctx, 'aim-lost', id, { aim: null }, { reason });
  for (const e of effectsOn(ctx.state, id, 'aim-vulnerable')) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'aim ended' });
}

const SAVES = ['fortitude', 'reflex', 'will', 'toughness'] as const;
type Save = (typeof SAVES)[number];
function resistOf(e: Effect): { save: Save; dc: number } | null {
  const r = e.data?.['resist'];
  if (typeof r !== 'object' || r === null || !('save' in r) || !('dc' in r)) return null;
  const save = SAVES.find((x) => x === r.save);
  return save && typeof r.dc === 'number' ? { save, dc: r.dc } : null;
}
/** Effects on `id` a resistance check may end. */
export const resistible = (s: State, id: string): Effect[] => s.effects.filter((x) => x.targetId === id && resistOf(x) !== null);

/** A resistance check against an ongoing effect ("not considered actions at all"). */
export function resistanceCheck(ctx: ArCtx, id: string, effectId: string, why: string): boolean {
  const e = ctx.state.effects.find((x) => x.id === effectId);
  const r = e ? resistOf(e) : null;
  if (!e || !r) return false;
  const c = combatant(ctx.state, id);
  const res = check(ctx, {
    who: id,
    bonus: c.stats[r.save],
    dc: r.dc,
    purpose: `${r.save} resistance check vs ${e.name} (${why})`,
    kind: 'resistance',
    record: false,
  });
  if (res.success) ctx.emit({ type: 'effect.removed', effectId, reason: 'resisted' });
  return res.success;
}
