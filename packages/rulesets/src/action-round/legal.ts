import type { ActionOption, EngineError, ParamSpec } from '@fray/engine';
import { ACTIONS, type ActionDef } from './catalogue.js';
import type { Options } from './options.js';
import { budgetGate, err, freeGate, reactionGate, slotFor, threatenersOf, turnGate, cond } from './rules.js';
import { attackProvokers, quickGate, rangeGate, type AttackKind } from './resolve.js';
import { powerTargetGate, variableRuling, speedRank } from './actions.js';
import { combinablePowers, combineGate } from './powers.js';
import { isIncapacitated, posOf, type C } from './space.js';
import type { Slot, State } from './state.js';

const OFF_TURN_FREE = new Set(['talk', 'spend-coup', 'spend-edit-scene', 'spend-improve-roll', 'spend-inspiration', 'spend-recover', 'spend-stunt']);

function costOf(c: C, type: string): Record<string, number> | undefined {
  if (type === 'standard' || type === 'move' || type === 'quick') {
    const slot = slotFor(c.data, type) ?? type;
    return { [slot]: 1 };
  }
  if (type === 'free' || type === 'reaction') return { [type]: 1 };
  return undefined;
}

function names(cs: C[]): string[] {
  return cs.map((x) => x.id);
}

export function legalActions(state: State, id: string): ActionOption[] {
  const s = state;
  const o = s.options as Options;
  const c = s.combatants[id] as C | undefined;
  if (!c) return [];
  const out: ActionOption[] = [];
  const w = s.reaction;
  const others = Object.values(s.combatants).filter((x) => x.id !== id) as C[];
  const threateners = threatenersOf(s, o, c);
  const movementProvokes = threateners.length ? { from: names(threateners), reason: 'leaving a threatened square' } : null;
  const oaProvokes = threateners.length ? { from: names(threateners), reason: 'an [OA] action in a threatened square' } : null;

  const push = (def: ActionDef, blocked: EngineError | null, rest: Partial<ActionOption>) => {
    const opt: ActionOption = {
      command: def.command,
      action: def.id,
      label: def.label,
      kind: def.type,
      cost: costOf(c, def.type),
      provokes: null,
      params: def.params,
      template: { combatantId: id, ...(def.template ?? {}) },
      allowed: !blocked,
      rule: def.rule,
      ...rest,
    };
    if (blocked) opt.blocked = blocked;
    out.push(opt);
  };

  const windowBlock = (def: ActionDef): EngineError | null => {
    if (!w) return null;
    if (w.allowed.includes(def.command) && w.responses[id] === 'pending') return null;
    return err('REACTION_PENDING', 'reactions', `Waiting for reactions (${w.kind}).`);
  };

  for (const def of ACTIONS) {
    if (def.id.startsWith('power-')) continue;
    let blocked: EngineError | null = windowBlock(def);
    let provokes: ActionOption['provokes'] = null;
    let params: ParamSpec[] | undefined = def.params;
    const t = def.type;
    const continuing = !!c.data.move && c.data.move.remaining > 0 && !c.data.move.afterStandard && def.id === `move-${c.data.move.mode}`;
    if (!blocked) {
      if (t === 'standard' || t === 'move' || t === 'quick') blocked = budgetGate(s, o, c, t);
      // an open move action of this mode continues without a new slot
      if (continuing && blocked?.code === 'BUDGET_EXHAUSTED') blocked = null;
      else if (t === 'free') blocked = OFF_TURN_FREE.has(def.id) ? (isIncapacitated(s, c) && def.id !== 'spend-recover' ? (def.id === 'talk' ? err('ILLEGAL_ACTION', 'incapacitated', 'Incapacitated.') : err('ILLEGAL_ACTION', 'destiny-unconscious', 'Unable to take free actions: only the Recover spend (a 6 needed).')) : def.id === 'talk' ? freeGate(s, c) : null) : budgetGate(s, o, c, 'free');
      else if (t === 'reaction') {
        if (def.id === 'opportunity-attack' || def.id === 'counter-stunt' || def.id === 'readied') {
          if (!w || !w.allowed.includes(def.command) || w.responses[id] !== 'pending') blocked = err('ILLEGAL_ACTION', def.id, 'Only when triggered: "you react in response to something else happening".');
        } else {
          blocked = reactionGate(s, o, c);
          if (!blocked && (def.id === 'smash' || def.id === 'slam' || def.id === 'raise' || def.id === 'hunch')) blocked = turnGate(s, c);
          if (!blocked && def.id === 'slam' && !(c.data.movedRound === s.clock.round && c.data.moved > 0)) blocked = err('ILLEGAL_ACTION', 'slam', '"When you move before an attack": you have not moved this round.');
        }
      } else if (def.id === 'delay') {
        blocked = turnGate(s, c) ?? (c.data.acted ? err('ILLEGAL_ACTION', 'delay', 'You cannot delay if you have already taken an action on your turn.') : null);
      } else if (def.id === 'act-now') {
        blocked = !c.data.delaying ? err('ILLEGAL_ACTION', 'delay', 'Not delaying.') : s.clock.current && (s.combatants[s.clock.current] as C).data.acted ? err('ILLEGAL_ACTION', 'delay', 'Wait for the current turn to end.') : s.rs.turnSeq <= c.data.delayedSeq + 1 ? err('ILLEGAL_ACTION', 'delay', 'No other character has acted since you delayed.') : null;
      } else if (def.id === 'resistance-check') {
        blocked = turnGate(s, c);
      } else if (t === 'varies') {
        const ruling = variableRuling(s, o, def.id === 'use-skill' ? 'skill:*' : 'tool:*');
        const vt = def.id === 'load' ? o.variableActionDefault : ruling.type;
        blocked = turnGate(s, c) ?? (vt === 'standard' || vt === 'move' || vt === 'quick' ? budgetGate(s, o, c, vt) : null);
      }
    }
    // targets, reach and provocation
    if (!blocked) {
      if (def.command === 'attack' || def.command === 'stunt') {
        const kind = ((def.template?.['kind'] as AttackKind | undefined) ?? 'close') as AttackKind;
        const targets = others.filter((x) => x.side !== c.side && rangeGate(s, o, c, x, kind) === null);
        if (targets.length === 0) blocked = err('UNKNOWN_TARGET', `attack-${kind}`, `No opponent is a legal target for a ${kind} attack.`);
        params = [{ name: 'targetId', kind: 'combatant', options: names(targets) }, ...(def.params ?? []).filter((p) => p.name !== 'targetId')];
        if (def.command === 'stunt') provokes = oaProvokes;
        else {
          const from = [...new Set(targets.flatMap((x) => names(attackProvokers(s, o, c, x, kind))))];
          provokes = from.length ? { from, reason: kind === 'close' ? 'attacking an armed opponent while unarmed' : kind === 'court' ? 'attacking an opponent with Wits while you have none' : 'a ranged attack in a threatened square' } : null;
        }
      } else if (def.command === 'charge') {
        const targets = others.filter((x) => x.side !== c.side && posOf(x));
        if (cond(s, id, 'prone')) blocked = err('ILLEGAL_ACTION', 'crawl', '"While prone, you can only move by crawling."');
        else if (!targets.length) blocked = err('UNKNOWN_TARGET', 'charge', 'No opponent on the grid.');
        params = [{ name: 'targetId', kind: 'combatant', options: names(targets) }, { name: 'path', kind: 'path', optional: true }];
        provokes = movementProvokes;
      } else if (def.command === 'move' || def.command === 'advance' || def.command === 'withdraw') {
        const prone = cond(s, id, 'prone');
        if (def.id === 'move-crawl' ? !prone : prone) blocked = err('ILLEGAL_ACTION', 'crawl', prone ? '"While prone, you can only move by crawling."' : 'Only while prone.');
        if (def.command === 'move' && c.data.move && c.data.move.afterStandard && c.data.move.remaining > 0 && slotFor(c.data, 'move') === null) {
          blocked = err('ILLEGAL_ACTION', 'no-split-move', '"You cannot, however, normally split up your move action before and after your standard action."');
        }
        if (continuing) params = [{ name: 'path', kind: 'path', max: c.data.move!.remaining, label: `up to ${c.data.move!.remaining} more squares of this move action` }];
        provokes = movementProvokes && (def.command === 'move' ? movementProvokes : { ...movementProvokes, reason: `leaving a threatened square unless moving ${def.command === 'advance' ? 'towards' : 'away from'} the nearest enemy` });
        // the path's longest length at this speed (run, squeeze and crawl change it: the server's check has the last word)
        if (!blocked && def.command === 'move' && !continuing) params = (params ?? []).map((p) => (p.kind === 'path' ? { ...p, max: Math.max(1, Math.floor(6 * 2 ** speedRank(s, c))) } : p));
      } else if (def.id === 'stand') {
        if (!cond(s, id, 'prone')) blocked = err('ILLEGAL_ACTION', 'stand', 'Not prone.');
        provokes = oaProvokes;
      } else if (def.id === 'stand-acrobatic') {
        if (!cond(s, id, 'prone')) blocked = err('ILLEGAL_ACTION', 'stand', 'Not prone.');
      } else if (def.id === 'escape') {
        if (!s.effects.some((e) => e.targetId === id && (e.data as { kind?: string } | undefined)?.kind === 'grab')) blocked = err('ILLEGAL_ACTION', 'escape', 'Not grabbed.');
        provokes = movementProvokes;
      } else if (def.id === 'aim') {
        const targets = c.data.aim ? others.filter((x) => x.id === c.data.aim!.targetId) : others.filter((x) => x.side !== c.side);
        params = [{ name: 'targetId', kind: 'combatant', options: names(targets) }];
        if (!targets.length) blocked = err('UNKNOWN_TARGET', 'aim', 'No target.');
        provokes = oaProvokes;
      } else if (def.id === 'maintain-aim') {
        if (!c.data.aim) blocked = err('ILLEGAL_ACTION', 'aim', 'Not aiming.');
        else if (c.data.aim.maintainedTurn === c.data.turnsTaken) blocked = err('ILLEGAL_ACTION', 'aim', 'The aim is already held this turn.');
      } else if (def.id === 'stance') {
        if (c.data.attackedThisTurn) blocked = err('ILLEGAL_ACTION', 'stance', '"Before you make an Attack on your turn".');
      } else if (def.id === 'assist-skill') {
        const order = s.clock.order;
        const next = order[order.indexOf(id) + 1];
        const ally = next ? (s.combatants[next] as C) : undefined;
        if (!ally || ally.side !== c.side) blocked = err('ILLEGAL_ACTION', 'assist-delay', '"must delay to the same point in the initiative order": delay to act just before the ally.');
        params = [{ name: 'allyId', kind: 'combatant', options: ally ? [ally.id] : [] }, { name: 'skill', kind: 'text' }];
      } else if (def.id === 'assist-combine') {
        const allies = others.filter((x) => x.side === c.side && combinablePowers(c, x).length > 0);
        if (!allies.length) blocked = c.stats.powers.length ? err('ILLEGAL_ACTION', 'assist-combine', 'No ally has a power with the same effect as one of yours.') : combineGate(c, c);
        params = [{ name: 'allyId', kind: 'combatant', options: names(allies) }, { name: 'powerId', kind: 'text', optional: true }, ...(def.params ?? []).filter((p) => p.name !== 'allyId')];
      } else if (def.command === 'assist' || def.command === 'influence' || def.command === 'assess' || def.id === 'trick') {
        if (def.command === 'assess' || def.command === 'influence') provokes = oaProvokes;
      } else if (def.id === 'escape' || def.id === 'retrieve' || def.id === 'gambit') {
        provokes = oaProvokes;
      } else if (def.id === 'use-skill' || def.id === 'use-tool') {
        provokes = variableRuling(s, o, 'skill:*').provokes ? oaProvokes : null;
      } else if (def.id === 'load') {
        if (!c.items.some((i) => (i.tags ?? []).includes('complex'))) blocked = err('ILLEGAL_ACTION', 'load', 'No complex weapon.');
        provokes = oaProvokes;
      } else if (def.command === 'spend') {
        const pool = (['destiny', 'fate', 'corruption'] as const).filter((p) => c.data[p] > 0);
        if (!pool.length) blocked = err('BUDGET_EXHAUSTED', 'destiny', 'No Destiny, Fate or Corruption to spend.');
        params = [{ name: 'pool', kind: 'choice', options: pool }];
      } else if (def.id === 'drop-item' || def.id === 'sheathe') {
        const held = c.items.filter((i) => i.location !== 'carried' && i.location !== 'ground');
        if (!held.length) blocked = err('ILLEGAL_ACTION', def.id, 'Nothing in hand.');
        params = [{ name: 'itemId', kind: 'item', options: names(held as never) }];
      } else if (def.id === 'draw') {
        const carried = c.items.filter((i) => i.location === 'carried');
        if (!carried.length) blocked = err('ILLEGAL_ACTION', 'draw', 'Nothing to draw.');
        params = [{ name: 'itemId', kind: 'item', options: names(carried as never) }];
      } else if (def.id === 'drop-prone' && cond(s, id, 'prone')) {
        blocked = err('ILLEGAL_ACTION', 'drop', 'Already prone.');
      } else if (def.id === 'switch-alternate' && !c.stats.powers.some((p) => p.alternates.length)) {
        blocked = err('ILLEGAL_ACTION', 'switch-alternate', 'No power with alternate effects.');
      } else if (def.id === 'command' && !others.some((x) => x.stats.commander === id)) {
        blocked = err('ILLEGAL_ACTION', 'command', 'No character under your control.');
      } else if (def.id === 'surge-additional-action' || def.id.startsWith('surge-')) {
        // a surge is available at any time outside reaction windows
      }
    }
    if (def.command === 'move' && !windowBlock(def) && c.data.move && c.data.move.afterStandard && c.data.move.remaining > 0 && slotFor(c.data, 'move') === null) {
      blocked = err('ILLEGAL_ACTION', 'no-split-move', '"You cannot, however, normally split up your move action before and after your standard action."');
    }
    if (def.id === 'readied' && !blocked) provokes = null;
    push(def, blocked, { provokes, params });
  }

  // Powers: one option per power, typed by the power.
  for (const p of c.stats.powers) {
    const def = ACTIONS.find((a) => a.id === `power-${p.range}`)!;
    let blocked: EngineError | null = windowBlock(def) ?? turnGate(s, c);
    const type = p.action as Slot | 'free';
    if (!blocked) blocked = type === 'free' ? freeGate(s, c) : budgetGate(s, o, c, type);
    if (!blocked && p.area && s.rs.areaPowerUsed.includes(id)) blocked = err('ILLEGAL_ACTION', 'one-area-power', '"you can only use one Area Power per round, regardless of action type used."');
    const targets = p.range === 'personal' ? [c] : (Object.values(s.combatants) as C[]).filter((x) => powerTargetGate(s, o, c, p, x) === null);
    if (!blocked && !targets.length) blocked = err('UNKNOWN_TARGET', `power-${p.range}`, 'No target in range.');
    out.push({
      command: 'use-power',
      action: def.id,
      label: `${p.name} (${p.range}${p.area ? ', area' : ''})`,
      kind: p.action,
      cost: costOf(c, p.action),
      provokes: (p.range === 'ranged' || p.range === 'gossip') && oaProvokes ? oaProvokes : null,
      params: [{ name: 'targetIds', kind: 'list', options: names(targets) }],
      template: { combatantId: id, powerId: p.id },
      allowed: !blocked,
      ...(blocked ? { blocked } : {}),
      rule: def.rule,
    });
  }
  // A quick action as part of a reaction.
  if (w && w.responses[id] === 'pending') {
    const why = quickGate(s, c);
    out.push({ command: w.allowed[0] ?? 'opportunity-attack', action: 'quick-in-reaction', label: 'Quick action as part of the reaction', kind: 'quick', cost: { quick: 1 }, provokes: null, params: [{ name: 'quick', kind: 'text' }], template: { combatantId: id }, allowed: !why, ...(why ? { blocked: err('ILLEGAL_ACTION', 'quick-in-reaction', why) } : {}), rule: 'may even use it as part of a reaction, so long as you did not use it during your last turn' });
  }
  return out;
}
