import { ruleError, type EngineError, type ParamSpec } from '@fray/engine';
import { RULE, type ActionDef } from '../catalogue/index.js';
import { checkCombine, checkGrabbed, checkMaintainAim, checkMoveMode, checkNotProne, checkProne } from '../checks/index.js';
import { combinablePowers, rangeWhy } from '../mechanics/combat.js';
import { variableRuling } from '../mechanics/rulings.js';
import { attackProvokers } from '../mechanics/threat.js';
import { posOf, speedRank, type AttackKind } from '../state/index.js';
import { names, type Provokes, type Shape, type View } from './view.js';

/** Targets, reach and provocation of each action, once its type allows it. */

const KINDS: readonly AttackKind[] = ['close', 'ranged', 'court', 'rumor'];

function attackShape(v: View, def: ActionDef): Shape {
  const { s, o, c } = v;
  const kind = KINDS.find((k) => k === def.template?.['kind']) ?? 'close';
  const targets = v.others.filter((x) => x.side !== c.side && rangeWhy(o, c, x, kind) === null);
  const blocked = targets.length
    ? null
    : ruleError('UNKNOWN_TARGET', RULE.attack[kind], `No opponent is a legal target for a ${kind} attack.`);
  const params: ParamSpec[] = [
    { name: 'targetId', kind: 'combatant', options: names(targets) },
    ...(def.params ?? []).filter((p) => p.name !== 'targetId'),
  ];
  if (def.command === 'stunt') return { blocked, provokes: v.oaProvokes, params };
  // a ranged attack or a rumor provokes whoever threatens the attacker, whatever the target
  const ranged = kind === 'ranged' || kind === 'rumor';
  const from = ranged
    ? targets.length
      ? v.threateners
      : []
    : [...new Set(targets.flatMap((x) => names(attackProvokers(s, o, c, x, kind))))];
  const reason =
    kind === 'close'
      ? 'attacking an armed opponent while unarmed'
      : kind === 'court'
        ? 'attacking an opponent with Wits while you have none'
        : 'a ranged attack in a threatened square';
  return { blocked, provokes: from.length ? { from, reason } : null, params };
}

function moveShape(v: View, def: ActionDef): Shape {
  const { s, c } = v;
  if (def.command === 'charge') {
    const targets = v.others.filter((x) => x.side !== c.side && posOf(x));
    const blocked =
      checkMoveMode(s, c, 'walk') ?? (targets.length ? null : ruleError('UNKNOWN_TARGET', RULE.charge, 'No opponent on the grid.'));
    return {
      blocked,
      provokes: v.movementProvokes,
      params: [
        { name: 'targetId', kind: 'combatant', options: names(targets) },
        { name: 'path', kind: 'path', optional: true },
      ],
    };
  }
  const mode = def.command === 'move' ? String(def.template?.['mode'] ?? 'walk') : 'walk';
  const blocked = checkMoveMode(s, c, mode);
  const m = v.movementProvokes;
  const provokes =
    m &&
    (def.command === 'move'
      ? m
      : {
          ...m,
          reason: `leaving a threatened square unless moving ${def.command === 'advance' ? 'towards' : 'away from'} the nearest enemy`,
        });
  const left = c.data.move?.remaining ?? 0;
  if (v.continuing === def.id)
    return {
      blocked,
      provokes,
      params: [{ name: 'path', kind: 'path', max: left, label: `up to ${left} more squares of this move action` }],
    };
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
    const blocked =
      ally && ally.side === c.side
        ? null
        : ruleError(
            'ILLEGAL_ACTION',
            RULE.assistDelay,
            '"must delay to the same point in the initiative order": delay to act just before the ally.',
          );
    return {
      blocked,
      provokes: null,
      params: [
        { name: 'allyId', kind: 'combatant', options: ally ? [ally.id] : [] },
        { name: 'skill', kind: 'text' },
      ],
    };
  }
  if (def.id === 'assist-combine') {
    const allies = v.others.filter((x) => x.side === c.side && combinablePowers(c, x).length > 0);
    const none = c.stats.powers.length
      ? ruleError('ILLEGAL_ACTION', RULE.assistCombine, 'No ally has a power with the same effect as one of yours.')
      : checkCombine(c, c);
    const params: ParamSpec[] = [
      { name: 'allyId', kind: 'combatant', options: names(allies) },
      { name: 'powerId', label: 'Power', kind: 'choice', options: powerChoices(c.stats.powers), optional: true },
      ...(def.params ?? []).filter((p) => p.name !== 'allyId'),
    ];
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
    return {
      blocked: carried.length ? null : ruleError('ILLEGAL_ACTION', RULE.draw, 'Nothing to draw.'),
      provokes: null,
      params: [{ name: 'itemId', kind: 'item', options: names(carried) }],
    };
  }
  if (def.id === 'load') {
    const blocked = c.items.some((i) => (i.tags ?? []).includes('complex'))
      ? null
      : ruleError('ILLEGAL_ACTION', RULE.load, 'No complex weapon.');
    return { blocked, provokes: v.oaProvokes, params: def.params };
  }
  if (def.id === 'use-skill' || def.id === 'use-tool')
    return { blocked: null, provokes: variableRuling(v.s, v.o, 'skill:*').provokes ? v.oaProvokes : null, params: def.params };
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
    case 'switch-alternate': {
      const powers = c.stats.powers.filter((p) => p.alternates.length);
      const blocked = powers.length ? null : ruleError('ILLEGAL_ACTION', RULE.switchAlternate, 'No power with alternate effects.');
      return { blocked, provokes: null, params: alternateParams(powers) };
    }
    case 'command': {
      // the characters under your control, ticked by name (the command takes a list)
      const minions = v.others.filter((x) => x.stats.commander === c.id);
      const blocked = minions.length ? null : ruleError('ILLEGAL_ACTION', RULE.command, 'No character under your control.');
      const options = minions.map((m) => ({ value: m.id, label: m.name }));
      return {
        blocked,
        provokes: null,
        params: [{ name: 'minionIds', label: 'Whom', kind: 'list', options }, ...(def.params ?? []).slice(1)],
      };
    }
  }
  if (def.command === 'spend') {
    const pool = (['destiny', 'fate', 'corruption'] as const).filter((p) => c.data[p] > 0);
    const blocked = pool.length ? null : ruleError('BUDGET_EXHAUSTED', RULE.destiny, 'No Destiny, Fate or Corruption to spend.');
    return { blocked, provokes: null, params: [{ name: 'pool', kind: 'choice', options: pool }] };
  }
  return plain(null);
}

