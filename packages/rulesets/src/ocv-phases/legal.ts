import { hexDistance, hexNeighbors, ruleError, type ActionOption, type EngineError, type ParamSpec } from '@fray/engine';
import { AOO_IDS, PROVOKES_LABEL, ROW, ROWS, RULE, TYPE_LABEL, type Row } from './catalogue.js';
import {
  checkAbort,
  checkAbortOffered,
  checkActNow,
  checkActPrerequisite,
  checkBudget,
  checkCanAoo,
  checkDelay,
  checkMoveMode,
  checkStep,
  checkStunned,
  checkTakeReadied,
  checkTarget,
  checkTurn,
} from './checks/index.js';
import { aooFrom } from './mechanics/opportunity.js';
import { pos, type S } from './state/index.js';

const first = (...errs: (EngineError | null)[]): EngineError | null => errs.find((e) => e) ?? null;

function option(
  row: Row,
  command: string,
  template: Record<string, unknown>,
  blocked: EngineError | null,
  extra: Partial<ActionOption> = {},
): ActionOption {
  const o: ActionOption = {
    command,
    action: row.id,
    label: row.label,
    kind: row.type === 'full' ? 'full-phase' : row.type === 'none' ? 'not-an-action' : row.type,
    cost: row.type === 'none' || row.type === 'free' ? {} : { [row.type === 'full' ? 'full-phase' : row.type]: 1 },
    provokes: null,
    template,
    allowed: !blocked,
    rule: `${TYPE_LABEL[row.type]}; attack of opportunity: ${PROVOKES_LABEL[row.provokes]}`,
    ...extra,
  };
  if (blocked) o.blocked = blocked;
  return o;
}

const key = (row: Row): string => (row.via === 'attack' || row.via === 'defend' ? 'manoeuvre' : row.via === 'move' ? 'mode' : 'action');
const NOT_ON_MAP = ruleError('ILLEGAL_ACTION', RULE.hexes, 'This character is not on the map.');

/** What the character acting now sees, computed once for every row. */
interface Here {
  s: S;
  id: string;
  at: ReturnType<typeof pos>;
  turn: EngineError | null;
  others: string[];
  threat: (reason: string) => ActionOption['provokes'];
}

function attackOption(h: Here, row: Row, template: Record<string, unknown>, base: EngineError | null): ActionOption {
  const { s, id } = h;
  const ranged = row.id === 'other-attack' || row.id === 'rapid-fire';
  const targets = ranged ? h.others : h.others.filter((o) => !checkTarget(s, id, o, null));
  const nobody = targets.length
    ? null
    : ruleError('ILLEGAL_ACTION', RULE.meleeReach, 'You can strike any adjacent opponent with a melee attack: nobody is within reach.');
  const blocked = first(base, checkBudget(s, id, row.type), h.at ? null : NOT_ON_MAP, nobody);
  const params: ParamSpec[] = [{ name: row.multi ? 'targetIds' : 'targetId', kind: row.multi ? 'list' : 'combatant', options: targets }];
  if (ranged)
    params.push({
      name: 'range',
      kind: 'number',
      min: 1,
      optional: row.id !== 'rapid-fire',
      label: 'maximum range (hexes) of a ranged attack',
    });
  params.push({ name: 'ocvModifier', kind: 'number', optional: true });
  return option(row, 'attack', template, blocked, { params });
}

function moveOption(h: Here, row: Row, template: Record<string, unknown>, base: EngineError | null): ActionOption {
  const { s, id } = h;
  const blocked = first(base, checkBudget(s, id, row.type), h.at ? null : NOT_ON_MAP, checkMoveMode(s, id, row.id));
  const params: ParamSpec[] = [{ name: 'path', kind: 'path', label: 'hexes, one by one' }];
  if (row.id === 'move-by' || row.id === 'move-through') params.push({ name: 'targetId', kind: 'combatant', options: h.others });
  if (row.provokes === 'skill')
    params.push({ name: 'skill', kind: 'choice', options: Object.keys(s.combatants[id]!.stats.skills), optional: true });
  const provokes = row.provokes === 'no' ? null : h.threat(`moving out of a threatened hex (${PROVOKES_LABEL[row.provokes]})`);
  return option(row, 'move', template, blocked, { params, provokes });
}

