import { labelOf } from '../lib/labels.js';
import { itemLocations, LOCATION_WORDS, type ItemRow } from '../lib/items.js';
import type { RulesetInfo } from '../lib/types.js';

function ItemFields({
  prefix,
  n,
  row,
  set,
  remove,
  locations,
}: {
  prefix: string;
  n: number;
  row: ItemRow;
  set: (r: ItemRow) => void;
  remove: () => void;
  locations: string[];
}) {
  const id = `${prefix}-item${n}`;
  const what = row.name.trim() || `item ${n + 1}`;
  return (
    <li className="item-row" data-testid="item-row">
      <div className="field">
        <label htmlFor={`${id}-name`}>Item name</label>
        <input
          id={`${id}-name`}
          value={row.name}
          maxLength={120}
          onChange={(e) => set({ ...row, name: e.target.value })}
          placeholder="e.g. Short bow"
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-location`}>Where</label>
        <select id={`${id}-location`} value={row.location} onChange={(e) => set({ ...row, location: e.target.value })}>
          {locations.map((l) => (
            <option key={l} value={l}>
              {LOCATION_WORDS[l] ?? labelOf(l)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          value={row.tags}
          onChange={(e) => set({ ...row, tags: e.target.value })}
          placeholder="melee, short blade"
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-props`}>Properties</label>
        <input
          id={`${id}-props`}
          value={row.props}
          onChange={(e) => set({ ...row, props: e.target.value })}
          placeholder="weapon: ranged, type: bow"
        />
      </div>
      <button type="button" className="remove-item" onClick={remove} aria-label={`Remove ${what}`}>
        ✕ Remove
      </button>
    </li>
  );
}

/** The combatant's items as a list: a row per item (name, where it is, tags, properties), added and removed by buttons. */
export function ItemsEditor({
  prefix,
  rows,
  onChange,
  ruleset,
  error,
}: {
  prefix: string;
  rows: ItemRow[];
  onChange: (rows: ItemRow[]) => void;
  ruleset: RulesetInfo;
  error?: string;
}) {
  const locations = itemLocations(ruleset);
  return (
    <fieldset className={`items-editor${error ? ' invalid' : ''}`}>
      <legend>Items ({rows.length === 0 ? 'none' : rows.length})</legend>
      {rows.length > 0 ? (
        <ul className="item-rows">
          {rows.map((r, n) => (
            <ItemFields
              key={n}
              prefix={prefix}
              n={n}
              row={r}
              locations={locations}
              set={(x) => onChange(rows.map((y, k) => (k === n ? x : y)))}
              remove={() => onChange(rows.filter((_, k) => k !== n))}
            />
          ))}
        </ul>
      ) : null}
      <small className="doc">
        Properties are what the ruleset reads, as name: value, separated by commas (e.g. weapon: ranged, type: bow, damage: 1d8).
      </small>
      {error ? (
        <small className="field-error" role="alert">
          ✕ Items: {error}
        </small>
      ) : null}
      <button
        type="button"
        onClick={() =>
          onChange([
            ...rows,
            {
              id: '',
              name: '',
              location: locations.includes('right-hand') ? 'right-hand' : (locations[0] ?? 'carried'),
              tags: '',
              props: '',
            },
          ])
        }
      >
        + Add an item
      </button>
    </fieldset>
  );
}
