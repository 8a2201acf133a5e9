import { jsonCopy } from '@fray/engine';
import { actionDef, type ActionDef } from '../catalogue/index.js';
import { emit } from '../events/index.js';
import { phaseStamp, shapeOf, weaponOf } from '../mechanics/shape.js';
import { alive, optsOf, posOf, st, type C, type Pending, type X } from '../state.js';
import { addEffect, attackRoll, check, damage, maneuver, removeDirtyTrick, signed } from './rolls.js';

/**
 * Not a command group: the resolution step every action ends in, after its AP are spent ("any roll
 * ... should be made after the AP are spent"), for `act`, `continue` and a completed readied action.
 */

type Outcome = Record<string, unknown>;
/** An action's resolution: what it rolls and emits, and the outcome the `resolved` event records. */
type Resolver = (ctx: X, a: C, t: C | undefined, p: Pending, def: ActionDef) => Outcome;

/** A plain copy (event payloads must not hold references into the working state); the same as a JSON round trip. */
export const plain = <T>(x: T): T => (x === undefined ? x : jsonCopy(x));

function applyEffectSpec(ctx: X, a: C, p: Pending): void {
  const e = p.params.effect;
  if (!e) return;
  const targetId = e.targetId ?? p.params.targetId ?? a.id;
  const spec: Parameters<typeof addEffect>[1] = {
    name: e.name,
    targetId,
    sourceId: a.id,
    duration: e.rounds ? { unit: 'rounds', count: e.rounds } : null,
  };
  if (e.condition) spec.condition = e.condition;
  if (e.data) spec.data = e.data;
  addEffect(ctx, spec);
}

function castSpell(ctx: X, a: C, p: Pending): Outcome {
  applyEffectSpec(ctx, a, p);
  return { spell: p.params.effect?.name ?? p.params.text ?? 'spell' };
}

const rolls = (ctx: X): boolean => optsOf(st(ctx)).resolveAttacks;

/** Attack, spell combat (-2) and spellstrike (no attack penalty): one attack roll, then the spell for the last two. */
const weaponAttack: Resolver = (ctx, a, t, p, def) => {
  let outcome: Outcome = {};
  if (t && rolls(ctx) && alive(t)) {
    const w = weaponOf(a, p.params.weaponId);
    outcome.hit = attackRoll(ctx, a, t, w, def.id === 'spellstrike' ? 0 : p.penalty, def.label, def.id === 'spell-combat' ? -2 : 0);
  }
  if (def.id !== 'attack') outcome = { ...outcome, ...castSpell(ctx, a, p) };
  return outcome;
};

const naturalAttacks: Resolver = (ctx, a, t, p, def) => {
  if (!t || !rolls(ctx)) return {};
  const hits: boolean[] = [];
  for (const w of a.stats.weapons.filter((x) => x.category === 'natural')) {
    if (!alive(st(ctx).combatants[t.id]!)) break;
    hits.push(attackRoll(ctx, a, st(ctx).combatants[t.id]!, w, p.penalty, def.label));
  }
  return { hits };
};

/** Deliver a Coup de Grace: "you automatically hit and confirm a critical hit"; a Fortitude save (DC 10 + damage) or die. */
const coupDeGrace: Resolver = (ctx, a, t, p) => {
  if (!t || !rolls(ctx)) return {};
  const w = weaponOf(a, p.params.weaponId);
  let dealt = 0;
  for (let i = 0; i < (w?.critMultiplier ?? 2); i++)
    dealt += Math.max(1, ctx.roll(w?.damage ?? '1d3', `coup de grace damage on ${t.name}`, { combatantId: a.id }).total);
  damage(ctx, t, dealt, a.id);
  const save = ctx.roll(`1d20${signed(t.stats.fortitude)}`, `Fortitude save against coup de grace (DC ${10 + dealt})`, {
    combatantId: t.id,
  });
  if (save.total < 10 + dealt) {
    addEffect(ctx, { name: 'Dead', condition: 'dead', targetId: t.id, sourceId: a.id, duration: null });
    const now = st(ctx).combatants[t.id]!;
    if (now.data.hp > 0) damage(ctx, now, now.data.hp, a.id);
  }
  return { damage: dealt, saved: save.total >= 10 + dealt };
};

