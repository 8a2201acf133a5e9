import { ruleError, type ActionOption, type ReactionWindow } from '@fray/engine';
import { ACTIONS, RULE, type ActionDef } from '../catalogue/index.js';
import { checkAreaPower, checkQuick, checkReadiedWaits, checkSplit } from '../checks/index.js';
import { powerReachWhy } from '../mechanics/combat.js';
import { slotFor, type Power, type State } from '../state/index.js';
import { budgetBlock, windowBlock } from './blocks.js';
import { shapeOf } from './shapes.js';
import { costOf, names, viewOf, type Shape, type View } from './view.js';

/** legalActions: every action of the catalogue for one combatant, with its cost, whom it provokes, and the check that blocks it. */

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

const CATALOGUE_DEFS = ACTIONS.filter((a) => !a.id.startsWith('power-'));
const POWER_DEFS = new Map(ACTIONS.filter((a) => a.id.startsWith('power-')).map((a) => [a.id, a]));

/** Powers: one option per power, typed by the power. */
function powerOption(v: View, p: Power): ActionOption {
  const { s, o, c } = v;
  const def = POWER_DEFS.get(`power-${p.range}`)!;
  let blocked = windowBlock(v, def.command) ?? v.budget[p.action];
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
  const opt: ActionOption = {
    command: w.allowed[0] ?? 'opportunity-attack',
    action: 'quick-in-reaction',
    label: 'Quick action as part of the reaction',
    kind: 'quick',
    cost: { quick: 1 },
    provokes: null,
    params: [{ name: 'quick', kind: 'text' }],
    template: { combatantId: v.c.id },
    allowed: !why,
    rule,
  };
  if (why) opt.blocked = why;
  return opt;
}

export function legalActions(s: State, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const v = viewOf(s, c);
  const out: ActionOption[] = [];
  for (const def of CATALOGUE_DEFS) out.push(catalogueOption(v, def));
  for (const p of c.stats.powers) out.push(powerOption(v, p));
  if (v.w && v.w.responses[id] === 'pending') out.push(quickOption(v, v.w));
  return out;
}
