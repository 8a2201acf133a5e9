import { ruleError, type ActionOption, type EngineError, type ParamSpec, type ReactionWindow } from '@fray/engine';
import { ACTIONS, RULE, type ActionDef } from './catalogue.js';
import {
  checkActNow,
  checkAreaPower,
  checkBudget,
  checkCombine,
  checkDelay,
  checkFree,
  checkGrabbed,
  checkMaintainAim,
  checkMoveMode,
  checkNotProne,
  checkProne,
  checkQuick,
  checkReadiedTrigger,
  checkReadiedWaits,
  checkReaction,
  checkSlam,
  checkSpendWhileDown,
  checkSplit,
  checkTalk,
  checkTurn,
} from './checks/index.js';
import { combinablePowers, powerReachWhy, rangeWhy } from './mechanics/combat.js';
import { variableRuling } from './mechanics/rulings.js';
import { attackProvokers, threatenersOf } from './mechanics/threat.js';
import type { Options } from './options.js';
import { optionsOf, posOf, slotFor, speedRank, type AttackKind, type C, type Power, type State } from './state/index.js';

/** legalActions: every action of the catalogue for one combatant, with its cost, whom it provokes, and the check that blocks it. */

type Provokes = ActionOption['provokes'];
/** What every option of one combatant shares. */
interface View {
  s: State;
  o: Options;
  c: C;
  w: ReactionWindow | null;
  others: C[];
  movementProvokes: Provokes;
  oaProvokes: Provokes;
  /** an open move action of this mode continues without a new slot */
  continuing: string | null;
}
interface Shape {
  blocked: EngineError | null;
  provokes: Provokes;
  params: ParamSpec[] | undefined;
}

const OFF_TURN_FREE = new Set(['talk', 'spend-coup', 'spend-edit-scene', 'spend-improve-roll', 'spend-inspiration', 'spend-recover', 'spend-stunt']);
const TRIGGERED = new Set(['opportunity-attack', 'counter-stunt', 'readied']);
const ON_OWN_CHECK = new Set(['smash', 'slam', 'raise', 'hunch']);
const KINDS: readonly AttackKind[] = ['close', 'ranged', 'court', 'rumor'];

const names = (xs: { id: string }[]): string[] => xs.map((x) => x.id);
const isSlot = (t: string): t is 'standard' | 'move' | 'quick' => t === 'standard' || t === 'move' || t === 'quick';

function costOf(c: C, type: string): Record<string, number> | undefined {
  if (isSlot(type)) return { [slotFor(c.data, type) ?? type]: 1 };
  if (type === 'free' || type === 'reaction') return { [type]: 1 };
  return undefined;
}

/** While a reaction window is open, only the commands it asks of this combatant. */
function windowBlock(v: View, command: string): EngineError | null {
  const w = v.w;
  if (!w || (w.allowed.includes(command) && w.responses[v.c.id] === 'pending')) return null;
  return ruleError('REACTION_PENDING', RULE.reactions, `Waiting for reactions (${w.kind}).`);
}

function reactionBlock(v: View, def: ActionDef): EngineError | null {
  const { s, o, c, w } = v;
  if (TRIGGERED.has(def.id)) {
    if (w && w.allowed.includes(def.command) && w.responses[c.id] === 'pending') return null;
    if (def.id === 'readied') return checkReadiedTrigger(s, c);
    const rule = def.id === 'opportunity-attack' ? RULE.opportunityAttack : RULE.counterStunt;
    return ruleError('ILLEGAL_ACTION', rule, 'Only when triggered: "you react in response to something else happening".');
  }
  const r = checkReaction(s, o, c) ?? (ON_OWN_CHECK.has(def.id) ? checkTurn(s, c) : null);
  return r ?? (def.id === 'slam' ? checkSlam(s, c) : null);
}

/** The turn, the budget and the reaction: what the action's type asks. */
function budgetBlock(v: View, def: ActionDef): EngineError | null {
  const { s, o, c } = v;
  const t = def.type;
  if (isSlot(t)) {
    const b = checkBudget(s, c, t);
    return v.continuing === def.id && b?.code === 'BUDGET_EXHAUSTED' ? null : b;
  }
  if (t === 'free') {
    if (def.id === 'talk') return checkTalk(s, c);
    if (OFF_TURN_FREE.has(def.id)) return checkSpendWhileDown(s, c, def.id.slice('spend-'.length));
    return checkBudget(s, c, 'free');
  }
  if (t === 'reaction') return reactionBlock(v, def);
  if (def.id === 'delay') return checkDelay(s, c);
  if (def.id === 'act-now') return checkActNow(s, c);
  if (def.id === 'resistance-check') return checkTurn(s, c);
  if (t === 'varies') {
    const vt = def.id === 'load' ? o.variableActionDefault : variableRuling(s, o, def.id === 'use-skill' ? 'skill:*' : 'tool:*').type;
    return checkTurn(s, c) ?? (isSlot(vt) ? checkBudget(s, c, vt) : null);
  }
  return null;
}