function actOption(h: Here, row: Row, template: Record<string, unknown>, base: EngineError | null): ActionOption {
  const { s, id } = h;
  const c = s.combatants[id]!;
  const params: ParamSpec[] = [];
  if (['draw-focus', 'retrieve-focus', 'pick-up'].includes(row.id))
    params.push({ name: 'itemId', kind: 'item', options: c.items.map((i) => i.id), optional: true });
  if (row.id === 'start-full-phase')
    params.push({ name: 'fullAction', kind: 'choice', options: ROWS.filter((r) => r.type === 'full' && r.via === 'act').map((r) => r.id) });
  if (row.provokes === 'skill') params.push({ name: 'skill', kind: 'choice', options: Object.keys(c.stats.skills), optional: true });
  const provokes = row.provokes === 'no' ? null : h.threat(`${row.label} in a threatened hex (${PROVOKES_LABEL[row.provokes]})`);
  return option(row, 'act', template, first(base, checkBudget(s, id, row.type), checkActPrerequisite(s, id, row.id)), { params, provokes });
}

function rowOption(h: Here, row: Row): ActionOption | null {
  const { s, id } = h;
  const template = { combatantId: id, ...(row.via === 'delay' || row.via === 'step' || row.via === 'ready' ? {} : { [key(row)]: row.id }) };
  const base = first(h.turn, checkStunned(s, id, row.id));
  switch (row.via) {
    case 'attack':
      return attackOption(h, row, template, base);
    case 'defend':
      return option(row, 'defend', template, first(base, checkBudget(s, id, row.type)));
    case 'move':
      return moveOption(h, row, template, base);
    case 'step': {
      const to = h.at ? hexNeighbors(h.at).filter((x) => !checkStep(s, id, x)) : [];
      const blocked = first(
        base,
        checkStep(s, id),
        to.length ? null : ruleError('ILLEGAL_ACTION', RULE.hexes, 'No free hex to step into.'),
      );
      return option(row, 'step', template, blocked, { params: [{ name: 'to', kind: 'position', max: 1 }] });
    }
    case 'act':
      return actOption(h, row, template, base);
    case 'free': {
      const extra: Partial<ActionOption> =
        row.id === 'drop-item' ? { params: [{ name: 'itemId', kind: 'item', options: s.combatants[id]!.items.map((i) => i.id) }] } : {};
      return option(row, 'free', template, first(base, checkBudget(s, id, 'free')), extra);
    }
    case 'delay': {
      const before = s.rs.order.filter((x) => x !== id && !s.rs.passed.includes(x));
      return option(row, 'delay', template, first(h.turn, checkDelay(s, id)), {
        params: [{ name: 'before', kind: 'combatant', optional: true, options: before }],
      });
    }
    case 'ready':
      return option(row, 'ready', template, first(base, checkBudget(s, id, 'attack')), {
        params: [
          { name: 'actionType', kind: 'choice', options: ['attack', 'move', 'free'] },
          {
            name: 'action',
            kind: 'choice',
            options: ROWS.filter((r) => ['attack', 'defend', 'move', 'free'].includes(r.via) && r.type !== 'full').map((r) => r.id),
          },
          { name: 'trigger', kind: 'text', label: '{ on: attacks|moves|acts|enters-reach|manual, by?, description }' },
        ],
      });
  }
  return null;
}

