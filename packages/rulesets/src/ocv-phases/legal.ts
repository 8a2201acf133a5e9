import { hexDistance, hexNeighbors, type ActionOption, type EngineError, type ParamSpec } from '@fray/engine';
import { abortError, aooBlock, aooFrom, budgetError, stepError, stunnedError, targetError, turnError } from './actions.js';
import { conditions, err, incapable, pos, touched, unawareNow, type S } from './model.js';
import { PROVOKES_LABEL, ROWS, TYPE_LABEL, type Row } from './table.js';

const first = (...errs: (EngineError | null)[]): EngineError | null => errs.find((e) => e) ?? null;

function option(row: Row, command: string, template: Record<string, unknown>, blocked: EngineError | null, extra: Partial<ActionOption> = {}): ActionOption {
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

/**
 * Every option of the table for this character now, with its action type, whether it would
 * provoke an attack of opportunity and from whom, and why it is blocked.
 */
export function legalActions(s: S, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const out: ActionOption[] = [];
  const here = pos(s, id);
  const turn = turnError(s, id);
  const noPos = here ? null : err('ILLEGAL_ACTION', 'hexes', 'This character is not on the map.');
  let threatening: string[] | null = null;
  const threat = (reason: string) => {
    if (!here) return null;
    threatening ??= aooFrom(s, id, here, null);
    return threatening.length ? { from: threatening, reason } : null;
  };
  const others = Object.values(s.combatants).filter((o) => o.id !== id && o.position);

  if (s.clock.current === id) {
    for (const row of ROWS) {
      const template = { combatantId: id, ...(row.via === 'delay' || row.via === 'step' || row.via === 'ready' ? {} : { [key(row)]: row.id }) };
      const base = first(turn, stunnedError(s, id, row.id));
      switch (row.via) {
        case 'attack': {
          const ranged = row.id === 'other-attack' || row.id === 'rapid-fire';
          const inReach = others.filter((o) => !targetError(s, id, o.id, null)).map((o) => o.id);
          const targets = ranged ? others.map((o) => o.id) : inReach;
          const blocked = first(base, budgetError(s, id, row.type), noPos, targets.length ? null : err('ILLEGAL_ACTION', 'melee-reach', 'You can strike any adjacent opponent with a melee attack: nobody is within reach.'));
          const params: ParamSpec[] = [{ name: row.multi ? 'targetIds' : 'targetId', kind: row.multi ? 'list' : 'combatant', options: targets }];
          if (ranged) params.push({ name: 'range', kind: 'number', min: 1, optional: row.id !== 'rapid-fire', label: 'maximum range (hexes) of a ranged attack' });
          params.push({ name: 'ocvModifier', kind: 'number', optional: true });
          out.push(option(row, 'attack', template, blocked, { params }));
          break;
        }
        case 'defend':
          out.push(option(row, 'defend', template, first(base, budgetError(s, id, row.type))));
          break;
        case 'move': {
          const blocked = first(base, budgetError(s, id, row.type), noPos, c.data.stepped ? err('ILLEGAL_ACTION', 'step-no-move', "You can't take a 1-hex step in the same Phase when you move any distance.") : null);
          const params: ParamSpec[] = [{ name: 'path', kind: 'path', label: 'hexes, one by one' }];
          if (row.id === 'move-by' || row.id === 'move-through') params.push({ name: 'targetId', kind: 'combatant', options: others.map((o) => o.id) });
          if (row.provokes === 'skill') params.push({ name: 'skill', kind: 'choice', options: Object.keys(c.stats.skills), optional: true });
          const provokes = row.provokes === 'no' ? null : threat(`moving out of a threatened hex (${PROVOKES_LABEL[row.provokes]})`);
          out.push(option(row, 'move', template, blocked, { params, provokes }));
          break;
        }
        case 'step': {
          const to = here ? hexNeighbors(here).filter((h) => !stepError(s, id, h)) : [];
          const blocked = first(base, stepError(s, id), to.length ? null : err('ILLEGAL_ACTION', 'hexes', 'No free hex to step into.'));
          out.push(option(row, 'step', template, blocked, { params: [{ name: 'to', kind: 'position', max: 1 }] }));
          break;
        }
        case 'act': {
          const blocked = first(base, budgetError(s, id, row.type));
          const params: ParamSpec[] = [];
          if (['draw-focus', 'retrieve-focus', 'pick-up'].includes(row.id)) params.push({ name: 'itemId', kind: 'item', options: c.items.map((i) => i.id), optional: true });
          if (row.id === 'start-full-phase') params.push({ name: 'fullAction', kind: 'choice', options: ROWS.filter((r) => r.type === 'full' && r.via === 'act').map((r) => r.id) });
          if (row.provokes === 'skill') params.push({ name: 'skill', kind: 'choice', options: Object.keys(c.stats.skills), optional: true });
          const provokes = row.provokes === 'no' ? null : threat(`${row.label} in a threatened hex (${PROVOKES_LABEL[row.provokes]})`);
          const conds = conditions(s, id);
          const notStarted =
            row.id === 'complete-full-phase' && !c.data.fullStarted
              ? err('ILLEGAL_ACTION', 'start-full-phase', 'No full-phase action has been started.')
              : row.id === 'recover-stunned' && !conds.includes('stunned')
                ? err('ILLEGAL_ACTION', 'stunned', 'This character is not Stunned.')
                : row.id === 'stand-up' && !conds.includes('prone')
                  ? err('ILLEGAL_ACTION', 'prone', 'This character is not prone.')
                  : null;
          out.push(option(row, 'act', template, first(blocked, notStarted), { params, provokes }));
          break;
        }
        case 'free':
          out.push(option(row, 'free', template, first(base, budgetError(s, id, 'free')), row.id === 'drop-item' ? { params: [{ name: 'itemId', kind: 'item', options: c.items.map((i) => i.id) }] } : {}));
          break;
        case 'delay':
          out.push(
            option(row, 'delay', template, first(turn, touched(c.data) ? err('ILLEGAL_ACTION', 'delay', 'By choosing to delay, you take no action on your own Initiative score.') : null), {
              params: [{ name: 'before', kind: 'combatant', optional: true, options: s.rs.order.filter((x) => x !== id && !s.rs.passed.includes(x)) }],
            }),
          );
          break;
        case 'ready':
          out.push(
            option(row, 'ready', template, first(base, budgetError(s, id, 'attack')), {
              params: [
                { name: 'actionType', kind: 'choice', options: ['attack', 'move', 'free'] },
                { name: 'action', kind: 'choice', options: ROWS.filter((r) => ['attack', 'defend', 'move', 'free'].includes(r.via) && r.type !== 'full').map((r) => r.id) },
                { name: 'trigger', kind: 'text', label: '{ on: attacks|moves|acts|enters-reach|manual, by?, description }' },
              ],
            }),
          );
          break;
      }
    }
    if (s.clock.current === id) out.push({ command: 'turn.end', label: c.data.hold?.kind === 'delay' ? 'Keep waiting (delay into the next Phase)' : 'End action', kind: 'end', allowed: !s.reaction, template: { combatantId: id }, rule: 'initiative order' });
    return out;
  }

  // Not this character's action: what it may still do.
  const h = c.data.hold;
  const cur = s.clock.current;
  if (h?.kind === 'delay') {
    const blocked = s.reaction
      ? err('REACTION_PENDING', 'interrupts', 'An interruption is being resolved.')
      : cur && touched(s.combatants[cur]!.data)
        ? err('ILLEGAL_ACTION', 'delay-no-interrupt', "You can't interrupt anyone else's action.")
        : incapable(s, id) || unawareNow(s, id)
          ? err('ILLEGAL_ACTION', 'incapable', 'This character cannot act now.')
          : null;
    out.push({ command: 'actNow', label: 'Take the delayed action now', kind: 'not-an-action', allowed: !blocked, ...(blocked ? { blocked } : {}), template: { combatantId: id }, rule: 'Delay: "wait until some time later and act then"' });
  }
  if (h?.kind === 'ready') {
    const w = s.reaction;
    const inWindow = !!w && w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending';
    const blocked = inWindow || (!w && h.trigger.on === 'manual') ? null : err('ILLEGAL_ACTION', 'ready-trigger', `Waiting for the trigger: ${h.trigger.description}`);
    out.push({
      command: 'takeReadied',
      action: h.action ?? undefined,
      label: `Take the readied ${h.action ?? h.actionType} action`,
      kind: h.actionType,
      allowed: !blocked,
      ...(blocked ? { blocked } : {}),
      template: { combatantId: id, ...(h.action ? { action: h.action } : {}) },
      params: [
        { name: 'targetId', kind: 'combatant', optional: true, options: others.map((o) => o.id) },
        { name: 'path', kind: 'list', optional: true },
        { name: 'step', kind: 'position', optional: true },
      ],
      rule: 'Ready: "The action occurs just before the action that triggers it."',
    });
  }
  const w = s.reaction;
  const abortBlocked = first(
    abortError(s, id),
    w && !(w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending') ? err('REACTION_PENDING', 'interrupts', 'An interruption is being resolved.') : null,
  );
  for (const row of ROWS.filter((r) => r.defensive)) {
    out.push(
      option(row, 'abort', { combatantId: id, action: row.id }, abortBlocked, {
        label: `Abort to ${row.label}`,
        params: row.moves ? [{ name: 'path', kind: 'list' }] : [],
        provokes: row.moves ? threat('moving out of a threatened hex') : null,
        rule: 'Abort: "You can abort to any defensive attack or move action"',
      }),
    );
  }
  if (w && w.kind === 'ocv-phases.attack-of-opportunity' && w.responses[id] === 'pending') {
    const target = w.trigger.combatantId!;
    for (const row of ROWS.filter((r) => r.via === 'attack' && r.attackRoll && !r.multi)) {
      const tp = pos(s, target);
      const blocked = first(aooBlock(s, id), tp && here && hexDistance(tp, here) <= c.stats.reach ? null : targetError(s, id, target, null));
      out.push(option(row, 'opportunityAttack', { combatantId: id, manoeuvre: row.id }, blocked, { label: `Attack of opportunity: ${row.label}`, kind: 'reaction', cost: {} }));
    }
  }
  return out;
}
