import { useMemo, useState } from 'react';
import { ErrorMessage, Section } from '../components/common.js';
import { SchemaFields } from '../components/SchemaFields.js';
import { api, ApiError } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { loadRulesets } from '../lib/rulesets.js';
import { displayOf } from '../lib/display.js';
import { contextOf, hintsUnder } from '../lib/form-context.js';
import { fieldsOf, initialValues, parseValues, validate, type Field, type FormValues } from '../lib/schema-form.js';
import { SESSION_COOKIE, signOut, useGmSession } from '../lib/session.js';
import type { EncounterSummary, RulesetInfo } from '../lib/types.js';
import { ExportButton, ImportFile } from '../components/Transfer.js';
import { useAsync } from '../lib/useAsync.js';
import { recordOf } from '../lib/guards.js';
import { EncounterTable } from './gm/EncounterTable.js';

/** The new encounter's name, ruleset and dice seed. */
function EncounterFields(p: {
  name: string;
  setName: (v: string) => void;
  rulesets: RulesetInfo[];
  ruleset: RulesetInfo | undefined;
  pick: (id: string) => void;
  seed: string;
  setSeed: (v: string) => void;
  seedError: string | undefined;
}) {
  const { name, setName, rulesets, ruleset, pick, seed, setSeed } = p;
  const rulesetId = ruleset?.id ?? '';
  const errors = { __seed: p.seedError };
  return (
    <div className="grid2">
      <div className="field">
        <label htmlFor="enc-name">Name</label>
        <input id="enc-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} placeholder="e.g. Ambush at the ford" />
      </div>
      <div className="field">
        <label htmlFor="enc-ruleset">Ruleset</label>
        <select id="enc-ruleset" value={rulesetId} onChange={(e) => pick(e.target.value)}>
          {rulesets.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.id})
            </option>
          ))}
        </select>
        {ruleset ? <small className="doc">{ruleset.summary}</small> : null}
      </div>
      <div className={`field${errors.__seed ? ' invalid' : ''}`}>
        <label htmlFor="enc-seed">Dice seed (optional)</label>
        <input
          id="enc-seed"
          value={seed}
          onChange={(e) => setSeed(e.target.value)}
          inputMode="numeric"
          aria-invalid={errors.__seed ? true : undefined}
          aria-describedby="enc-seed-doc"
        />
        <small id="enc-seed-doc" className="doc">
          Same seed, same commands: the same fight. Leave blank for a random one.
        </small>
        {errors.__seed ? (
          <small className="field-error" role="alert">
            ✕ Seed {errors.__seed}
          </small>
        ) : null}
      </div>
    </div>
  );
}

/** The ruleset's options as fields, in its words (its form hints). */
function optionFields(r: RulesetInfo | undefined): Field[] {
  return r ? fieldsOf(r.options.schema, r.options.docs, hintsUnder(displayOf([r], r.id), 'options')) : [];
}

function CreateEncounter({ token, rulesets }: { token: string; rulesets: RulesetInfo[] }) {
  const [rulesetId, setRulesetId] = useState(rulesets[0]?.id ?? '');
  const ruleset = rulesets.find((r) => r.id === rulesetId);
  const fields = useMemo(() => optionFields(ruleset), [ruleset]);
  const [name, setName] = useState('');
  const [seed, setSeed] = useState('');
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, recordOf(ruleset?.options.defaults)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const pick = (id: string) => {
    setRulesetId(id);
    const r = rulesets.find((x) => x.id === id);
    setValues(initialValues(optionFields(r), recordOf(r?.options.defaults)));
    setErrors({});
  };
  const submit = async () => {
    setError(null);
    const parsed = parseValues(fields, values);
    const errs = { ...validate(ruleset?.options.schema, parsed.value), ...parsed.errors };
    const body: Record<string, unknown> = { name: name.trim() || 'Encounter', ruleset: rulesetId, options: parsed.value };
    if (seed.trim() !== '') {
      const n = Number(seed);
      if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) errs.__seed = 'must be a whole number from 0 to 2147483647';
      else body.seed = n;
    }
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    try {
      const r = await api<{ id: string }>('POST', '/encounters', body, { token });
      navigate(`/gm/e/${encodeURIComponent(r.id)}`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => (e.preventDefault(), void submit())} noValidate aria-label="Create an encounter">
      <EncounterFields
        name={name}
        setName={setName}
        rulesets={rulesets}
        ruleset={ruleset}
        pick={pick}
        seed={seed}
        setSeed={setSeed}
        seedError={errors.__seed}
      />
      {ruleset && fields.length > 0 ? (
        <details className="options">
          <summary>Ruleset options ({new Set(fields.map((f) => f.parent ?? f.name)).size}, all with defaults)</summary>
          <SchemaFields
            idPrefix="opt"
            fields={fields}
            values={values}
            errors={errors}
            onChange={(n, v) => setValues({ ...values, [n]: v })}
            context={contextOf(ruleset, null, { options: recordOf(ruleset.options.defaults) })}
          />
        </details>
      ) : null}
      {Object.keys(errors).some((k) => k !== '__seed') ? (
        <p className="field-error" role="alert">
          ✕ Some options are invalid:{' '}
          {Object.entries(errors)
            .filter(([k]) => k !== '__seed')
            .map(([k, m]) => `${fields.find((f) => f.name === k)?.label ?? k} ${m}`)
            .join('; ')}
        </p>
      ) : null}
      <ErrorMessage error={error} />
      <button type="submit" className="primary" disabled={busy || !ruleset}>
        Create encounter
      </button>
    </form>
  );
}

