import type { ActionOption, EngineError, ParamSpec } from '@fray/engine';
import { ACTIONS, actionDef, type ActionDef } from './catalogue/index.js';
import { checkDeclare, checkDelay, checkImmediate, checkStop } from './checks/commands.js';
import { checkContinue, checkInitiative, evaluate, sharedChecks } from './checks/index.js';
import { dirtyTricksOn, removableFor } from './mechanics/dirty-trick.js';
import { PHASES } from './mechanics/phases.js';
import { earliestPhase, mustContinue, progressSubtypes, shapeOf } from './mechanics/shape.js';
import { provocation, threateningFoes } from './mechanics/threat.js';
import type { C, S } from './state.js';

/** What a creature may do now: every action of the catalogue, allowed or `blocked` by the checks the commands run. */

/** The parameters of `def` for `c`; `others`: the ids of everyone else, the targets' choices. */
function paramSpecs(s: S, c: C, def: ActionDef, others: string[]): ParamSpec[] {
  const out: ParamSpec[] = [];
  if (def.tags.includes('target') || def.id === 'aid-another')
    out.push({ name: 'targetId', kind: 'combatant', options: others, optional: def.id === 'aid-another' });
  if (def.tags.includes('weapon') && c.stats.weapons.length)
    out.push({ name: 'weaponId', kind: 'item', options: c.stats.weapons.map((w) => w.id), optional: true });
  if (def.tags.includes('path')) out.push({ name: 'path', kind: 'path', label: 'squares, in order' });
  if (def.tags.includes('variable')) out.push({ name: 'ap', kind: 'number', min: def.minAp ?? 1, optional: true });
  if (def.tags.includes('spell'))
    out.push(
      { name: 'spellLevel', kind: 'number', min: 0, max: 9, optional: true },
      { name: 'defensively', kind: 'boolean', optional: true },
    );
  if (def.id === 'ready')
    out.push(
      // objects of the command: a client asks their fields from its schema (the action, its target; the trigger's kind, who, what)
      { name: 'readied', kind: 'text' },
      { name: 'trigger', kind: 'choice' },
    );
  if (def.id === 'remove-dirty-trick') {
    const whom = removableFor(s, c);
    // the condition by its name and on whom, never its id
    const effects = whom.flatMap((t) =>
      dirtyTricksOn(s, t.id).map((e) => ({ value: e.id, label: `${e.condition ?? e.name}${t.id === c.id ? '' : ` (${t.name})`}` })),
    );
    out.push(
      { name: 'targetId', kind: 'combatant', options: whom.map((o) => o.id), optional: true },
      { name: 'effectId', label: 'Condition', kind: 'choice', options: effects, optional: true },
    );
  }
  if (def.id === 'dirty-trick')
    out.push({
      name: 'condition',
      kind: 'choice',
      options: ['blinded', 'dazzled', 'deafened', 'entangled', 'shaken', 'sickened'],
      optional: true,
    });
  return out;
}

export interface ApActionOption extends ActionOption {
  subtype?: string[];
  earliestPhase?: string;
  apLeft: number;
  inProgress: Array<{ key: string; action: string; spent: number; cost: number; consecutive: boolean }>;
  spoils?: { key: string; action: string } | null;
}

type Base = Pick<ApActionOption, 'apLeft' | 'inProgress'>;

/** What `id` may do now, from the catalogue and the same checks the commands run. */
export function legalActions(s: S, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c || s.status !== 'active') return [];
  const inProgress = c.data.inProgress.map((r) => ({
    key: r.key,
    action: r.action,
    spent: r.spent,
    cost: r.cost,
    consecutive: r.consecutive,
  }));
  const base: Base = { apLeft: c.data.ap, inProgress };
  const out: ApActionOption[] = [];
  if (s.reaction) {
    reactionOptions(out, s, c, base);
    return out;
  }
  catalogueOptions(out, s, c, base);
  continueOptions(out, s, c, base);
  turnOptions(out, s, c, base);
  return out;
}

/** While a reaction window is open: the reactions it asks of `c`, nothing else. */
function reactionOptions(out: ApActionOption[], s: S, c: C, base: Base): void {
  const w = s.reaction;
  if (!w || w.responses[c.id] !== 'pending') return;
  for (const cmd of w.allowed) {
    const label =
      cmd === 'attackOfOpportunity'
        ? 'Attack of opportunity'
        : cmd === 'spendAoo'
          ? 'Spend a use of an attack of opportunity'
          : 'Complete the readied action';
    out.push({
      command: cmd,
      label,
      kind: 'reaction',
      cost: { ap: cmd === 'completeReady' ? (c.data.ready?.cost ?? 0) : 0 },
      allowed: true,
      template: { combatantId: c.id },
      rule: w.kind,
      ...base,
    });
  }
}