function attackShape(v: View, def: ActionDef): Shape {
  const { s, o, c } = v;
  const kind = KINDS.find((k) => k === def.template?.['kind']) ?? 'close';
  const targets = v.others.filter((x) => x.side !== c.side && rangeWhy(o, c, x, kind) === null);
  const blocked = targets.length ? null : ruleError('UNKNOWN_TARGET', RULE.attack[kind], `No opponent is a legal target for a ${kind} attack.`);
  const params: ParamSpec[] = [{ name: 'targetId', kind: 'combatant', options: names(targets) }, ...(def.params ?? []).filter((p) => p.name !== 'targetId')];
  if (def.command === 'stunt') return { blocked, provokes: v.oaProvokes, params };
  const from = [...new Set(targets.flatMap((x) => names(attackProvokers(s, o, c, x, kind))))];
  const reason = kind === 'close' ? 'attacking an armed opponent while unarmed' : kind === 'court' ? 'attacking an opponent with Wits while you have none' : 'a ranged attack in a threatened square';
  return { blocked, provokes: from.length ? { from, reason } : null, params };
}

function moveShape(v: View, def: ActionDef): Shape {
  const { s, c } = v;
  if (def.command === 'charge') {
    const targets = v.others.filter((x) => x.side !== c.side && posOf(x));
    const blocked = checkMoveMode(s, c, 'walk') ?? (targets.length ? null : ruleError('UNKNOWN_TARGET', RULE.charge, 'No opponent on the grid.'));
    return { blocked, provokes: v.movementProvokes, params: [{ name: 'targetId', kind: 'combatant', options: names(targets) }, { name: 'path', kind: 'path', optional: true }] };
  }
  const mode = def.command === 'move' ? String(def.template?.['mode'] ?? 'walk') : 'walk';
  const blocked = checkMoveMode(s, c, mode);
  const m = v.movementProvokes;
  const provokes = m && (def.command === 'move' ? m : { ...m, reason: `leaving a threatened square unless moving ${def.command === 'advance' ? 'towards' : 'away from'} the nearest enemy` });
  const left = c.data.move?.remaining ?? 0;
  if (v.continuing === def.id) return { blocked, provokes, params: [{ name: 'path', kind: 'path', max: left, label: `up to ${left} more squares of this move action` }] };
  // the path's longest length at this speed (run, squeeze and crawl change it: the server's check has the last word)
  const max = Math.max(1, Math.floor(6 * 2 ** speedRank(s, c)));
  const params = !blocked && def.command === 'move' ? (def.params ?? []).map((p) => (p.kind === 'path' ? { ...p, max } : p)) : def.params;
  return { blocked, provokes, params };
}

function assistShape(v: View, def: ActionDef): Shape {
  const { s, c } = v;
  if (def.id === 'assist-skill') {
    const order = s.clock.order;
    const next = order[order.indexOf(c.id) + 1];
    const ally = next ? s.combatants[next] : undefined;
    const blocked = ally && ally.side === c.side ? null : ruleError('ILLEGAL_ACTION', RULE.assistDelay, '"must delay to the same point in the initiative order": delay to act just before the ally.');
    return { blocked, provokes: null, params: [{ name: 'allyId', kind: 'combatant', options: ally ? [ally.id] : [] }, { name: 'skill', kind: 'text' }] };
  }
  if (def.id === 'assist-combine') {
    const allies = v.others.filter((x) => x.side === c.side && combinablePowers(c, x).length > 0);
    const none = c.stats.powers.length ? ruleError('ILLEGAL_ACTION', RULE.assistCombine, 'No ally has a power with the same effect as one of yours.') : checkCombine(c, c);
    const params: ParamSpec[] = [{ name: 'allyId', kind: 'combatant', options: names(allies) }, { name: 'powerId', kind: 'text', optional: true }, ...(def.params ?? []).filter((p) => p.name !== 'allyId')];
    return { blocked: allies.length ? null : none, provokes: null, params };
  }
  return { blocked: null, provokes: def.command === 'assess' || def.command === 'influence' ? v.oaProvokes : null, params: def.params };
}

