import type { ActionOption, EngineError } from '@fray/engine';
import { actionListOf, type ActInput } from './catalogue.js';
import { actGate, checkAct, checkReorder, targetCheck } from './checks/index.js';
import { inHand, isEnemy, membersOfGroup, posOf, type ActionKind, type LState } from './state/index.js';

const cost = (k: string): Record<string, number> => (k === 'free' ? { free: 1 } : k === 'minor' ? { minor: 1 } : k === 'major' ? { major: 1 } : { [k]: 1 });

/** allowed when `ok`; otherwise blocked, with `why` */
function block(ok: boolean, why: EngineError | null | undefined): Pick<ActionOption, 'allowed' | 'blocked'> {
  if (ok) return { allowed: true };
  return why ? { allowed: false, blocked: why } : { allowed: false };
}

/** What `id` may do right now, with the reason for everything it may not. */
export function legalActions(s: LState, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const out: ActionOption[] = [];
  const phase = s.clock.phase;
  const notYours = (rule: string, message: string): EngineError => ({ code: 'NOT_YOUR_TURN', rule, message });

  if (phase === 'turn-order' || phase === 'reorder') {
    const mine = s.rs.queue[0] === id;
    const rule = phase === 'turn-order' ? 'legends.turn-order.initial' : 'legends.turn-order.change';
    const wait = mine ? null : notYours(rule, 'Not your turn-order decision yet.');
    const places: number[] = [];
    for (let i = 0; i < s.clock.order.length; i++) if (i !== s.clock.order.indexOf(id) && !checkReorder(s, id, i, phase === 'turn-order')) places.push(i);
    out.push({ command: 'changeTurnOrder', label: 'Keep my place in turn order', kind: 'decision', template: { combatantId: id }, rule, ...block(mine, wait) });
    out.push({
      command: 'changeTurnOrder',
      label: phase === 'turn-order' ? 'Move down in turn order' : 'Move to another place in turn order',
      kind: 'decision',
      params: [{ name: 'index', kind: 'choice', options: places }],
      template: { combatantId: id },
      rule,
      ...block(mine && places.length > 0, wait ?? { code: 'ILLEGAL_ACTION', rule: 'legends.turn-order.adjacent-enemies', message: 'No place to move to.' }),
    });
    return out;
  }

  if (phase === 'movement') {
    const w = s.reaction;
    if (w && w.responses[id] === 'pending' && w.kind === 'legends.reactive-movement') {
      out.push({ command: 'react', label: 'Use your prepared reactive movement', kind: 'reaction', params: [{ name: 'destination', kind: 'position' }], template: { combatantId: id }, allowed: true, rule: 'legends.reactive-movement' });
      return out;
    }
    const pending = s.rs.pending.find((p) => p.combatantId === id && !p.finished);
    if (pending) {
      out.push({
        command: 'finishMove',
        label: `Finish your movement (margin ${pending.margin})`,
        kind: 'movement',
        params: [
          { name: 'rush', kind: 'choice', options: ['none', 'self', 'external'] },
          { name: 'keepTogether', kind: 'boolean', optional: true },
          { name: 'prepareRush', kind: 'text', optional: true },
        ],
        template: { combatantId: id },
        allowed: true,
        rule: 'legends.rushing',
      });
      return out;
    }
    const mine = s.rs.queue[0] === id && s.rs.pending.length === 0 && !w;
    const wait: EngineError | null = mine
      ? null
      : w
        ? { code: 'REACTION_PENDING', rule: 'engine.reactions', message: 'Waiting for reactive movement.' }
        : s.rs.pending.length > 0
          ? notYours('legends.movement', 'Waiting for a movement roll to be finished.')
          : notYours('legends.movement.order', s.rs.movers.includes(id) ? 'Not your movement decision yet.' : 'No movement for you this phase.');
    const later = s.clock.order.slice(s.clock.order.indexOf(id) + 1).filter((x) => s.rs.queue.includes(x));
    const g = posOf(c).group;
    out.push({ command: 'move', label: 'Movement roll on SPD', kind: 'movement', cost: { movementRoll: 1 }, params: [{ name: 'destination', kind: 'position' }, { name: 'breakout', kind: 'list', optional: true }], template: { combatantId: id }, rule: 'legends.movement', ...block(mine && !c.data.carriedBy, wait) });
    out.push({ command: 'stay', label: 'Do not move', kind: 'movement', template: { combatantId: id }, rule: 'legends.movement', ...block(mine, wait) });
    out.push({
      command: 'prepareReaction',
      label: 'Prepare reactive movement',
      kind: 'movement',
      params: [{ name: 'watch', kind: 'combatant', options: later }, { name: 'anticipate', kind: 'text' }],
      template: { combatantId: id },
      rule: 'legends.reactive-movement',
      ...block(mine && later.length > 0, wait ?? { code: 'ILLEGAL_ACTION', rule: 'legends.reactive-movement', message: 'No later character left to react to.' }),
    });
    out.push({
      command: 'groupMove',
      label: 'Move with your group',
      kind: 'movement',
      params: [{ name: 'destination', kind: 'position' }],
      template: { combatantId: id },
      rule: 'legends.grouped-movement',
      ...block(mine && g !== null, wait ?? { code: 'ILLEGAL_ACTION', rule: 'legends.grouped-movement', message: 'Not grouped-up.' }),
    });
    return out;
  }

  if (phase === 'group-defense' || s.rs.overflow.length > 0) {
    const g = posOf(c).group;
    const due = g !== null && (s.rs.queue.includes(g) || s.rs.overflow.includes(g));
    if (phase === 'group-defense' || due) {
      out.push({
        command: 'declareGroupDefense',
        label: s.rs.overflow.includes(g ?? '') ? 'Choose who your group keeps defending' : 'Declare group defense',
        kind: 'decision',
        params: [
          { name: 'protected', kind: 'list', options: g ? membersOfGroup(s, g).map((m) => m.id) : [] },
          { name: 'objects', kind: 'list', optional: true },
        ],
        template: { combatantId: id },
        rule: 'legends.group-defense',
        ...block(due, { code: 'ILLEGAL_ACTION', rule: 'legends.group-defense', message: g ? 'Your group has declared.' : 'Not grouped-up.' }),
      });
    }
    if (phase === 'group-defense') return out;
  }

  if (phase !== 'action') return out;
  const defs = actionListOf(s, c);
  const targetsFor = new Map<object, string[]>();
  // checkAct refuses every action with this when it refuses one (the phase, the turn, group defense)
  const gate = actGate(s, c);
  for (const d of defs) {
    for (const kind of d.kinds as ActionKind[]) {
      const a: ActInput = { combatantId: id, action: d.key, as: kind };
      let e = gate ? { ...gate } : checkAct(s, a, true);
      const params: ActionOption['params'] = [];
      if (d.target !== 'none' && d.target !== 'self') {
        // the same list for every kind of this action (the target checks do not depend on the kind)
        let targets = targetsFor.get(d);
        if (targets) targets = targets.slice();
        else {
          targets = [];
          for (const t of Object.keys(s.combatants)) {
            const tc = s.combatants[t]!;
            if (!targetCheck(s, c, d, tc, !isEnemy(c, tc), false) && (t !== id || d.target === 'combatant')) targets.push(t);
          }
          targetsFor.set(d, targets.slice());
        }
        params.push({ name: 'targetId', kind: 'combatant', options: targets });
        if (!e && targets.length === 0) e = { code: 'UNKNOWN_TARGET', rule: `legends.${d.key}`, message: `No one to ${d.name.toLowerCase()}.` };
      }
      if (['drop', 'swap-hands', 'draw', 'offer-from-inventory', 'give-into-inventory'].includes(d.key)) {
        params.push({ name: 'itemId', kind: 'item', options: c.items.filter((i) => (d.key === 'drop' || d.key === 'swap-hands' ? inHand(i) : i.location === 'carried')).map((i) => i.id), optional: d.key === 'drop' });
      }
      if (d.key === 'melee-attack' || d.key === 'ranged-attack') params.push({ name: 'weaponId', kind: 'item', options: c.items.filter(inHand).map((i) => i.id), optional: d.key === 'melee-attack' });
      if (d.key === 'inventory') params.push({ name: 'ops', kind: 'list' });
      if (d.key === 'stow-for-ally') {
        const fallen = Object.values(s.combatants)
          .filter((x) => !isEnemy(c, x))
          .flatMap((x) => x.items.filter((i) => i.location === 'ground' && (i.props?.dropped as { fallen?: boolean } | undefined)?.fallen).map((i) => i.id));
        params.push({ name: 'itemId', kind: 'item', options: fallen });
      }
      if (d.key === 'swap-hands') params.push({ name: 'hand', kind: 'choice', options: ['left-hand', 'right-hand', 'both-hands'] });
      const option: ActionOption = {
        command: 'act',
        action: d.key,
        label: `${d.name} (${kind})`,
        kind,
        cost: cost(kind),
        params,
        template: { combatantId: id, action: d.key, as: kind },
        rule: d.rule,
        allowed: !e,
      };
      // as `...block(!e, e)`, without the spread
      if (e) option.blocked = e;
      out.push(option);
    }
  }
  const mine = s.clock.current === id;
  out.push({ command: 'turn.end', label: 'End your turn', kind: 'turn', template: { combatantId: id }, rule: 'legends.turns', ...block(mine, notYours('legends.turns', 'Not your turn.')) });
  const fresh = mine && c.data.turn.seq.length === 0 && s.clock.round > 1;
  out.push({
    command: 'forfeitTurn',
    label: 'Forfeit this turn to change turn order next round',
    kind: 'turn',
    template: { combatantId: id },
    rule: 'legends.turn-order.change',
    ...block(fresh, mine ? { code: 'ILLEGAL_ACTION', rule: 'legends.turn-order.change', message: s.clock.round === 1 ? 'Not in the first round.' : 'Only a turn with no actions taken can be forfeited.' } : notYours('legends.turns', 'Not your turn.')),
  });
  const g = posOf(c).group;
  if (g && c.items.some(inHand)) {
    const mates = membersOfGroup(s, g).filter((m) => m.id !== id).map((m) => m.id);
    out.push({ command: 'offerItem', label: 'Offer an item in your hand', kind: 'none', params: [{ name: 'itemId', kind: 'item', options: c.items.filter(inHand).map((i) => i.id) }, { name: 'toId', kind: 'combatant', options: mates }], template: { combatantId: id }, rule: 'legends.giving', allowed: mates.length > 0 });
  }
  return out;
}
