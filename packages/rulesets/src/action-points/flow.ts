import { chebyshev, expireEffects, jsonCopy, type Effect } from '@fray/engine';
import { actionDef } from './catalogue.js';
import { PHASES, phaseIndex } from './phases.js';
import { acOf, addEffect, effectSum } from './effects.js';
import { removeDirtyTrick } from './dirty-trick.js';
import { phaseStamp } from './missiles.js';
import {
  alive,
  canAct,
  canMakeAoO,
  earliestPhase,
  hasSlot,
  initKey,
  isMarker,
  isRanged,
  keyBefore,
  nowMarker,
  orderOf,
  progressSubtypes,
  provocation,
  reached,
  shapeOf,
  sortedOrder,
  stillActing,
  threateningFoes,
  weaponOf,
  type Shape,
} from './rules.js';
import { ev, optsOf, st, type ActParams, type C, type InProgress, type S, type Sq, type Weapon, type X } from './types.js';


/** A plain copy (event payloads must not hold references into the draft); the same as a JSON round trip. */
export const plain = <T>(x: T): T => (x === undefined ? x : jsonCopy(x));
export { acOf, addEffect };

// ---------------------------------------------------------------- clock: rounds, phases, slots

export function startRound(ctx: X, round: number, surprise: boolean): void {
  const s = st(ctx);
  const o = optsOf(s);
  const ap: Record<string, number> = {};
  const initiative: Record<string, number> = {};
  for (const c of Object.values(s.combatants)) {
    initiative[c.id] = c.stats.dexterity + c.stats.initiativeModifier;
    ap[c.id] = surprise ? (c.data.aware ? o.surpriseAp : 0) : o.apPerRound + c.stats.bonusAp;
  }
  // unique tie-breaks: equal initiatives ordered by the roll-off (or name)
  const ids = Object.keys(initiative).sort((a, b) => {
    const ca = s.combatants[a]!;
    const cb = s.combatants[b]!;
    return initiative[b]! - initiative[a]! || cb.data.tieRoll - ca.data.tieRoll || ca.name.localeCompare(cb.name) || a.localeCompare(b);
  });
  const tiebreak: Record<string, number> = {};
  ids.forEach((id, i) => (tiebreak[id] = ids.length - i));
  const regularRound = surprise ? 0 : s.rs.regularRound + 1;
  const combatTurn = surprise ? 1 : Math.ceil(regularRound / o.roundsPerCombatTurn);
  ctx.emit({ type: ev('round-started'), round, surprise, regularRound, combatTurn, ap, initiative, tiebreak });
  ctx.emit({ type: 'clock.changed', round, phase: PHASES[0], order: orderOf(st(ctx)), current: null });
  if (!Object.values(st(ctx).combatants).some((c) => stillActing(st(ctx), c))) {
    // nobody can act: the round waits for the GM
    ctx.emit({ type: ev('phase-started'), phase: PHASES[0], index: 0 });
    return;
  }
  enterPhase(ctx, 0);
}

/** Enter phase `from` (or the first later phase in which someone acts); end the round when none is left. */
export function enterPhase(ctx: X, from: number): void {
  for (let p = from; ; p++) {
    const s = st(ctx);
    const anyone = Object.values(s.combatants).some((c) => stillActing(s, c));
    if (p >= PHASES.length || !anyone) {
      endRound(ctx);
      startRound(ctx, st(ctx).rs.round + 1, false);
      return;
    }
    ctx.emit({ type: ev('phase-started'), phase: PHASES[p], index: p });
    ctx.emit({ type: 'clock.changed', phase: PHASES[p], current: null });
    expireDue(ctx);
    const first = nextSlot(st(ctx), p, null);
    if (first) {
      giveSlot(ctx, first);
      return;
    }
  }
}

export function nextSlot(s: S, phase: number, cursor: [number, number] | null): C | undefined {
  for (const id of sortedOrder(s)) {
    const c = s.combatants[id]!;
    if (!hasSlot(s, c, phase)) continue;
    if (cursor === null || keyBefore(cursor, initKey(c))) return c;
  }
  return undefined;
}