/** Combat maneuvers: CMB against CMD, then what success (or a bad failure) does. */
const combatManeuver: Resolver = (ctx, a, t, p, def) => {
  if (!t || !rolls(ctx)) return {};
  const grapple = def.id === 'continue-grapple';
  const r = maneuver(ctx, a, t, grapple ? 0 : p.penalty, def.label, grapple ? 5 : 0);
  const outcome: Outcome = { ...r };
  const cond = (name: string, condition: string, targetId: string, data?: Record<string, unknown>) =>
    addEffect(ctx, { name, condition, targetId, sourceId: a.id, duration: null, ...(data ? { data } : {}) });
  if (def.id === 'trip') {
    if (r.success) cond('Prone', 'prone', t.id);
    else if (r.margin <= -10) cond('Prone', 'prone', a.id);
  } else if (def.id === 'initiate-grapple' && r.success) {
    cond('Grappled', 'grappled', t.id);
    cond('Grappling', 'grappled', a.id, { initiator: 1, partner: 0 });
  } else if (def.id === 'dirty-trick' && r.success) {
    const rounds = 1 + Math.floor(r.margin / 5);
    const c = p.params.condition ?? 'dazzled';
    addEffect(ctx, {
      name: `Dirty trick: ${c}`,
      condition: c,
      targetId: t.id,
      sourceId: a.id,
      duration: { unit: 'rounds', count: rounds },
      data: { dirtyTrick: 1 },
    });
    outcome.rounds = rounds;
  } else if (grapple && r.success && p.params.pin) {
    cond('Pinned', 'pinned', t.id);
  } else if (r.success && (def.id === 'bull-rush' || def.id === 'drag' || def.id === 'reposition')) {
    outcome.feet = 5 + 5 * Math.floor(r.margin / 5);
  }
  return outcome;
};

/** Overrun: "If you fail this check, your movement stops in the space directly in front of the opponent"; beaten by 5, the target is knocked prone. */
const overrun: Resolver = (ctx, a, t, p, def) => {
  if (!t || !rolls(ctx)) return {};
  const r = maneuver(ctx, a, t, p.penalty, def.label);
  const path = p.params.path ?? [];
  const tpos = posOf(t);
  const at = tpos ? path.findIndex((q) => q.x === tpos.x && q.y === tpos.y) : -1;
  const walked = r.success || at < 0 ? path : path.slice(0, at);
  if (walked.length)
    emit(ctx, {
      type: 'action-points.moved',
      combatantId: a.id,
      from: plain(posOf(a)),
      to: plain(walked[walked.length - 1]!),
      path: plain(walked),
    });
  if (r.success && r.margin >= 5) addEffect(ctx, { name: 'Prone', condition: 'prone', targetId: t.id, sourceId: a.id, duration: null });
  return { ...r };
};

/** Escape a Grapple: "The second time in a round you take this action, you take a -5 penalty on the check. The third time, -10." */
const escapeGrapple: Resolver = (ctx, a, t, p) => {
  const s = st(ctx);
  const penalty = 0 - 5 * Math.max(0, a.data.escapesThisRound - 1);
  const grappler = s.effects.find((e) => e.targetId === a.id && e.condition === 'grappled' && e.sourceId && e.sourceId !== a.id);
  const g = grappler?.sourceId ? s.combatants[grappler.sourceId] : undefined;
  const dc = g ? g.stats.cmd : (p.params.check?.dc ?? 15);
  const roll = ctx.roll(`1d20${signed(a.stats.cmb + penalty)}`, `escape a grapple (penalty ${penalty})`, { combatantId: a.id });
  if (roll.total >= dc) {
    for (const e of st(ctx).effects.filter((x) => x.condition === 'grappled' && (x.targetId === a.id || (g && x.targetId === g.id))))
      ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'escaped' });
  }
  return { total: roll.total, dc, penalty, success: roll.total >= dc };
};

const endGrapple: Resolver = (ctx, a) => {
  for (const e of st(ctx).effects.filter((x) => x.condition === 'grappled' && (x.targetId === a.id || x.sourceId === a.id)))
    ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'released' });
  return {};
};

const feint: Resolver = (ctx, a, t, p) => {
  if (!t) return {};
  const ok = p.params.check ? check(ctx, a, p.params.check.formula, p.params.check.dc, 'Bluff to feint') : null;
  if (ok)
    addEffect(ctx, {
      name: `Feinted by ${a.name}`,
      targetId: t.id,
      sourceId: a.id,
      duration: { unit: 'end-of-round', count: 1 },
      data: { feintedBy: a.id },
    });
  return { success: ok };
};

/** Total Defense: "+4 dodge bonus to AC" (+6 with 3 ranks in Acrobatics; less after an attack this round), no attack actions. */
const totalDefense: Resolver = (ctx, a) => {
  const big = a.stats.acrobaticsRanks >= 3;
  const bonus = a.data.attacksThisRound > 0 ? (big ? 3 : 2) : big ? 6 : 4;
  addEffect(ctx, {
    name: 'Total defense',
    targetId: a.id,
    sourceId: a.id,
    duration: { unit: 'own-round-start', count: 1 },
    data: { ac: bonus, noAttacks: 1 },
  });
  return { dodge: bonus };
};

const self =
  (name: string, data: (a: C) => Record<string, unknown>, unit: 'own-round-start' | 'end-of-round' = 'own-round-start'): Resolver =>
  (ctx, a) => {
    addEffect(ctx, { name, targetId: a.id, sourceId: a.id, duration: { unit, count: 1 }, data: data(a) });
    return {};
  };

