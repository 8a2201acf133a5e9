import { useState } from 'react';
import { sentence, type Names, type RulesetDisplay } from '../lib/display.js';
import { at, isRecord, isString } from '../lib/guards.js';
import type { EncounterState } from '../lib/types.js';
import type { PendingRuling } from '@fray/engine';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;
type Entry = Record<string, unknown> & { id: string };

/** The entries of a ruling's list in the ruleset state (`rs.<list>`). */
function entriesOf(state: EncounterState, r: PendingRuling): Entry[] {
  const list = at(state.rs, r.list);
  return Array.isArray(list) ? list.filter((x: unknown): x is Entry => isRecord(x) && isString(x.id)) : [];
}

/** One pending ruling: its sentence, an optional number (e.g. the damage) and a button per choice. */
function RulingCard({
  r,
  entry,
  display,
  names,
  send,
}: {
  r: PendingRuling;
  entry: Entry;
  display: RulesetDisplay;
  names: Names;
  send: Send;
}) {
  const initial = r.number ? Number(entry[r.number.from] ?? 0) : 0;
  const [n, setN] = useState(String(initial));
  const text = sentence({ ...display, events: { ruling: r.text } }, names, { ...entry, type: 'ruling' }) ?? entry.id;
  const numberId = `ruling-${entry.id}-${r.number?.field ?? 'n'}`;
  const value = Number.parseInt(n, 10);
  const valid = !r.number || (Number.isInteger(value) && value >= (r.number.min ?? 0) && value <= (r.number.max ?? 1000));
  return (
    <div className="card ruling" data-testid={`ruling-${entry.id}`} role="group" aria-label={`${r.title}: ${text}`}>
      <strong>{r.title}</strong>
      <p>{text}</p>
      {r.number ? (
        <div className="field">
          <label htmlFor={numberId}>{r.number.label}</label>
          <input
            id={numberId}
            type="number"
            inputMode="numeric"
            min={r.number.min ?? 0}
            max={r.number.max}
            value={n}
            onChange={(e) => setN(e.target.value)}
          />
        </div>
      ) : null}
      <div className="row">
        {r.choices.map((ch, i) => {
          const withNumber = ch.number && r.number;
          const label = withNumber ? `${ch.label} (${r.number!.label.toLowerCase()} ${Number.isInteger(value) ? value : '?'})` : ch.label;
          return (
            <button
              key={ch.label}
              type="button"
              className={i === 0 ? 'primary' : undefined}
              disabled={Boolean(withNumber) && !valid}
              onClick={() =>
                void send(
                  { type: r.command, [r.idField]: entry.id, ...ch.fields, ...(withNumber ? { [r.number!.field]: value } : {}) },
                  `${r.title}: ${label}.`,
                )
              }
            >
              {label}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** Every ruling the GM owes, from the ruleset's display (`rulings`); nothing when none is pending. */
export function PendingRulings({ display, state, send }: { display: RulesetDisplay; state: EncounterState; send: Send }) {
  const names: Names = { state };
  const cards = (display.rulings ?? []).flatMap((r) => entriesOf(state, r).map((entry) => ({ r, entry })));
  if (cards.length === 0) return null;
  return (
    <div className="cards" data-testid="pending-rulings">
      {cards.map(({ r, entry }) => (
        <RulingCard key={`${r.list}:${entry.id}`} r={r} entry={entry} display={display} names={names} send={send} />
      ))}
    </div>
  );
}