function giveSlot(ctx: X, c: C): void {
  ctx.emit({ type: ev('turn'), combatantId: c.id, initiative: initKey(c) });
  expireDue(ctx);
  const s = st(ctx);
  const me = s.combatants[c.id]!;
  if (me.data.ready && me.data.ready.round < s.rs.round) {
    ctx.emit({ type: ev('ready-lost'), combatantId: me.id, reason: '"If you don\'t take the action you readied as a reaction by the start of your round of actions, you lose that reaction."' });
  }
}

/** The current combatant's place in this phase is over: the next one in initiative order, or the next phase. */
export function advance(ctx: X): void {
  const s = st(ctx);
  const next = nextSlot(s, s.rs.phaseIdx, s.rs.cursor);
  if (next) giveSlot(ctx, next);
  else enterPhase(ctx, s.rs.phaseIdx + 1);
}

export function endRound(ctx: X): void {
  const s = st(ctx);
  const lost: Record<string, number> = {};
  const carried: string[] = [];
  for (const c of Object.values(s.combatants)) {
    if (c.data.ap > 0) lost[c.id] = c.data.ap;
    for (const r of c.data.inProgress) if (r.consecutive) carried.push(r.key);
    if (c.data.ready && c.data.ready.round < s.rs.round) {
      ctx.emit({ type: ev('ready-lost'), combatantId: c.id, reason: 'not used by the start of the next round of actions' });
    }
  }
  ctx.emit({ type: ev('round-ended'), round: s.rs.round, lost, carried });
}

export function expireDue(ctx: X): void {
  const now = nowMarker(st(ctx));
  expireEffects(ctx as never, (e: Effect) => isMarker(e.expires) && reached(now, e.expires));
}

/** Ends the current slot if the current combatant can no longer act (down, removed). */
export function settle(ctx: X): void {
  const s = st(ctx);
  if (s.reaction || s.status !== 'active') return;
  const cur = s.clock.current;
  if (cur && (!s.combatants[cur] || !alive(s.combatants[cur]!))) advance(ctx);
}

// ---------------------------------------------------------------- advanced actions

export function spoil(ctx: X, c: C, rec: InProgress, reason: string): void {
  const def = actionDef(rec.action)!;
  ctx.emit({
    type: ev('advanced-spoiled'),
    combatantId: c.id,
    key: rec.key,
    action: rec.action,
    reason,
    message: `${c.name}'s ${def.label} is spoiled (${reason}): "spending AP on any other action spoils the incomplete advanced action".`,
  });
}

/** The consecutive advanced action `c` must spend an AP on in this phase, if any. */
export function mustContinue(s: S, c: C): InProgress | null {
  const rec = c.data.inProgress.find((r) => r.consecutive);
  if (!rec || c.data.ap < 1 || c.data.apThisPhase >= optsOf(s).apPerPhase) return null;
  if (rec.lastRound === s.rs.round && rec.lastPhase === s.rs.phaseIdx) return null;
  const sh = shapeOf(s, c, actionDef(rec.action)!, rec.params);
  if (s.rs.phaseIdx < phaseIndex(earliestPhase(s, c, sh, rec.params))) return null;
  return rec;
}

// ---------------------------------------------------------------- the action pipeline

export interface Pending {
  uid: string;
  actorId: string;
  action: string;
  params: ActParams;
  penalty: number;
  recKey: string | null;
  complete: boolean;
  readied: boolean;
}

export type Step =
  | { t: 'aoo'; p: Pending; atRoll: boolean }
  | { t: 'ready'; p: Pending; kinds: string[] }
  | { t: 'move'; p: Pending; path: Sq[]; offered: string[]; from: Sq | null }
  | { t: 'resolve'; p: Pending };

function shapeFor(s: S, c: C, p: Pending): Shape {
  const def = actionDef(p.action)!;
  const sh = shapeOf(s, c, def, p.params);
  const rec = p.recKey ? c.data.inProgress.find((r) => r.key === p.recKey) : undefined;
  return rec ? { ...sh, subtypes: progressSubtypes(s, c, rec) } : sh;
}