/** The acting character: every row of the table, and ending the action. */
function actingOptions(h: Here): ActionOption[] {
  const out: ActionOption[] = [];
  for (const row of ROWS) {
    const o = rowOption(h, row);
    if (o) out.push(o);
  }
  const c = h.s.combatants[h.id]!;
  out.push({
    command: 'turn.end',
    label: c.data.hold?.kind === 'delay' ? 'Keep waiting (delay into the next Phase)' : 'End action',
    kind: 'end',
    allowed: !h.s.reaction,
    template: { combatantId: h.id },
    rule: 'initiative order',
  });
  return out;
}

/** Not this character's action: a delayed or readied action to take, aborting, an attack of opportunity. */
function waitingOptions(s: S, id: string, threat: Here['threat'], others: string[]): ActionOption[] {
  const out: ActionOption[] = [];
  const c = s.combatants[id]!;
  const h = c.data.hold;
  if (h?.kind === 'delay') {
    const blocked = checkActNow(s, id);
    out.push({
      command: 'actNow',
      label: 'Take the delayed action now',
      kind: 'not-an-action',
      allowed: !blocked,
      ...(blocked ? { blocked } : {}),
      template: { combatantId: id },
      rule: 'Delay: "wait until some time later and act then"',
    });
  }
  if (h?.kind === 'ready') {
    const blocked = checkTakeReadied(s, id);
    out.push({
      command: 'takeReadied',
      action: h.action ?? undefined,
      label: `Take the readied ${h.action ?? h.actionType} action`,
      kind: h.actionType,
      allowed: !blocked,
      ...(blocked ? { blocked } : {}),
      template: { combatantId: id, ...(h.action ? { action: h.action } : {}) },
      params: [
        { name: 'targetId', kind: 'combatant', optional: true, options: others },
        { name: 'path', kind: 'list', optional: true },
        { name: 'step', kind: 'position', optional: true },
      ],
      rule: 'Ready: "The action occurs just before the action that triggers it."',
    });
  }
  const abortBlocked = first(checkAbort(s, id), checkAbortOffered(s, id));
  for (const row of ROWS) {
    if (!row.defensive) continue;
    out.push(
      option(row, 'abort', { combatantId: id, action: row.id }, abortBlocked, {
        label: `Abort to ${row.label}`,
        params: row.moves ? [{ name: 'path', kind: 'list' }] : [],
        provokes: row.moves ? threat('moving out of a threatened hex') : null,
        rule: 'Abort: "You can abort to any defensive attack or move action"',
      }),
    );
  }
  const w = s.reaction;
  if (w && w.kind === 'ocv-phases.attack-of-opportunity' && w.responses[id] === 'pending') {
    const target = w.trigger.combatantId!;
    const tp = pos(s, target);
    const here = pos(s, id);
    for (const rowId of AOO_IDS) {
      const row = ROW[rowId]!;
      const blocked = first(
        checkCanAoo(s, id),
        tp && here && hexDistance(tp, here) <= c.stats.reach ? null : checkTarget(s, id, target, null),
      );
      out.push(
        option(row, 'opportunityAttack', { combatantId: id, manoeuvre: row.id }, blocked, {
          label: `Attack of opportunity: ${row.label}`,
          kind: 'reaction',
          cost: {},
        }),
      );
    }
  }
  return out;
}

/**
 * Every option of the table for this character now, with its action type, whether it would
 * provoke an attack of opportunity and from whom, and why it is blocked.
 */
export function legalActions(s: S, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const at = pos(s, id);
  let threatening: string[] | null = null;
  const threat = (reason: string) => {
    if (!at) return null;
    threatening ??= aooFrom(s, id, at, null);
    return threatening.length ? { from: threatening, reason } : null;
  };
  const others = Object.values(s.combatants)
    .filter((o) => o.id !== id && o.position)
    .map((o) => o.id);
  if (s.clock.current === id) return actingOptions({ s, id, at, turn: checkTurn(s, id), others, threat });
  return waitingOptions(s, id, threat, others);
}