/** The GM's saved encounters (newest first), each resumable, and a form to create one. */
export function GmList() {
  const gm = useGmSession();
  // the session cookie signs every request in (lib/session.ts): no token in this page
  const token = gm.status === 'in' ? SESSION_COOKIE : null;
  const list = useAsync(
    () =>
      token !== null
        ? api<EncounterSummary[] | { encounters: EncounterSummary[] }>('GET', '/encounters', undefined, { token })
        : Promise.resolve([]),
    [token],
  );
  const rulesets = useAsync(() => loadRulesets(), []);
  if (token === null) {
    return (
      <main>
        <h1>Game master</h1>
        {gm.status === 'loading' ? (
          <p className="muted">Checking your sign-in…</p>
        ) : (
          <p>
            You are not signed in.{' '}
            <a href="/" onClick={(e) => (e.preventDefault(), navigate('/'))}>
              Sign up or sign in
            </a>
            .
          </p>
        )}
      </main>
    );
  }
  const encounters = list.data ? (Array.isArray(list.data) ? list.data : list.data.encounters) : [];
  const unauthorized = list.error instanceof ApiError && list.error.status === 401;
  return (
    <main>
      <header className="topbar">
        <h1>
          <a href="/" onClick={(e) => (e.preventDefault(), navigate('/'))} aria-label="Fray home">
            ⚔
          </a>{' '}
          Your encounters
        </h1>
        <div className="row">
          <a className="button" href="/gm/account" onClick={(e) => (e.preventDefault(), navigate('/gm/account'))}>
            Account settings
          </a>
          <button type="button" onClick={() => void signOut().finally(() => navigate('/'))}>
            Sign out
          </button>
        </div>
      </header>
      {unauthorized ? (
        <ErrorMessage error={new ApiError('UNAUTHORIZED', 'You are signed out (the session ended or expired). Sign in again.', 401)} />
      ) : (
        <ErrorMessage error={list.error} />
      )}
      <Section title="Saved encounters" id="saved">
        {list.loading && !list.data ? <p className="muted">Loading…</p> : null}
        {!list.loading && encounters.length === 0 && !list.error ? <p className="muted">No encounters yet. Create one below.</p> : null}
        {encounters.length > 0 ? (
          <EncounterTable encounters={encounters} rulesets={rulesets.data} token={token} reload={list.reload} />
        ) : null}
      </Section>
      <Section title="New encounter" id="new">
        <ErrorMessage error={rulesets.error} />
        {rulesets.data ? (
          rulesets.data.length === 0 ? (
            <p className="muted">The server has no rulesets.</p>
          ) : (
            <CreateEncounter token={token} rulesets={rulesets.data} />
          )
        ) : null}
      </Section>
      <Section title="Move encounters" id="move">
        <ImportFile token={token} onDone={() => list.reload()} />
        <ExportButton path="/account/export" name="fray-account.fray-account.json" token={token} label="Export every encounter" />
      </Section>
    </main>
  );
}