/** The steps of one AP spent (or one simple action taken): attacks of opportunity first, then readied triggers, movement, resolution. */
export function stepsFor(s: S, c: C, p: Pending, first: boolean): Step[] {
  const sh = shapeFor(s, c, p);
  const steps: Step[] = [{ t: 'aoo', p, atRoll: p.complete }];
  const kinds = first ? ['acts'] : [];
  if (sh.tags.includes('spell')) kinds.push('casts');
  if (kinds.length) steps.push({ t: 'ready', p, kinds });
  if (p.complete) {
    if (sh.subtypes.includes('attack') && p.params.targetId) steps.push({ t: 'ready', p, kinds: ['attacked'] });
    if (sh.tags.includes('path') && p.params.path && p.action !== 'overrun') steps.push({ t: 'move', p, path: p.params.path, offered: [], from: null });
    steps.push({ t: 'resolve', p });
    if (sh.tags.includes('path')) steps.push({ t: 'ready', p, kinds: ['moves-adjacent'] });
  }
  return steps;
}

export function drive(ctx: X, queue: Step[]): void {
  while (queue.length > 0) {
    const step = queue.shift()!;
    const s = st(ctx);
    const actor = s.combatants[step.p.actorId];
    if (step.t !== 'ready' && (!actor || !alive(actor))) {
      ctx.emit({ type: ev('action-lost'), combatantId: step.p.actorId, action: step.p.action, key: step.p.recKey, reason: 'the actor is down' });
      queue = queue.filter((x) => x.p.uid !== step.p.uid);
      continue;
    }
    if (!actor) continue;
    switch (step.t) {
      case 'aoo': {
        const sh = shapeFor(s, actor, step.p);
        const prov = provocation(s, actor, sh, step.p.params, step.atRoll, false);
        if (!prov) break;
        const eligible = prov.from.filter((id) => canMakeAoO(s, s.combatants[id]!));
        if (eligible.length === 0) break;
        ctx.openReaction({
          kind: ev('attack-of-opportunity'),
          trigger: { combatantId: actor.id, action: step.p.action, description: `${actor.name}: ${sh.def.label} provokes (${prov.reason})` },
          eligible,
          allowed: ['attackOfOpportunity', 'spendAoo'],
          resume: plain({ queue }),
          deadlineSeconds: 30,
        });
        return;
      }
      case 'ready': {
        const readiers = matchingReadiers(s, actor, step.p, step.kinds);
        if (readiers.length === 0) break;
        ctx.openReaction({
          kind: ev('ready'),
          trigger: { combatantId: actor.id, action: step.p.action, description: `${actor.name}: ${actionDef(step.p.action)?.label ?? step.p.action} (${step.kinds.join(', ')})` },
          eligible: readiers,
          allowed: ['completeReady'],
          resume: plain({ queue }),
          deadlineSeconds: 30,
        });
        return;
      }
      case 'move': {
        if (walk(ctx, actor, step, queue)) return;
        break;
      }
      case 'resolve':
        resolve(ctx, step.p);
        break;
    }
  }
}

function matchingReadiers(s: S, actor: C, p: Pending, kinds: string[]): string[] {
  const out: string[] = [];
  for (const r of Object.values(s.combatants)) {
    const ready = r.data.ready;
    if (!ready || r.id === actor.id || !canAct(s, r) || r.side === actor.side) continue;
    if (r.data.reactionsThisPhase >= optsOf(s).reactionsPerPhase) continue;
    if (ready.trigger.sourceId && ready.trigger.sourceId !== actor.id) continue;
    if (!kinds.includes(ready.trigger.kind)) continue;
    if (ready.trigger.kind === 'attacked' && p.params.targetId !== r.id) continue;
    if (ready.trigger.kind === 'moves-adjacent') {
      const a = actor.position as Sq | null;
      const b = r.position as Sq | null;
      if (!a || !b || chebyshev(a, b) > 1) continue;
    }
    out.push(r.id);
  }
  return out;
}

