import { useState } from 'react';
import type { CommandResult, Live } from '../lib/live.js';
import type { WireError } from '../lib/types.js';
import { ErrorMessage } from './common.js';

/** How the last GM command ended: a line saying it was done, or the server's refusal. */
export type Outcome = { ok: true; text: string } | { ok: false; error: WireError } | null;

/** Sends a command and keeps its outcome (`text` says what was done). */
export type Send = (cmd: Record<string, unknown>, text: string) => Promise<CommandResult | null>;

export function useCommand(live: Live | null): [Send, Outcome, () => void] {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const send: Send = async (cmd, text) => {
    if (!live) return null;
    setOutcome(null);
    const r = await live.send(cmd);
    setOutcome(r.ok ? { ok: true, text } : { ok: false, error: r.error });
    return r;
  };
  return [send, outcome, () => setOutcome(null)];
}

export function OutcomeLine({ outcome, clear }: { outcome: Outcome; clear: () => void }) {
  if (!outcome) return null;
  if (!outcome.ok) return <ErrorMessage error={outcome.error} onDismiss={clear} />;
  return (
    <p className="ok" role="status">
      ✓ {outcome.text}
    </p>
  );
}

/** A form's own complaint (before anything is sent). */
export function FieldError({ text }: { text: string | null }) {
  return text ? (
    <p className="field-error" role="alert">
      ✕ {text}
    </p>
  ) : null;
}