type Power = { id: string; name: string; alternates: string[] };

/** Powers by their names (the id is sent). */
const powerChoices = (powers: Power[]) => powers.map((p) => ({ value: p.id, label: p.name }));

/** A power and the effect to switch it to, picked by their names: its alternates, or back to the power itself. */
function alternateParams(powers: Power[]): ParamSpec[] {
  const seen = new Set<string>();
  const effects = powers
    .flatMap((p) =>
      [...p.alternates, p.name].map((a) => ({ value: a, label: a === p.name ? `${a} (the power itself)` : `${a} (${p.name})` })),
    )
    .filter((o) => !seen.has(o.value) && (seen.add(o.value), true));
  return [
    { name: 'powerId', label: 'Power', kind: 'choice', options: powerChoices(powers) },
    { name: 'alternate', label: 'Alternate effect', kind: 'choice', options: effects },
  ];
}

/** SURGE: the benefits that name something (a trait, a power's alternate effect, an ongoing effect on you). */
function surgeShape(v: View, def: ActionDef): Shape | null {
  const c = v.c;
  if (def.id === 'surge-boost') return { blocked: null, provokes: null, params: [{ name: 'trait', kind: 'text' }] };
  if (def.id === 'surge-alternate-effect') {
    const powers = c.stats.powers.filter((p) => p.alternates.length);
    const blocked = powers.length ? null : ruleError('ILLEGAL_ACTION', RULE.surge, 'No power with alternate effects.');
    return { blocked, provokes: null, params: alternateParams(powers) };
  }
  if (def.id === 'surge-resistance') {
    const effects = v.s.effects.filter((e) => e.targetId === c.id);
    const blocked = effects.length ? null : ruleError('ILLEGAL_ACTION', RULE.surge, 'No ongoing effect on you to resist.');
    return { blocked, provokes: null, params: [{ name: 'effectId', kind: 'choice', options: names(effects) }] };
  }
  return null;
}

/** Targets, reach and provocation, once the budget allows the action. */
export function shapeOf(v: View, def: ActionDef): Shape {
  if (def.command === 'attack' || def.command === 'stunt') return attackShape(v, def);
  if (def.command === 'charge' || def.command === 'move' || def.command === 'advance' || def.command === 'withdraw')
    return moveShape(v, def);
  if (def.command === 'assist' || def.command === 'influence' || def.command === 'assess' || def.id === 'trick') return assistShape(v, def);
  return itemShape(v, def) ?? surgeShape(v, def) ?? otherShape(v, def);
}
