import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apply, commandKit, commandSchema, createEncounter, ensure, ruleError, type Ruleset } from '../src/index.js';

// A tiny ruleset whose one command is typed by its schema: the handler reads `raises` as a number.
type RS = { total: number };
const command = commandKit<RS, Record<string, never>>();
const raise = command({
  schema: commandSchema('test.raise', { raises: z.number().int().min(1).max(3) }),
  actor: 'gm',
  inSetup: true,
  handle(ctx, cmd) {
    const raises: number = cmd.raises; // no cast: z.infer of the schema
    ensure(ctx.state.rs.total + raises > 5 ? ruleError('ILLEGAL_ACTION', 'test.cap', 'At most 5 in all.') : null);
    ctx.emit({ type: 'test.raised', by: raises });
  },
});

const ruleset: Ruleset<RS> = {
  id: 'test',
  name: 'Test',
  summary: 'A kit test ruleset.',
  optionsSchema: z.object({}),
  optionDocs: {},
  statsSchema: z.object({}),
  positionSchema: z.unknown(),
  initialState: () => ({ total: 0 }),
  initCombatant: () => ({}),
  commands: { 'test.raise': raise },
  evolve(draft, e) {
    if (e.type !== 'test.raised') return false;
    draft.rs.total += e.by as number;
    return true;
  },
  startCombat() {},
  endTurn() {},
  legalActions: () => [],
  catalogue: [],
};

describe('the ruleset kit', () => {
  const start = { state: createEncounter(ruleset, { id: 'e', name: 'E', seed: 1 }) };
  it('runs a typed handler on the parsed command', () => {
    const r = apply(ruleset, start.state, { type: 'test.raise', by: { role: 'gm' }, raises: 3 });
    expect(r.ok && r.state.rs.total).toBe(3);
  });
  it('refuses through ensure(ruleError) with the rule id, and changes nothing', () => {
    const once = apply(ruleset, start.state, { type: 'test.raise', by: { role: 'gm' }, raises: 3 });
    if (!once.ok) throw new Error('first raise refused');
    const twice = apply(ruleset, once.state, { type: 'test.raise', by: { role: 'gm' }, raises: 3 });
    expect(twice).toEqual({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'test.cap', message: 'At most 5 in all.' } });
    expect(once.state.rs.total).toBe(3);
  });
  it('refuses a command its schema rejects before the handler runs', () => {
    const r = apply(ruleset, start.state, { type: 'test.raise', by: { role: 'gm' }, raises: 9 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('INVALID_COMMAND');
  });
});