const readyAction: Resolver = (ctx, a, t, p) => {
  const s = st(ctx);
  const r = p.params.readied!;
  const rd = actionDef(r.action)!;
  const cost = shapeOf(s, a, rd, { targetId: r.targetId, weaponId: r.weaponId }).cost;
  const { action: _a, ...params } = r;
  emit(ctx, {
    type: 'action-points.readied',
    combatantId: a.id,
    ready: plain({ action: rd.id, cost, params, trigger: p.params.trigger!, round: s.rs.round, phase: s.rs.phaseIdx }),
  });
  return {};
};

const load: Resolver = (ctx, a, t, p, def) => {
  const kind = def.id.includes('crossbow') ? 'crossbow' : 'firearm';
  const w = a.stats.weapons.find(
    (x) => x.kind === kind && a.data.unloaded.includes(x.id) && (!p.params.weaponId || x.id === p.params.weaponId),
  );
  if (w) emit(ctx, { type: 'action-points.loaded', combatantId: a.id, weaponId: w.id });
  return {};
};

const spell: Resolver = (ctx, a, t, p) => castSpell(ctx, a, p);

const RESOLVERS = new Map<string, Resolver>([
  ['attack', weaponAttack],
  ['spell-combat', weaponAttack],
  ['spellstrike', weaponAttack],
  ['natural-attacks', naturalAttacks],
  ['coup-de-grace', coupDeGrace],
  ...['trip', 'bull-rush', 'disarm', 'sunder', 'drag', 'reposition', 'steal', 'initiate-grapple', 'dirty-trick', 'continue-grapple'].map(
    (id): [string, Resolver] => [id, combatManeuver],
  ),
  ['overrun', overrun],
  ['escape-grapple', escapeGrapple],
  ['end-grapple', endGrapple],
  ['feint', feint],
  ['total-defense', totalDefense],
  ['fight-defensively', self('Fighting defensively', (a) => ({ ac: a.stats.acrobaticsRanks >= 3 ? 3 : 2, attack: -4 }))],
  ['run', self('Running (no Dexterity bonus to AC)', () => ({ denyDex: 1 }))],
  [
    'drop-prone',
    (ctx, a) => {
      addEffect(ctx, { name: 'Prone', condition: 'prone', targetId: a.id, sourceId: a.id, duration: null });
      return {};
    },
  ],
  ['remove-dirty-trick', (ctx, a, t, p) => removeDirtyTrick(ctx, st(ctx), a, p.params)],
  ['ready', readyAction],
  ...['load-light-crossbow', 'load-heavy-crossbow', 'load-firearm-one-handed', 'load-firearm-two-handed'].map((id): [string, Resolver] => [
    id,
    load,
  ]),
  ...['cast-swift-spell', 'cast-standard-spell', 'cast-round-spell', 'spell-completion', 'spell-trigger', 'touch-six-allies'].map(
    (id): [string, Resolver] => [id, spell],
  ),
]);

/** Resolution, after the AP are spent ("any roll ... should be made after the AP are spent"). */
export function resolve(ctx: X, p: Pending): void {
  const s = st(ctx);
  const a = s.combatants[p.actorId]!;
  const def = actionDef(p.action)!;
  const t = p.params.targetId ? s.combatants[p.params.targetId] : undefined;
  const resolver = RESOLVERS.get(def.id);
  let outcome: Outcome = {};
  if (resolver) outcome = resolver(ctx, a, t, p, def);
  else resolveOther(ctx, a, t, p, def);
  if (p.params.check && def.id !== 'feint' && def.id !== 'escape-grapple')
    outcome.check = check(ctx, a, p.params.check.formula, p.params.check.dc, def.label);
  const base = { type: 'action-points.resolved', combatantId: a.id, action: def.id, key: p.recKey, readied: p.readied, outcome } as const;
  emit(ctx, p.params.text ? { ...base, text: p.params.text } : base);
}

/** Charge's +2 until the end of the round, standing up, drawing an arrow; any other action applies the effect it was given. */
function resolveOther(ctx: X, a: C, t: C | undefined, p: Pending, def: ActionDef): void {
  switch (def.id) {
    case 'charge':
      if (t)
        addEffect(ctx, {
          name: `Charging ${t.name}`,
          targetId: a.id,
          sourceId: a.id,
          duration: { unit: 'end-of-round', count: 1 },
          data: { attackVs: 2, vs: t.id },
        });
      return;
    case 'stand-up':
      for (const e of st(ctx).effects.filter((x) => x.targetId === a.id && x.condition === 'prone'))
        ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'stood up' });
      return;
    case 'draw-nock': {
      const bow = a.stats.weapons.find((w) => w.kind === 'bow' && (!p.params.weaponId || w.id === p.params.weaponId));
      if (bow) emit(ctx, { type: 'action-points.nocked', combatantId: a.id, weaponId: bow.id, at: phaseStamp(st(ctx)) });
      return;
    }
    default:
      applyEffectSpec(ctx, a, p);
  }
}
