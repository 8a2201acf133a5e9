import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TurnOrder } from '../../src/components/common.js';
import { EventLog } from '../../src/components/EventLog.js';
import { SchemaFields } from '../../src/components/SchemaFields.js';
import { emptyDisplay } from '../../src/lib/display.js';
import { fieldsOf, initialValues } from '../../src/lib/schema-form.js';
import type { EncounterState } from '../../src/lib/types.js';

const state = {
  status: 'active',
  clock: { round: 3, phase: 'action', order: ['a', 'b'], current: 'b' },
  combatants: { a: { id: 'a', name: 'Aria', hidden: false }, b: { id: 'b', name: 'Borin', hidden: true } },
  effects: [],
  rolls: [{ id: 'r5.1', formula: '1d20', total: 17, purpose: 'attack', combatantId: 'a', overridden: true }],
} as unknown as EncounterState;

describe('components (rendered to HTML)', () => {
  it("turn order: round, phase and status in words (the ruleset's name of the phase, never its id), and the acting combatant marked in words, not only colour", () => {
    const display = { ...emptyDisplay, phases: { action: 'Action phase' } };
    const html = renderToStaticMarkup(<TurnOrder state={state} mine={(id) => id === 'a'} display={display} />);
    expect(html).toContain('Round 3');
    expect(html).toContain('<strong data-testid="phase">Action phase</strong>');
    expect(html).toContain('combat under way');
    expect(html).not.toContain('Status: active');
    // a phase the ruleset does not name is made readable
    const other = renderToStaticMarkup(<TurnOrder state={{ ...state, clock: { ...state.clock, phase: 'combat-round' } }} />);
    expect(other).toContain('<strong data-testid="phase">Combat round</strong>');
    expect(html).toMatch(/<li class="acting" aria-current="step"><span class="who"><span class="marker">▶ acting: <\/span>Borin/);
    expect(html).toMatch(/Aria<span class="tag">you<\/span>/);
    expect(html).toContain('hidden');
  });

  it('event log: each roll with formula, faces, total, why; overridden rolls say so', () => {
    const log = [
      {
        seq: 5,
        events: [
          {
            type: 'dice.rolled',
            rollId: 'r5.1',
            formula: '1d20',
            faces: [{ sides: 20, value: 12, kept: true }],
            total: 12,
            purpose: 'attack',
            combatantId: 'a',
          },
        ],
      },
      { seq: 6, events: [] },
    ];
    const html = renderToStaticMarkup(<EventLog state={state} log={log} />);
    expect(html).toContain('<strong>Aria</strong>: attack — <code>1d20</code> rolled [d20:12] = <strong>12</strong>');
    expect(html).toContain('overridden → 17');
    expect(html).not.toContain('#6'); // nothing this viewer may see happened at version 6
  });

  it('schema fields: every control has a label, docs and errors are tied to it', () => {
    const schema = {
      type: 'object',
      properties: {
        hp: { type: 'integer', minimum: 1, maximum: 99 },
        kind: { type: 'string', enum: ['a', 'b'] },
        brave: { type: 'boolean', default: false },
      },
      required: ['hp', 'kind'],
    };
    const fields = fieldsOf(schema, { hp: 'Hit points.' });
    const html = renderToStaticMarkup(
      <SchemaFields
        idPrefix="t"
        fields={fields}
        values={initialValues(fields)}
        errors={{ hp: 'must be at most 99' }}
        onChange={() => undefined}
        secret={['hp']}
        onSecret={() => undefined}
      />,
    );
    for (const id of ['t-hp', 't-kind', 't-brave']) {
      expect(html).toContain(`for="${id}"`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toMatch(
      /id="t-hp"[^>]*aria-invalid="true"[^>]*aria-describedby="t-hp-doc t-hp-err"|aria-invalid="true" aria-describedby="t-hp-doc t-hp-err"[^>]*id="t-hp"/,
    );
    expect(html).toContain('<small id="t-hp-err" class="field-error" role="alert">✕ Hp must be at most 99</small>');
    expect(html).toContain('aria-label="Hp is secret"');
    // a required choice without a default starts unchosen (not silently showing the first option)
    expect(html).toContain('<select id="t-kind" name="kind"><option value="" selected="">— choose —</option>');
  });
});
