import { useState } from 'react';
import { FieldError } from '../../components/Outcome.js';
import { nameOf } from '../../lib/describe.js';
import type { RulesetDisplay } from '../../lib/display.js';
import type { EncounterState } from '../../lib/types.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/** The ruleset's duration units (unit → words) and named conditions (`display.effects`); none given: rounds. */
function effectsOf(display: RulesetDisplay): { units: Array<[string, string]>; conditions: string[] } {
  const units = Object.entries(display.effects?.units ?? {});
  return { units: units.length ? units : [['round', 'rounds']], conditions: display.effects?.conditions ?? [] };
}

const sent = (r: unknown): boolean => typeof r === 'object' && r !== null && Reflect.get(r, 'ok') === true;

interface Draft {
  target: string;
  name: string;
  condition: boolean;
  count: string;
  unit: string;
  forever: boolean;
  gmOnly: boolean;
}

/** The `effect.apply` command of a draft, or why it cannot be sent. */
function effectCommand(d: Draft): { cmd: Record<string, unknown> } | { error: string } {
  const n = Number(d.count);
  const name = d.name.trim();
  if (!name) return { error: 'Name the condition or effect.' };
  if (!d.forever && (!Number.isInteger(n) || n < 1)) return { error: 'The duration must be a whole number of at least 1.' };
  if (!d.target) return { error: 'Choose a target.' };
  const cmd: Record<string, unknown> = {
    type: 'effect.apply',
    targetId: d.target,
    name,
    duration: d.forever ? null : { unit: d.unit, count: n },
  };
  if (d.condition) cmd.condition = name.toLowerCase();
  if (d.gmOnly) cmd.gmOnly = true;
  return { cmd };
}

function EffectFields({
  state,
  d,
  set,
  display,
}: {
  state: EncounterState;
  d: Draft;
  set: (p: Partial<Draft>) => void;
  display: RulesetDisplay;
}) {
  const { units, conditions } = effectsOf(display);
  return (
    <div className="grid3">
      <div className="field">
        <label htmlFor="fx-target">Target</label>
        <select id="fx-target" value={d.target} onChange={(e) => set({ target: e.target.value })}>
          {Object.keys(state.combatants).map((id) => (
            <option key={id} value={id}>
              {nameOf(state, id)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="fx-name">Condition or effect</label>
        <input
          id="fx-name"
          value={d.name}
          onChange={(e) => set({ name: e.target.value })}
          list="fx-names"
          placeholder={conditions[0] ? `e.g. ${conditions[0]}` : 'e.g. blessed'}
        />
        <datalist id="fx-names">
          {conditions.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </div>
      <div className="field">
        <label htmlFor="fx-count">Duration</label>
        <div className="row">
          <input
            id="fx-count"
            type="number"
            min={1}
            value={d.count}
            onChange={(e) => set({ count: e.target.value })}
            disabled={d.forever}
            className="narrow"
          />
          <label htmlFor="fx-unit" className="sr-only">
            Duration unit
          </label>
          <select id="fx-unit" value={d.unit} onChange={(e) => set({ unit: e.target.value })} disabled={d.forever}>
            {units.map(([u, words]) => (
              <option key={u} value={u}>
                {words}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}

/** Apply a condition or an effect to a combatant, for a duration or until removed. */
export function EffectForm({ state, send, display }: { state: EncounterState; send: Send; display: RulesetDisplay }) {
  const unit = effectsOf(display).units[0]![0];
  const [d, setD] = useState<Draft>(() => ({
    target: Object.keys(state.combatants)[0] ?? '',
    name: '',
    condition: true,
    count: '1',
    unit,
    forever: false,
    gmOnly: false,
  }));
  const set = (p: Partial<Draft>) => setD((x) => ({ ...x, ...p }));
  const [err, setErr] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <form
      aria-label="Apply a condition or effect"
      onSubmit={(e) => {
        e.preventDefault();
        const r = effectCommand(d);
        if ('error' in r) return setErr(r.error);
        setErr(null);
        setDone(null);
        const text = `${nameOf(state, d.target)} is ${d.name.trim()}${d.forever ? ' until removed' : ''}.`;
        void send(r.cmd, text).then((res) => {
          if (!sent(res)) return;
          setDone(text);
          set({ name: '', count: '1', forever: false, gmOnly: false });
        });
      }}
      onChange={() => setDone(null)}
    >
      <EffectFields state={state} d={d} set={set} display={display} />
      <div className="row">
        <label>
          <input type="checkbox" checked={d.forever} onChange={(e) => set({ forever: e.target.checked })} /> until removed
        </label>
        <label>
          <input type="checkbox" checked={d.condition} onChange={(e) => set({ condition: e.target.checked })} /> is a named condition
        </label>
        <label>
          <input type="checkbox" checked={d.gmOnly} onChange={(e) => set({ gmOnly: e.target.checked })} /> GM only (secret)
        </label>
        <button type="submit">Apply</button>
      </div>
      <FieldError text={err} />
      {done ? (
        <p className="ok" role="status">
          ✓ {done}
        </p>
      ) : null}
    </form>
  );
}
