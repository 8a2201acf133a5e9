import { useState } from 'react';
import type { Field } from '../lib/schema-form.js';

export type Common = { id: string; name: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/** A choice in the game's words: the ruleset's (`choiceLabels`), else the value made readable (`very-slow` → "very slow"). */
export function choiceWords(f: Field, value: string): string {
  return f.choiceLabels?.[value] ?? value.replace(/-/g, ' ');
}

/** What the empty choice means: none, the default, a new one made from a name, or nothing chosen yet. */
function emptyChoice(f: Field, value: string): string | null {
  if (f.madeFrom) return `A new ${f.label.toLowerCase()} (named below)`;
  if (f.nullable) return '(none)';
  if (!f.required) return '(default)';
  return value === '' ? '— choose —' : null;
}

/** One choice of a list (an enum, or what a field names: a combatant, a zone, an action). */
export function ChoiceSelect({ f, value, common, onChange }: { f: Field; value: string; common: Common; onChange: (v: string) => void }) {
  const empty = emptyChoice(f, value);
  const choices = f.choices ?? [];
  return (
    <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
      {empty !== null ? <option value="">{empty}</option> : null}
      {choices.map((c) => (
        <option key={c} value={c}>
          {choiceWords(f, c)}
        </option>
      ))}
      {/* a value no longer offered (a zone since renamed away, a removed combatant) stays as it is */}
      {value !== '' && !choices.includes(value) ? <option value={value}>{value}</option> : null}
    </select>
  );
}

/** The entries of an open list that are not among its choices, as typed. */
function OtherEntries({ f, id, others, onChange }: { f: Field; id: string; others: string[]; onChange: (v: string[]) => void }) {
  const [text, setText] = useState(others.join(', '));
  return (
    <span className="other-entries">
      <label htmlFor={`${id}-other`}>Others</label>
      <input
        id={`${id}-other`}
        type="text"
        value={text}
        placeholder="comma, separated"
        aria-label={`${f.label}: others`}
        onChange={(e) => {
          setText(e.target.value);
          onChange(
            e.target.value
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean),
          );
        }}
      />
    </span>
  );
}

/** Several choices, ticked; an open list (feats) also takes other entries, typed. */
export function ChoiceList({ f, value, common, onChange }: { f: Field; value: string[]; common: Common; onChange: (v: string[]) => void }) {
  const choices = f.choices ?? [];
  const others = value.filter((x) => !choices.includes(x));
  const ticked = value.filter((x) => choices.includes(x));
  return (
    <fieldset className="checks" id={common.id} aria-describedby={common['aria-describedby']}>
      <legend className="sr-only">{f.label}</legend>
      {choices.map((c) => (
        <label key={c}>
          <input
            type="checkbox"
            checked={value.includes(c)}
            onChange={(e) => onChange(e.target.checked ? [...value, c] : value.filter((x) => x !== c))}
          />{' '}
          {choiceWords(f, c)}
        </label>
      ))}
      {f.open ? (
        <OtherEntries f={f} id={common.id} others={others} onChange={(o) => onChange([...ticked, ...o])} />
      ) : (
        others.map((o) => (
          // an entry no longer offered (a removed zone) stays until unticked
          <label key={o}>
            <input type="checkbox" checked onChange={() => onChange(value.filter((x) => x !== o))} /> {o}
          </label>
        ))
      )}
    </fieldset>
  );
}