function itemShape(v: View, def: ActionDef): Shape | null {
  const c = v.c;
  if (def.id === 'drop-item' || def.id === 'sheathe') {
    const held = c.items.filter((i) => i.location !== 'carried' && i.location !== 'ground');
    const blocked = held.length ? null : ruleError('ILLEGAL_ACTION', def.id === 'sheathe' ? RULE.draw : RULE.drop, 'Nothing in hand.');
    return { blocked, provokes: null, params: [{ name: 'itemId', kind: 'item', options: names(held) }] };
  }
  if (def.id === 'draw') {
    const carried = c.items.filter((i) => i.location === 'carried');
    return { blocked: carried.length ? null : ruleError('ILLEGAL_ACTION', RULE.draw, 'Nothing to draw.'), provokes: null, params: [{ name: 'itemId', kind: 'item', options: names(carried) }] };
  }
  if (def.id === 'load') {
    const blocked = c.items.some((i) => (i.tags ?? []).includes('complex')) ? null : ruleError('ILLEGAL_ACTION', RULE.load, 'No complex weapon.');
    return { blocked, provokes: v.oaProvokes, params: def.params };
  }
  if (def.id === 'use-skill' || def.id === 'use-tool') return { blocked: null, provokes: variableRuling(v.s, v.o, 'skill:*').provokes ? v.oaProvokes : null, params: def.params };
  if (def.id === 'retrieve') return { blocked: null, provokes: v.oaProvokes, params: def.params };
  return null;
}

function otherShape(v: View, def: ActionDef): Shape {
  const { s, c } = v;
  const plain = (blocked: EngineError | null, provokes: Provokes = null): Shape => ({ blocked, provokes, params: def.params });
  switch (def.id) {
    case 'stand':
      return plain(checkProne(s, c), v.oaProvokes);
    case 'stand-acrobatic':
      return plain(checkProne(s, c));
    case 'escape':
      return plain(checkGrabbed(s, c), v.movementProvokes);
    case 'aim': {
      const aim = c.data.aim;
      const targets = aim ? v.others.filter((x) => x.id === aim.targetId) : v.others.filter((x) => x.side !== c.side);
      const blocked = targets.length ? null : ruleError('UNKNOWN_TARGET', RULE.aim, 'No target.');
      return { blocked, provokes: v.oaProvokes, params: [{ name: 'targetId', kind: 'combatant', options: names(targets) }] };
    }
    case 'maintain-aim':
      return plain(checkMaintainAim(c));
    case 'stance':
      return plain(c.data.attackedThisTurn ? ruleError('ILLEGAL_ACTION', RULE.stance, '"Before you make an Attack on your turn".') : null);
    case 'gambit':
      return plain(null, v.oaProvokes);
    case 'drop-prone':
      return plain(checkNotProne(s, c));
    case 'switch-alternate':
      return plain(c.stats.powers.some((p) => p.alternates.length) ? null : ruleError('ILLEGAL_ACTION', RULE.switchAlternate, 'No power with alternate effects.'));
    case 'command':
      return plain(v.others.some((x) => x.stats.commander === c.id) ? null : ruleError('ILLEGAL_ACTION', RULE.command, 'No character under your control.'));
  }
  if (def.command === 'spend') {
    const pool = (['destiny', 'fate', 'corruption'] as const).filter((p) => c.data[p] > 0);
    const blocked = pool.length ? null : ruleError('BUDGET_EXHAUSTED', RULE.destiny, 'No Destiny, Fate or Corruption to spend.');
    return { blocked, provokes: null, params: [{ name: 'pool', kind: 'choice', options: pool }] };
  }
  return plain(null);
}

/** SURGE: the benefits that name something (a trait, a power's alternate effect, an ongoing effect on you). */
function surgeShape(v: View, def: ActionDef): Shape | null {
  const c = v.c;
  if (def.id === 'surge-boost') return { blocked: null, provokes: null, params: [{ name: 'trait', kind: 'text' }] };
  if (def.id === 'surge-alternate-effect') {
    const powers = c.stats.powers.filter((p) => p.alternates.length);
    const blocked = powers.length ? null : ruleError('ILLEGAL_ACTION', RULE.surge, 'No power with alternate effects.');
    return { blocked, provokes: null, params: [{ name: 'powerId', kind: 'choice', options: names(powers) }, { name: 'alternate', kind: 'text' }] };
  }
  if (def.id === 'surge-resistance') {
    const effects = v.s.effects.filter((e) => e.targetId === c.id);
    const blocked = effects.length ? null : ruleError('ILLEGAL_ACTION', RULE.surge, 'No ongoing effect on you to resist.');
    return { blocked, provokes: null, params: [{ name: 'effectId', kind: 'choice', options: names(effects) }] };
  }
  return null;
}

