import { useState } from 'react';
import type { RulesetDisplay } from '../lib/display.js';
import { api } from '../lib/api.js';
import { entryOf, exportFile, numberedNames, parseFile, type Entry } from '../lib/bestiary.js';
import type { Combatant, EncounterState, RulesetInfo } from '../lib/types.js';
import { ErrorMessage } from './common.js';

type Add = (entries: Entry[], what: string) => Promise<void>;

/** POST each entry (the server validates each again); stops at the first refusal and says which. */
function useAdd(encounterId: string, token: string): [Add, string | null, unknown, boolean] {
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const add: Add = async (entries, what) => {
    setDone(null);
    setError(null);
    setBusy(true);
    try {
      for (const e of entries) await api('POST', `/encounters/${encodeURIComponent(encounterId)}/combatants`, e, { token });
      setDone(what);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return [add, done, error, busy];
}

function download(ruleset: string, list: Combatant[], name: string): void {
  const url = URL.createObjectURL(new Blob([exportFile(ruleset, list)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface QuickAdd {
  ruleset: RulesetInfo;
  samples: NonNullable<RulesetDisplay['samples']>;
  combatants: Combatant[];
  from: string;
  setFrom: (v: string) => void;
  count: string;
  setCount: (v: string) => void;
  busy: boolean;
  onAdd: () => void;
}

/** "N × <a sample or a combatant>". */
function QuickAddForm({ q }: { q: QuickAdd }) {
  return (
    <form className="row" aria-label="Quick add" onSubmit={(e) => (e.preventDefault(), q.onAdd())}>
      <label htmlFor="quick-count" className="sr-only">
        How many
      </label>
      <input
        id="quick-count"
        className="narrow"
        type="number"
        min={1}
        max={20}
        value={q.count}
        onChange={(e) => q.setCount(e.target.value)}
      />
      <span aria-hidden="true">×</span>
      <label htmlFor="quick-from" className="sr-only">
        Stat block or combatant to copy
      </label>
      <select id="quick-from" value={q.from} onChange={(e) => q.setFrom(e.target.value)}>
        {q.samples.length ? (
          <optgroup label={`${q.ruleset.name} samples`}>
            {q.samples.map((s, i) => (
              <option key={s.name} value={`s:${i}`}>
                {s.name} — {s.doc}
              </option>
            ))}
          </optgroup>
        ) : null}
        {q.combatants.length ? (
          <optgroup label="Copy of a combatant">
            {q.combatants.map((c) => (
              <option key={c.id} value={`c:${c.id}`}>
                {c.name} ({c.side})
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
      <button type="submit" disabled={q.busy || !q.from}>
        Add
      </button>
    </form>
  );
}

/** Import a party or bestiary file; export all, or the NPCs. */
function FileRow({ state, importFile }: { state: EncounterState; importFile: (f: File) => void }) {
  const combatants = Object.values(state.combatants);
  return (
    <div className="row">
      <label className="button">
        Import a party or bestiary (JSON)
        <input
          type="file"
          accept="application/json,.json"
          className="sr-only"
          data-testid="import-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) importFile(f);
            e.target.value = '';
          }}
        />
      </label>
      <button type="button" disabled={combatants.length === 0} onClick={() => download(state.ruleset, combatants, 'combatants.json')}>
        Export all (party and NPCs)
      </button>
      <button
        type="button"
        disabled={!combatants.some((c) => c.controller === null)}
        onClick={() =>
          download(
            state.ruleset,
            combatants.filter((c) => c.controller === null),
            'bestiary.json',
          )
        }
      >
        Export the NPCs
      </button>
    </div>
  );
}

function ImportErrors({ errors }: { errors: string[] }) {
  return errors.length ? (
    <div className="error" role="alert" data-testid="import-errors">
      <strong>⚠ Nothing was imported:</strong>
      <ul>
        {errors.slice(0, 20).map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  ) : null;
}

/** Quick NPCs: "4 × Goblin" from the ruleset's samples or a combatant, in one step; import and export as JSON. */
export function QuickNpcs({
  ruleset,
  display,
  state,
  encounterId,
  token,
}: {
  ruleset: RulesetInfo;
  display: RulesetDisplay;
  state: EncounterState;
  encounterId: string;
  token: string;
}) {
  const samples = display.samples ?? [];
  const combatants = Object.values(state.combatants);
  const [from, setFrom] = useState(samples[0] ? 's:0' : combatants[0] ? `c:${combatants[0].id}` : '');
  const [count, setCount] = useState('1');
  const [add, done, error, busy] = useAdd(encounterId, token);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const source = (): Entry | null => {
    const sample = from.startsWith('s:') ? samples[Number(from.slice(2))] : undefined;
    if (from.startsWith('s:')) return sample ? entryOf(sample) : null;
    const c = state.combatants[from.slice(2)];
    return c ? entryOf(c) : null;
  };
  const addMany = () => {
    const e = source();
    const n = Number(count);
    if (!e || !Number.isInteger(n) || n < 1 || n > 20) return;
    const base = e.name.replace(/ \d+$/, '');
    const names = numberedNames(
      base,
      n,
      combatants.map((c) => c.name),
    );
    void add(
      names.map((name) => ({ ...e, name })),
      `${n} × ${base} added: ${names.join(', ')}.`,
    );
  };
  const importFile = async (f: File) => {
    const parsed = parseFile(await f.text(), ruleset);
    if (!parsed.ok) return setFileErrors(parsed.errors);
    setFileErrors([]);
    await add(parsed.entries, `${parsed.entries.length} combatants imported from ${f.name}.`);
  };
  return (
    <div className="quick-npcs">
      <QuickAddForm q={{ ruleset, samples, combatants, from, setFrom, count, setCount, busy, onAdd: addMany }} />
      <FileRow state={state} importFile={(f) => void importFile(f)} />
      {done ? (
        <p className="ok" role="status">
          ✓ {done}
        </p>
      ) : null}
      <ErrorMessage error={error} />
      <ImportErrors errors={fileErrors} />
    </div>
  );
}

/** "Duplicate": the same combatant again, with the next free number in its name. */
export function DuplicateButton({
  c,
  state,
  encounterId,
  token,
  onError,
}: {
  c: Combatant;
  state: EncounterState;
  encounterId: string;
  token: string;
  onError: (e: unknown) => void;
}) {
  return (
    <button
      type="button"
      aria-label={`Duplicate ${c.name}`}
      onClick={() => {
        const base = c.name.replace(/ \d+$/, '');
        const [name] = numberedNames(base, 1, [...Object.values(state.combatants).map((x) => x.name), base]);
        void api('POST', `/encounters/${encodeURIComponent(encounterId)}/combatants`, { ...entryOf(c), name }, { token }).catch(onError);
      }}
    >
      Duplicate
    </button>
  );
}
