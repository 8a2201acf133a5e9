/**
 * The files of a new ruleset in the layout of docs/rulesets/authoring.md: a minimal working
 * ruleset (turns in the order combatants joined, one free-form action, a sentence per event)
 * that passes the conformance suite as it is. `id` is the ruleset id, `Name` its PascalCase.
 */
export function rulesetFiles(id, Name, camel) {
  return {
    'options.ts': `import { z } from 'zod';

/** The encounter's options: a default for every field, a doc for every option. */
export const optionsSchema = z.object({
  announceTurns: z.boolean().default(true),
});

export type ${Name}Options = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof ${Name}Options, string> = {
  announceTurns: 'Say in the log whose turn it is.',
};
`,
    'state.ts': `import { z } from 'zod';
import type { EncounterState } from '@fray/engine';

/** The ruleset's own state. */
export interface RS {
  turns: number;
}

export const statsSchema = z.object({
  hp: z.number().int().min(1).max(10_000).optional(),
});
export type Stats = z.infer<typeof statsSchema>;

export const statDocs: Record<keyof Stats, string> = {
  hp: 'Maximum hit points.',
};

export const positionSchema = z.string().min(1).max(80).nullable();

export type Data = { actions: number };

export type State = EncounterState<RS>;

export const initialState = (): RS => ({ turns: 0 });
export const initCombatant = (): Data => ({ actions: 0 });
`,
    'catalogue.ts': `import type { CatalogueEntry } from '@fray/engine';

/** The rule ids: each refusal names the most specific one. */
export const RULE = {
  ownTurn: '${id}.own-turn',
  turns: '${id}.turns',
} as const;

export const catalogue: CatalogueEntry[] = [
  { id: 'act', label: 'Act', kind: 'action', rule: '"A combatant acts on its own turn."' },
  { id: 'end-turn', label: 'End turn', kind: 'turn', rule: '"A turn ends when its combatant ends it."' },
];
`,
    'checks.ts': `import { ruleError, type EngineError } from '@fray/engine';
import { RULE } from './catalogue.js';
import type { State } from './state.js';

/** "A combatant acts on its own turn." */
export function checkOwnTurn(s: State, combatantId: string): EngineError | null {
  if (s.clock.current === combatantId) return null;
  return ruleError('NOT_YOUR_TURN', RULE.ownTurn, \`It is not \${s.combatants[combatantId]?.name ?? combatantId}'s turn.\`);
}

/** "A turn ends when its combatant ends it." */
export function checkEndTurn(s: State, combatantId: string): EngineError | null {
  if (s.clock.current === combatantId) return null;
  return ruleError('NOT_YOUR_TURN', RULE.turns, \`It is not \${s.combatants[combatantId]?.name ?? combatantId}'s turn to end.\`);
}
`,
    'commands/index.ts': `import { actionCommands } from './actions.js';

export const commands = { ...actionCommands };
`,
    'commands/actions.ts': `import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { z } from 'zod';
import { checkOwnTurn } from '../checks.js';
import { emit } from '../events.js';
import type { ${Name}Options } from '../options.js';
import type { RS } from '../state.js';

const command = commandKit<RS, ${Name}Options>();

/** "A combatant acts on its own turn." */
export const act = command({
  schema: commandSchema('act', { combatantId: idSchema, description: z.string().trim().min(1).max(200) }),
  actor: 'combatant',
  handle(ctx, cmd) {
    ensure(checkOwnTurn(ctx.state, cmd.combatantId));
    emit(ctx, { type: '${id}.acted', combatantId: cmd.combatantId, description: cmd.description });
  },
});

export const actionCommands = { act };
`,
    'flow.ts': `import { ensure, type Ctx } from '@fray/engine';
import { checkEndTurn } from './checks.js';
import { emit } from './events.js';
import type { ${Name}Options } from './options.js';
import type { RS } from './state.js';

type C = Ctx<RS, ${Name}Options>;

function begin(ctx: C, id: string, round: number): void {
  ctx.emit({ type: 'clock.changed', round, current: id });
  if (ctx.options.announceTurns) emit(ctx, { type: '${id}.turn-started', combatantId: id, round });
}

/** Turns go in the order combatants joined. */
export function startCombat(ctx: C): void {
  const order = Object.keys(ctx.state.combatants);
  ctx.emit({ type: 'clock.changed', round: 1, phase: null, order, current: null });
  begin(ctx, order[0]!, 1);
}

/** "A turn ends when its combatant ends it"; after the last, a new round. */
export function endTurn(ctx: C, combatantId: string): void {
  ensure(checkEndTurn(ctx.state, combatantId));
  const order = ctx.state.clock.order;
  const next = order[order.indexOf(combatantId) + 1];
  if (next) return begin(ctx, next, ctx.state.clock.round);
  begin(ctx, order[0]!, ctx.state.clock.round + 1);
}

export function onCombatantAdded(ctx: C, id: string): void {
  if (ctx.state.status === 'active') ctx.emit({ type: 'clock.changed', order: [...ctx.state.clock.order, id] });
}

export function onCombatantRemoved(ctx: C): void {
  const order = ctx.state.clock.order;
  if (ctx.state.status === 'active' && ctx.state.clock.current === null && order.length > 0) begin(ctx, order[0]!, ctx.state.clock.round);
}
`,
    'events.ts': `import type { Ctx, EngineEvent } from '@fray/engine';
import type { ${Name}Options } from './options.js';
import type { RS, State } from './state.js';

export type ${Name}Event =
  | { type: '${id}.acted'; combatantId: string; description: string }
  | { type: '${id}.turn-started'; combatantId: string; round: number };

export function emit(ctx: Ctx<RS, ${Name}Options>, event: ${Name}Event): void {
  ctx.emit(event);
}

export function evolve(draft: State, event: EngineEvent): boolean {
  if (!event.type.startsWith('${id}.')) return false;
  const e = event as ${Name}Event;
  switch (e.type) {
    case '${id}.acted': {
      const data = draft.combatants[e.combatantId]!.data;
      data.actions = Number(data.actions ?? 0) + 1;
      return true;
    }
    case '${id}.turn-started':
      draft.rs.turns += 1;
      return true;
  }
}
`,
    'legal.ts': `import type { ActionOption, EngineError } from '@fray/engine';
import { RULE } from './catalogue.js';
import { checkEndTurn, checkOwnTurn } from './checks.js';
import type { State } from './state.js';

const gate = (why: EngineError | null) => (why ? { allowed: false, blocked: why } : { allowed: true });

export function legalActions(s: State, id: string): ActionOption[] {
  const template = { combatantId: id };
  return [
    { command: 'act', label: 'Act', kind: 'action', params: [{ name: 'description', label: 'What happens', kind: 'text' }], template, rule: RULE.ownTurn, ...gate(checkOwnTurn(s, id)) },
    { command: 'turn.end', label: 'End turn', kind: 'turn', template, rule: RULE.turns, ...gate(checkEndTurn(s, id)) },
  ];
}
`,
    'presentation.ts': `import type { RulesetDisplay } from '@fray/engine';

export const display: RulesetDisplay = {
  vitals: [],
  statGroups: [{ label: 'Vitals', stats: ['hp'] }],
  statLabels: { hp: 'Max HP' },
  internal: [],
  dataLabels: { actions: 'Actions' },
  events: {
    '${id}.acted': '{combatantId}: {description}.',
    '${id}.turn-started': "Round {round}: {combatantId}'s turn.",
  },
  samples: [
    { name: 'Minion', side: 'foes', stats: { hp: 5 }, doc: 'A weak foe.' },
    { name: 'Brute', side: 'foes', stats: { hp: 20 }, doc: 'A strong foe.' },
  ],
};
`,
    'invariants.ts': `import type { State } from './state.js';

export function invariants(s: State): string[] {
  const out: string[] = [];
  if (s.status === 'active' && s.clock.current !== null && !s.clock.order.includes(s.clock.current)) out.push('the current combatant is not in the order');
  return out;
}
`,
    'index.ts': `import type { Ruleset } from '@fray/engine';
import { catalogue } from './catalogue.js';
import { commands } from './commands/index.js';
import { evolve } from './events.js';
import { endTurn, onCombatantAdded, onCombatantRemoved, startCombat } from './flow.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal.js';
import { optionDocs, optionsSchema, type ${Name}Options } from './options.js';
import { display } from './presentation.js';
import { initCombatant, initialState, positionSchema, statDocs, statsSchema, type Data, type RS, type Stats } from './state.js';

/** ${id}: docs/rulesets/${id}.md */
export const ${camel}: Ruleset<RS, ${Name}Options, Stats, Data> = {
  id: '${id}',
  name: '${Name}',
  summary: 'TODO: one sentence on what this ruleset is for.',
  optionsSchema,
  optionDocs,
  statsSchema,
  statDocs,
  positionSchema,
  initialState,
  initCombatant,
  commands,
  evolve,
  startCombat,
  endTurn,
  legalActions,
  catalogue,
  onCombatantAdded,
  onCombatantRemoved,
  invariants,
  display,
};
`,
  };
}

export function testFile(id, camel) {
  return `import { conformance } from '@fray/conformance';
import { ${camel} } from '../../src/${id}/index.js';

conformance(${camel}, {
  combatants: [
    { id: 'a', name: 'Aria', side: 'heroes', controller: 'p1', stats: { hp: 10 } },
    { id: 'b', name: 'Brute', side: 'foes', stats: { hp: 20 } },
  ],
  fill: (_state, _id, option) => ({ ...(option.template ?? {}), ...(option.command === 'act' ? { description: 'swings' } : {}) }),
});
`;
}

export function docFile(id, Name) {
  return `# ${id} — ${Name}

TODO: what game this ruleset is for, its rules (one sentence each: the tests quote them), its
options and stats, how it is shown, and the choices made where the rules are silent. See
docs/rulesets/authoring.md.

## Rules

- A combatant acts on its own turn.
- A turn ends when its combatant ends it.
`;
}
