import { useState } from 'react';
import { isRecord } from '../lib/guards.js';
import { ErrorMessage } from './common.js';
import { FieldError } from './Outcome.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/** The server's answer to a command: its refusal (a typed error: code, message, rule), or null when it was done. */
function refusalOf(r: unknown): unknown {
  return isRecord(r) && r.ok === false ? r.error : null;
}

/** "Send as JSON…", then the question before it goes: only the server will check it. */
function SendStep(p: { title: string; pending: boolean; onAsk: () => void; onYes: () => void; onCancel: () => void }) {
  if (!p.pending)
    return (
      <button type="button" onClick={p.onAsk}>
        Send as JSON…
      </button>
    );
  return (
    <div className="confirm" role="alertdialog" aria-label="Send this JSON?">
      <p>
        Send <strong>{p.title}</strong> exactly as typed? It is checked by the server only.
      </p>
      <div className="row">
        <button type="button" className="primary" onClick={p.onYes}>
          Yes, send it
        </button>
        <button type="button" onClick={p.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * The expert's fallback: the chosen command as JSON, edited by hand (prefilled from the form). Only
 * the server checks it, so it asks before sending, in plain words, and shows the server's refusal
 * (its message, rule and code) right here.
 */
export function RawJson({ type, title, prefill, send }: { type: string; title: string; prefill: () => string; send: Send }) {
  const [open, setOpen] = useState(false);
  const [body, setBody] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const [pending, setPending] = useState<Record<string, unknown> | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const parse = (): Record<string, unknown> | null => {
    let v: unknown;
    try {
      v = JSON.parse(body.trim() || '{}');
    } catch {
      setErr('This is not JSON: the fields go between { }, each "name": value, separated by commas.');
      return null;
    }
    if (!isRecord(v)) return (setErr('The fields must be one JSON object, between { }.'), null);
    return { ...v, type };
  };
  const ask = () => {
    setErr(null);
    setRefusal(null);
    setDone(null);
    setPending(parse());
  };
  const confirm = async () => {
    if (!pending) return;
    setPending(null);
    const r = await send(pending, `${title}: done.`);
    const refused = refusalOf(r);
    setRefusal(refused);
    setDone(refused ? null : `${title}: done.`);
  };
  return (
    <details
      className="sub raw-json"
      data-testid="raw-json"
      onToggle={(e) => {
        const now = e.currentTarget.open;
        setOpen(now);
        if (now && !body) setBody(prefill());
      }}
    >
      <summary>Expert: send “{title}” as JSON</summary>
      {open ? (
        <div className="raw-json-body">
          <p className="muted">
            The form above checks every field before sending; this does not. Only the server checks it, and says why if it refuses.
          </p>
          <label htmlFor="raw-json-body">{title}: fields (JSON)</label>
          <textarea
            id="raw-json-body"
            rows={4}
            value={body}
            spellCheck={false}
            onChange={(e) => (setBody(e.target.value), setPending(null), setErr(null))}
          />
          <FieldError text={err} />
          <SendStep title={title} pending={!!pending} onAsk={ask} onYes={() => void confirm()} onCancel={() => setPending(null)} />
          {refusal ? (
            <div data-testid="raw-json-refusal">
              <p className="muted">The server refused it:</p>
              <ErrorMessage error={refusal} onDismiss={() => setRefusal(null)} />
            </div>
          ) : null}
          {done ? (
            <p className="ok" role="status">
              ✓ {done}
            </p>
          ) : null}
        </div>
      ) : null}
    </details>
  );
}