/** Walk a path square by square; leaving a square threatened by a foe not yet offered opens a window first. */
function walk(ctx: X, actor: C, step: Extract<Step, { t: 'move' }>, queue: Step[]): boolean {
  const s = st(ctx);
  const provokes = shapeFor(s, actor, step.p).subtypes.includes('move');
  const start = (step.from ?? actor.position) as Sq;
  let pos = actor.position as Sq;
  const walked: Sq[] = [];
  for (let i = 0; i < step.path.length; i++) {
    const next = step.path[i]!;
    if (provokes) {
      const from = threateningFoes(s, actor, pos)
        .filter((f) => !step.offered.includes(f.id) && canMakeAoO(s, f))
        .map((f) => f.id);
      if (from.length > 0) {
        if (walked.length) ctx.emit({ type: ev('moved'), combatantId: actor.id, from: plain(actor.position), to: plain(pos), path: plain(walked) });
        ctx.openReaction({
          kind: ev('attack-of-opportunity'),
          trigger: { combatantId: actor.id, action: step.p.action, description: `${actor.name} leaves a threatened square (${pos.x},${pos.y})` },
          eligible: from,
          allowed: ['attackOfOpportunity', 'spendAoo'],
          resume: plain({ queue: [{ ...step, path: step.path.slice(i), offered: [...step.offered, ...from], from: start }, ...queue] }),
          deadlineSeconds: 30,
        });
        return true;
      }
    }
    const blocker = Object.values(s.combatants).find((o) => o.id !== actor.id && o.side !== actor.side && alive(o) && o.position && (o.position as Sq).x === next.x && (o.position as Sq).y === next.y);
    if (blocker) {
      ctx.emit({ type: ev('movement-stopped'), combatantId: actor.id, at: plain(pos), reason: `${blocker.name} blocks the way` });
      break;
    }
    pos = next;
    walked.push(pos);
  }
  if (walked.length) ctx.emit({ type: ev('moved'), combatantId: actor.id, from: plain(actor.position), to: plain(pos), path: plain(walked) });
  return false;
}

// ---------------------------------------------------------------- resolution

const signed = (n: number): string => (n === 0 ? '' : n > 0 ? `+${n}` : `${n}`);

export function damage(ctx: X, t: C, amount: number, sourceId: string | null): void {
  const hp = st(ctx).combatants[t.id]!.data.hp - amount;
  ctx.emit({ type: ev('damaged'), targetId: t.id, sourceId, amount, hp });
  if (hp <= 0) {
    const me = st(ctx).combatants[t.id]!;
    for (const r of me.data.inProgress) spoil(ctx, me, r, 'down');
  }
}

export function attackRoll(ctx: X, a: C, t: C, w: Weapon | undefined, penalty: number, label: string, extra = 0): boolean {
  const s = st(ctx);
  const mods = a.stats.attackBonus + (w?.attackBonus ?? 0) + penalty + extra + effectSum(s, a.id, 'attack') + effectSum(s, a.id, 'attackVs', t.id);
  const ac = acOf(s, t, a);
  const roll = ctx.roll(`1d20${signed(mods)}`, `${label}: ${a.name} attacks ${t.name}${w ? ` with ${w.name}` : ''}`, { combatantId: a.id });
  const die = roll.faces[0]?.value ?? 0;
  const hit = die === 20 || (die !== 1 && roll.total >= ac);
  let dealt = 0;
  if (hit) {
    dealt = Math.max(1, ctx.roll(w?.damage ?? '1d3', `damage: ${a.name} on ${t.name}`, { combatantId: a.id }).total);
  }
  ctx.emit({ type: ev('attack-resolved'), combatantId: a.id, targetId: t.id, weaponId: w?.id ?? null, rollId: roll.id, total: roll.total, penalty, ac, hit, damage: dealt });
  if (hit) damage(ctx, t, dealt, a.id);
  const feint = st(ctx).effects.find((e) => e.targetId === t.id && e.data?.['feintedBy'] === a.id);
  if (feint) ctx.emit({ type: 'effect.removed', effectId: feint.id, reason: 'used' });
  if (w && (w.kind === 'crossbow' || w.kind === 'firearm' || w.kind === 'bow')) ctx.emit({ type: ev('weapon-fired'), combatantId: a.id, weaponId: w.id, kind: w.kind });
  return hit;
}

