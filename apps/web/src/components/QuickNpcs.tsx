import { useRef, useState } from 'react';
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

/** Quick NPCs: "4 × Goblin" from the ruleset's samples or a combatant, in one step; import and export as JSON. */
export function QuickNpcs({ ruleset, display, state, encounterId, token }: { ruleset: RulesetInfo; display: RulesetDisplay; state: EncounterState; encounterId: string; token: string }) {
  const samples = display.samples ?? [];
  const combatants = Object.values(state.combatants);
  const [from, setFrom] = useState(samples[0] ? 's:0' : combatants[0] ? `c:${combatants[0].id}` : '');
  const [count, setCount] = useState('1');
  const [add, done, error, busy] = useAdd(encounterId, token);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const fileRef = useRef<HTMLInputElement>(null);
  const source = (): Entry | null => {
    if (from.startsWith('s:')) return samples[Number(from.slice(2))] ? entryOf(samples[Number(from.slice(2))]!) : null;
    const c = state.combatants[from.slice(2)];
    return c ? entryOf(c) : null;
  };
  const addMany = () => {
    const e = source();
    const n = Number(count);
    if (!e || !Number.isInteger(n) || n < 1 || n > 20) return;
    const base = e.name.replace(/ \d+$/, '');
    const names = numberedNames(base, n, combatants.map((c) => c.name));
    void add(names.map((name) => ({ ...e, name })), `${n} × ${base} added: ${names.join(', ')}.`);
  };
  const importFile = async (f: File) => {
    const parsed = parseFile(await f.text(), ruleset);
    if (!parsed.ok) return setFileErrors(parsed.errors);
    setFileErrors([]);
    await add(parsed.entries, `${parsed.entries.length} combatants imported from ${f.name}.`);
  };
  const download = (list: Combatant[], name: string) => {
    const url = URL.createObjectURL(new Blob([exportFile(state.ruleset, list)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="quick-npcs">
      <form className="row" aria-label="Quick add" onSubmit={(e) => (e.preventDefault(), addMany())}>
        <label htmlFor="quick-count" className="sr-only">
          How many
        </label>
        <input id="quick-count" className="narrow" type="number" min={1} max={20} value={count} onChange={(e) => setCount(e.target.value)} />
        <span aria-hidden="true">×</span>
        <label htmlFor="quick-from" className="sr-only">
          Stat block or combatant to copy
        </label>
        <select id="quick-from" value={from} onChange={(e) => setFrom(e.target.value)}>
          {samples.length ? (
            <optgroup label={`${ruleset.name} samples`}>
              {samples.map((s, i) => (
                <option key={s.name} value={`s:${i}`}>
                  {s.name} — {s.doc}
                </option>
              ))}
            </optgroup>
          ) : null}
          {combatants.length ? (
            <optgroup label="Copy of a combatant">
              {combatants.map((c) => (
                <option key={c.id} value={`c:${c.id}`}>
                  {c.name} ({c.side})
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
        <button type="submit" disabled={busy || !from}>
          Add
        </button>
      </form>
      <div className="row">
        <label className="button">
          Import a party or bestiary (JSON)
          <input
            ref={fileRef}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            data-testid="import-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void importFile(f);
              e.target.value = '';
            }}
          />
        </label>
        <button type="button" disabled={combatants.length === 0} onClick={() => download(combatants, 'combatants.json')}>
          Export all (party and NPCs)
        </button>
        <button type="button" disabled={!combatants.some((c) => c.controller === null)} onClick={() => download(combatants.filter((c) => c.controller === null), 'bestiary.json')}>
          Export the NPCs
        </button>
      </div>
      {done ? (
        <p className="ok" role="status">
          ✓ {done}
        </p>
      ) : null}
      <ErrorMessage error={error} />
      {fileErrors.length ? (
        <div className="error" role="alert" data-testid="import-errors">
          <strong>⚠ Nothing was imported:</strong>
          <ul>
            {fileErrors.slice(0, 20).map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** "Duplicate": the same combatant again, with the next free number in its name. */
export function DuplicateButton({ c, state, encounterId, token, onError }: { c: Combatant; state: EncounterState; encounterId: string; token: string; onError: (e: unknown) => void }) {
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