/** Targets, reach and provocation, once the budget allows the action. */
function shapeOf(v: View, def: ActionDef): Shape {
  if (def.command === 'attack' || def.command === 'stunt') return attackShape(v, def);
  if (def.command === 'charge' || def.command === 'move' || def.command === 'advance' || def.command === 'withdraw') return moveShape(v, def);
  if (def.command === 'assist' || def.command === 'influence' || def.command === 'assess' || def.id === 'trick') return assistShape(v, def);
  return itemShape(v, def) ?? surgeShape(v, def) ?? otherShape(v, def);
}

function catalogueOption(v: View, def: ActionDef): ActionOption {
  // a readied character "cannot take any other Reactions" (the command's own refusal, window or not)
  const pre = (def.id === 'opportunity-attack' ? checkReadiedWaits(v.c) : null) ?? windowBlock(v, def.command) ?? budgetBlock(v, def);
  const shape: Shape = pre ? { blocked: pre, provokes: null, params: def.params } : shapeOf(v, def);
  let blocked = shape.blocked;
  // "You cannot, however, normally split up your move action": whatever else is open
  if (def.command === 'move' && !windowBlock(v, def.command) && slotFor(v.c.data, 'move') === null) blocked = checkSplit(v.c) ?? blocked;
  const provokes = def.id === 'readied' && !blocked ? null : shape.provokes;
  const opt: ActionOption = {
    command: def.command,
    action: def.id,
    label: def.label,
    kind: def.type,
    cost: costOf(v.c, def.type),
    provokes,
    params: shape.params,
    template: { combatantId: v.c.id, ...(def.template ?? {}) },
    allowed: !blocked,
    rule: def.rule,
  };
  if (blocked) opt.blocked = blocked;
  return opt;
}

const POWER_DEFS = new Map(ACTIONS.filter((a) => a.id.startsWith('power-')).map((a) => [a.id, a]));

/** Powers: one option per power, typed by the power. */
function powerOption(v: View, p: Power): ActionOption {
  const { s, o, c } = v;
  const def = POWER_DEFS.get(`power-${p.range}`)!;
  let blocked = windowBlock(v, def.command) ?? checkTurn(s, c);
  if (!blocked) blocked = p.action === 'free' ? checkFree(s, c) : checkBudget(s, c, p.action);
  if (!blocked) blocked = checkAreaPower(s, c, p);
  const targets = p.range === 'personal' ? [c] : Object.values(s.combatants).filter((x) => powerReachWhy(o, c, p, x) === null);
  if (!blocked && !targets.length) blocked = ruleError('UNKNOWN_TARGET', RULE.power[p.range], 'No target in range.');
  return {
    command: 'use-power',
    action: def.id,
    label: `${p.name} (${p.range}${p.area ? ', area' : ''})`,
    kind: p.action,
    cost: costOf(c, p.action),
    provokes: (p.range === 'ranged' || p.range === 'gossip') && v.oaProvokes ? v.oaProvokes : null,
    params: [{ name: 'targetIds', kind: 'list', options: names(targets) }],
    template: { combatantId: c.id, powerId: p.id },
    allowed: !blocked,
    ...(blocked ? { blocked } : {}),
    rule: def.rule,
  };
}

/** A quick action as part of a reaction. */
function quickOption(v: View, w: ReactionWindow): ActionOption {
  const why = checkQuick(v.s, v.c);
  const rule = 'may even use it as part of a reaction, so long as you did not use it during your last turn';
  const opt: ActionOption = { command: w.allowed[0] ?? 'opportunity-attack', action: 'quick-in-reaction', label: 'Quick action as part of the reaction', kind: 'quick', cost: { quick: 1 }, provokes: null, params: [{ name: 'quick', kind: 'text' }], template: { combatantId: v.c.id }, allowed: !why, rule };
  if (why) opt.blocked = why;
  return opt;
}

export function legalActions(s: State, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const o = optionsOf(s);
  const threateners = threatenersOf(s, o, c);
  const from = names(threateners);
  const move = c.data.move;
  const v: View = {
    s,
    o,
    c,
    w: s.reaction,
    others: Object.values(s.combatants).filter((x) => x.id !== id),
    movementProvokes: from.length ? { from, reason: 'leaving a threatened square' } : null,
    oaProvokes: from.length ? { from, reason: 'an [OA] action in a threatened square' } : null,
    continuing: move && move.remaining > 0 && !move.afterStandard ? `move-${move.mode}` : null,
  };
  const out: ActionOption[] = [];
  for (const def of ACTIONS) if (!def.id.startsWith('power-')) out.push(catalogueOption(v, def));
  for (const p of c.stats.powers) out.push(powerOption(v, p));
  if (v.w && v.w.responses[id] === 'pending') out.push(quickOption(v, v.w));
  return out;
}