function maneuver(ctx: X, a: C, t: C, penalty: number, label: string, bonus = 0): { success: boolean; margin: number } {
  const s = st(ctx);
  const mods = a.stats.cmb + penalty + bonus + effectSum(s, a.id, 'attack') + effectSum(s, a.id, 'attackVs', t.id);
  const cmd = t.stats.cmd + effectSum(s, t.id, 'cmd');
  const roll = ctx.roll(`1d20${signed(mods)}`, `${label}: ${a.name} against ${t.name}'s CMD`, { combatantId: a.id });
  const success = roll.total >= cmd;
  const margin = roll.total - cmd;
  ctx.emit({ type: ev('maneuver-resolved'), combatantId: a.id, targetId: t.id, action: label, rollId: roll.id, total: roll.total, cmd, success, margin, penalty });
  return { success, margin };
}

function check(ctx: X, a: C, formula: string, dc: number | undefined, label: string): boolean | null {
  const r = ctx.roll(formula, `${label} (${a.name})`, { combatantId: a.id });
  return dc === undefined ? null : r.total >= dc;
}

/** Resolution, after the AP are spent ("any roll ... should be made after the AP are spent"). */
export function resolve(ctx: X, p: Pending): void {
  const s = st(ctx);
  const a = s.combatants[p.actorId]!;
  const def = actionDef(p.action)!;
  const t = p.params.targetId ? s.combatants[p.params.targetId] : undefined;
  const o = optsOf(s);
  const label = def.label;
  let outcome: Record<string, unknown> = {};
  const rolls = o.resolveAttacks;
  switch (def.id) {
    case 'attack':
    case 'spell-combat':
    case 'spellstrike': {
      if (t && rolls && alive(t)) {
        const w = weaponOf(a, p.params.weaponId);
        outcome.hit = attackRoll(ctx, a, t, w, def.id === 'spellstrike' ? 0 : p.penalty, label, def.id === 'spell-combat' ? -2 : 0);
      }
      if (def.id !== 'attack') outcome = { ...outcome, ...castSpell(ctx, a, p) };
      break;
    }
    case 'natural-attacks': {
      if (t && rolls) {
        const hits: boolean[] = [];
        for (const w of a.stats.weapons.filter((x) => x.category === 'natural')) {
          if (!alive(st(ctx).combatants[t.id]!)) break;
          hits.push(attackRoll(ctx, a, st(ctx).combatants[t.id]!, w, p.penalty, label));
        }
        outcome.hits = hits;
      }
      break;
    }
    case 'coup-de-grace': {
      if (t && rolls) {
        const w = weaponOf(a, p.params.weaponId);
        let dealt = 0;
        for (let i = 0; i < (w?.critMultiplier ?? 2); i++) dealt += Math.max(1, ctx.roll(w?.damage ?? '1d3', `coup de grace damage on ${t.name}`, { combatantId: a.id }).total);
        damage(ctx, t, dealt, a.id);
        const save = ctx.roll(`1d20${signed(t.stats.fortitude)}`, `Fortitude save against coup de grace (DC ${10 + dealt})`, { combatantId: t.id });
        outcome = { damage: dealt, saved: save.total >= 10 + dealt };
        if (save.total < 10 + dealt) {
          addEffect(ctx, { name: 'Dead', condition: 'dead', targetId: t.id, sourceId: a.id, duration: null });
          const now = st(ctx).combatants[t.id]!;
          if (now.data.hp > 0) damage(ctx, now, now.data.hp, a.id);
        }
      }
      break;
    }
    case 'trip':
    case 'bull-rush':
    case 'disarm':
    case 'sunder':
    case 'drag':
    case 'reposition':
    case 'steal':
    case 'initiate-grapple':
    case 'dirty-trick':
    case 'continue-grapple': {
      if (!t || !rolls) break;
      const bonus = def.id === 'continue-grapple' ? 5 : 0;
      const r = maneuver(ctx, a, t, def.id === 'continue-grapple' ? 0 : p.penalty, label, bonus);
      outcome = { ...r };
      if (def.id === 'trip') {
        if (r.success) addEffect(ctx, { name: 'Prone', condition: 'prone', targetId: t.id, sourceId: a.id, duration: null });
        else if (r.margin <= -10) addEffect(ctx, { name: 'Prone', condition: 'prone', targetId: a.id, sourceId: a.id, duration: null });
      } else if (def.id === 'initiate-grapple' && r.success) {
        addEffect(ctx, { name: 'Grappled', condition: 'grappled', targetId: t.id, sourceId: a.id, duration: null });
        addEffect(ctx, { name: 'Grappling', condition: 'grappled', targetId: a.id, sourceId: a.id, duration: null, data: { initiator: 1, partner: 0 } });
      } else if (def.id === 'dirty-trick' && r.success) {
        const rounds = 1 + Math.floor(r.margin / 5);
        const cond = p.params.condition ?? 'dazzled';
        addEffect(ctx, { name: `Dirty trick: ${cond}`, condition: cond, targetId: t.id, sourceId: a.id, duration: { unit: 'rounds', count: rounds }, data: { dirtyTrick: 1 } });
        outcome.rounds = rounds;
      } else if (def.id === 'continue-grapple' && r.success && p.params.pin) {
        addEffect(ctx, { name: 'Pinned', condition: 'pinned', targetId: t.id, sourceId: a.id, duration: null });
      } else if (r.success && (def.id === 'bull-rush' || def.id === 'drag' || def.id === 'reposition')) {
        outcome.feet = 5 + 5 * Math.floor(r.margin / 5);
      }
      break;
    }
    case 'overrun': {
      if (!t || !rolls) break;
      const r = maneuver(ctx, a, t, p.penalty, label);
      outcome = { ...r };
      const path = p.params.path ?? [];
      const tpos = t.position as Sq | null;
      const at = tpos ? path.findIndex((q) => q.x === tpos.x && q.y === tpos.y) : -1;
      const walked = r.success || at < 0 ? path : path.slice(0, at);
      if (walked.length) ctx.emit({ type: ev('moved'), combatantId: a.id, from: plain(a.position), to: plain(walked[walked.length - 1]), path: plain(walked) });
      if (r.success && r.margin >= 5) addEffect(ctx, { name: 'Prone', condition: 'prone', targetId: t.id, sourceId: a.id, duration: null });
      break;
    }
    case 'escape-grapple': {
      const penalty = 0 - 5 * Math.max(0, a.data.escapesThisRound - 1);
      const grappler = s.effects.find((e) => e.targetId === a.id && e.condition === 'grappled' && e.sourceId && e.sourceId !== a.id);
      const g = grappler?.sourceId ? s.combatants[grappler.sourceId] : undefined;
      const dc = g ? g.stats.cmd : (p.params.check?.dc ?? 15);
      const roll = ctx.roll(`1d20${signed(a.stats.cmb + penalty)}`, `escape a grapple (penalty ${penalty})`, { combatantId: a.id });
      outcome = { total: roll.total, dc, penalty, success: roll.total >= dc };
      if (roll.total >= dc) {
        for (const e of st(ctx).effects.filter((x) => x.condition === 'grappled' && (x.targetId === a.id || (g && x.targetId === g.id)))) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'escaped' });
      }
      break;
    }
    case 'end-grapple':
      for (const e of s.effects.filter((x) => x.condition === 'grappled' && (x.targetId === a.id || x.sourceId === a.id))) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'released' });
      break;
    case 'feint': {
      if (!t) break;
      const ok = p.params.check ? check(ctx, a, p.params.check.formula, p.params.check.dc, 'Bluff to feint') : null;
      if (ok) addEffect(ctx, { name: `Feinted by ${a.name}`, targetId: t.id, sourceId: a.id, duration: { unit: 'end-of-round', count: 1 }, data: { feintedBy: a.id } });
      outcome.success = ok;
      break;
    }
    case 'total-defense': {
      const attacked = a.data.attacksThisRound > 0;
      const big = a.stats.acrobaticsRanks >= 3;
      const bonus = attacked ? (big ? 3 : 2) : big ? 6 : 4;
      addEffect(ctx, { name: 'Total defense', targetId: a.id, sourceId: a.id, duration: { unit: 'own-round-start', count: 1 }, data: { ac: bonus, noAttacks: 1 } });
      outcome.dodge = bonus;
      break;
    }
    case 'fight-defensively':
      addEffect(ctx, { name: 'Fighting defensively', targetId: a.id, sourceId: a.id, duration: { unit: 'own-round-start', count: 1 }, data: { ac: a.stats.acrobaticsRanks >= 3 ? 3 : 2, attack: -4 } });
      break;
    case 'charge':
      if (t) addEffect(ctx, { name: `Charging ${t.name}`, targetId: a.id, sourceId: a.id, duration: { unit: 'end-of-round', count: 1 }, data: { attackVs: 2, vs: t.id } });
      break;
    case 'run':
      addEffect(ctx, { name: 'Running (no Dexterity bonus to AC)', targetId: a.id, sourceId: a.id, duration: { unit: 'own-round-start', count: 1 }, data: { denyDex: 1 } });
      break;
    case 'drop-prone':
      addEffect(ctx, { name: 'Prone', condition: 'prone', targetId: a.id, sourceId: a.id, duration: null });
      break;
    case 'remove-dirty-trick':
      outcome = removeDirtyTrick(ctx, s, a, p.params);
      break;
    case 'stand-up':
      for (const e of s.effects.filter((x) => x.targetId === a.id && x.condition === 'prone')) ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'stood up' });
      break;
    case 'draw-nock': {
      const bow = a.stats.weapons.find((w) => w.kind === 'bow' && (!p.params.weaponId || w.id === p.params.weaponId));
      if (bow) ctx.emit({ type: ev('nocked'), combatantId: a.id, weaponId: bow.id, at: phaseStamp(s) });
      break;
    }
    case 'load-light-crossbow':
    case 'load-heavy-crossbow':
    case 'load-firearm-one-handed':
    case 'load-firearm-two-handed': {
      const kind = def.id.includes('crossbow') ? 'crossbow' : 'firearm';
      const w = a.stats.weapons.find((x) => x.kind === kind && a.data.unloaded.includes(x.id) && (!p.params.weaponId || x.id === p.params.weaponId));
      if (w) ctx.emit({ type: ev('loaded'), combatantId: a.id, weaponId: w.id });
      break;
    }
    case 'ready': {
      const r = p.params.readied!;
      const rd = actionDef(r.action)!;
      const cost = shapeOf(s, a, rd, { targetId: r.targetId, weaponId: r.weaponId }).cost;
      const { action: _a, ...params } = r;
      ctx.emit({ type: ev('readied'), combatantId: a.id, ready: plain({ action: rd.id, cost, params, trigger: p.params.trigger!, round: s.rs.round, phase: s.rs.phaseIdx }) });
      break;
    }
    case 'cast-swift-spell':
    case 'cast-standard-spell':
    case 'cast-round-spell':
    case 'spell-completion':
    case 'spell-trigger':
    case 'touch-six-allies':
      outcome = castSpell(ctx, a, p);
      break;
    default:
      if (p.params.effect) applyEffectSpec(ctx, a, p);
  }
  if (p.params.check && def.id !== 'feint' && def.id !== 'escape-grapple') outcome.check = check(ctx, a, p.params.check.formula, p.params.check.dc, label);
  const done: Record<string, unknown> = { type: ev('resolved'), combatantId: a.id, action: def.id, key: p.recKey, readied: p.readied, outcome };
  if (p.params.text) done.text = p.params.text;
  ctx.emit(done as { type: string });
}

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

function castSpell(ctx: X, a: C, p: Pending): Record<string, unknown> {
  applyEffectSpec(ctx, a, p);
  return { spell: p.params.effect?.name ?? p.params.text ?? 'spell' };
}

/** "Cast Defensively: ... concentration check (DC = 15 + double the spell's level). If you succeed, that spell loses the complex subtype ... If you fail, you lose the spell." */
export function castDefensively(ctx: X, c: C, rec: InProgress): boolean {
  const level = rec.params.spellLevel ?? 1;
  const dc = 15 + 2 * level;
  const r = ctx.roll(`1d20${signed(c.stats.concentration)}`, `concentration to cast defensively (DC ${dc})`, { combatantId: c.id });
  if (r.total >= dc) {
    ctx.emit({ type: ev('cast-defensively'), combatantId: c.id, key: rec.key, success: true, dc, total: r.total });
    return true;
  }
  ctx.emit({ type: ev('cast-defensively'), combatantId: c.id, key: rec.key, success: false, dc, total: r.total });
  spoil(ctx, c, rec, 'failed to cast defensively: "If you fail, you lose the spell"');
  return false;
}

export { isRanged };