/** Every action of the catalogue, evaluated as `act` would. */
function catalogueOptions(out: ApActionOption[], s: S, c: C, base: Base): void {
  const threat = threateningFoes(s, c);
  const shared = sharedChecks(s, c);
  const others = Object.keys(s.combatants).filter((k) => k !== c.id);
  for (const def of ACTIONS) {
    const e = evaluate(s, c, def, {}, false, threat, shared);
    const opt: ApActionOption = {
      command: 'act',
      action: def.id,
      label: def.label,
      kind: e.sh.type,
      cost: { ap: e.sh.cost },
      provokes: e.provokes,
      params: paramSpecs(s, c, def, others),
      template: { combatantId: c.id, action: def.id },
      allowed: !e.blocked,
      rule: def.rule,
      subtype: e.sh.subtypes.length ? e.sh.subtypes : ['safe'],
      earliestPhase: e.earliest,
      spoils: e.spoils ? { key: e.spoils.key, action: e.spoils.action } : null,
      ...base,
    };
    if (e.blocked) opt.blocked = e.blocked;
    out.push(opt);
  }
}

/** One more AP on each advanced action in progress. */
function continueOptions(out: ApActionOption[], s: S, c: C, base: Base): void {
  for (const r of c.data.inProgress) {
    const def = actionDef(r.action)!;
    const sh = { ...shapeOf(s, c, def, r.params), subtypes: progressSubtypes(s, c, r) };
    const opt: ApActionOption = {
      command: 'continue',
      action: r.action,
      label: `Continue: ${def.label} (${r.spent}/${r.cost} AP)`,
      kind: sh.type,
      cost: { ap: 1 },
      provokes: provocation(s, c, sh, r.params, r.spent + 1 >= r.cost, false),
      template: { combatantId: c.id, key: r.key },
      allowed: true,
      rule: 'During the next action phase, you may spend another AP towards completing the action.',
      subtype: sh.subtypes.length ? sh.subtypes : ['safe'],
      earliestPhase: earliestPhase(s, c, sh, r.params),
      ...base,
    };
    out.push(gated(opt, checkContinue(s, c, r)));
  }
}

/** An option, allowed when the check finds nothing against it, else `blocked` with the check's refusal. */
function gated(opt: ApActionOption, blocked: EngineError | null): ApActionOption {
  if (blocked) {
    opt.allowed = false;
    opt.blocked = blocked;
  }
  return opt;
}

/** Ending one's place in the phase, stopping for the round, delaying, declaring, an immediate action. */
function turnOptions(out: ApActionOption[], s: S, c: C, base: Base): void {
  const id = c.id;
  const notMine = checkInitiative(s, c);
  const must = notMine ? null : mustContinue(s, c);
  const last = s.rs.phaseIdx >= PHASES.length - 1;
  out.push(
    gated(
      {
        command: 'turn.end',
        label: must ? `End my initiative (spoils ${must.action})` : 'End my initiative in this phase',
        kind: 'turn',
        allowed: true,
        template: { combatantId: id },
        rule: 'Actions are resolved in order of initiative within each phase.',
        ...base,
      },
      notMine,
    ),
    gated(
      {
        command: 'stop',
        label: 'Make no further expenditures of AP this round',
        kind: 'turn',
        allowed: true,
        template: { combatantId: id },
        rule: 'The combat round ends when all combatants have spent their available action points or have chosen to make no further expenditures of AP.',
        ...base,
      },
      checkStop(s, c),
    ),
    gated(
      {
        command: 'delay',
        label: 'Delay to a later phase',
        kind: 'turn',
        allowed: true,
        params: [{ name: 'untilPhase', kind: 'choice', options: PHASES.slice(s.rs.phaseIdx + 1) }],
        template: { combatantId: id },
        rule: 'it may perform another action now or delay until the next phase',
        ...base,
      },
      notMine ?? (last ? checkDelay(s, c, s.rs.phaseIdx) : null),
    ),
    gated(
      {
        command: 'declare',
        label: 'Declare an intent',
        kind: 'declaration',
        allowed: true,
        params: [{ name: 'intent', label: 'Intent', kind: 'text', placeholder: 'e.g. attack the goblin' }],
        template: { combatantId: id },
        rule: 'During this phase all of the players declare what actions they intend their characters to take.',
        ...base,
      },
      checkDeclare(s, c),
    ),
    gated(
      {
        command: 'immediateAction',
        label: 'Use an immediate-action ability',
        kind: 'reaction',
        allowed: true,
        template: { combatantId: id },
        rule: 'Spells and abilities resolved as immediate actions are a type of a reaction.',
        ...base,
      },
      checkImmediate(s, c),
    ),
  );
}
