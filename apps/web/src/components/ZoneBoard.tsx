import type { BattleMapProps, ReachTarget } from './map-tokens.js';
import { conditionsOf, tokenLabel, tokenVitals } from './map-tokens.js';
import { VitalBar } from './Vitals.js';
import { sideColour } from '../lib/geometry.js';
import { at, isRecord, isString } from '../lib/guards.js';
import type { Combatant, EncounterState } from '../lib/types.js';

interface Zone {
  id: string;
  name: string;
  traits?: { movementDie?: number; groupDefenseRatio?: number; notes?: string[] };
  features?: { id: string; name: string; description?: string }[];
  neighbors?: string[];
}

const isZone = (z: unknown): z is Zone => isRecord(z) && isString(z.id) && isString(z.name);

/** The zones as the ruleset keeps them in the state (`space.zones`, e.g. `rs.zones`). */
export function zonesOf(state: EncounterState, path = 'rs.zones'): Zone[] {
  const zones = at(state, path);
  return zones && typeof zones === 'object' ? Object.values(zones).filter(isZone) : [];
}

/** A field of a zone position or a reach target (`zone`, `join`, `group`, `engagement`), if it is a string. */
const fieldOf = (v: unknown, key: string): string | undefined => {
  const x = isRecord(v) ? v[key] : undefined;
  return isString(x) ? x : undefined;
};

function traitWords(z: Zone): string[] {
  const t = z.traits ?? {};
  const out: string[] = [];
  if (t.movementDie) out.push(`movement d${t.movementDie}`);
  if (t.groupDefenseRatio) out.push(`group defence 1 per ${t.groupDefenseRatio}`);
  for (const n of t.notes ?? []) out.push(n);
  return out;
}

function Chip({ state, c, props }: { state: EncounterState; c: Combatant; props: BattleMapProps }) {
  const acting = state.clock.current === c.id;
  const mine = props.isMine(c.id);
  const conds = conditionsOf(state, c.id);
  const joins = (props.marks.reach?.reachable ?? []).filter((t) => fieldOf(t.to, 'join') === c.id);
  const vitals = tokenVitals(props, c);
  return (
    <li className="zone-token-row">
      <button
        type="button"
        data-token={c.id}
        className={`zone-token${props.selected === c.id ? ' selected' : ''}${props.highlight === c.id ? ' moving' : ''}${c.hidden ? ' hidden-token' : ''}`}
        aria-pressed={props.selected === c.id}
        title={tokenLabel(state, c, mine, vitals)}
        onClick={() => props.onToken(c.id)}
      >
        {/* two lines where narrow: who (name, side, tags), then the vitals */}
        <span className="zone-token-who">
          {acting ? <span className="sr-only">acting now: </span> : null}
          <span className="dot" style={{ background: sideColour(c.side) }} aria-hidden="true" />
          <span className="zone-token-name">
            {acting ? '▶ ' : ''}
            {c.name}
            {mine ? ' (you)' : ''}
          </span>
          <span className="muted"> · {c.side}</span>
          {c.hidden ? <span className="tag">hidden</span> : null}
          {conds.map((k) => (
            <span key={k} className="tag badge">
              {k}
            </span>
          ))}
        </span>
        {vitals.length ? (
          <span className="zone-token-vitals">
            {vitals.map((v) => (
              <span
                key={v.key}
                className="zone-token-vital"
                data-testid={`token-vital-${c.id}-${v.key}`}
                data-left={Math.round((v.left ?? 0) * 100)}
              >
                <VitalBar v={v} compact />
              </span>
            ))}
          </span>
        ) : null}
      </button>
      {joins.map((t: ReachTarget) => (
        <button
          key={JSON.stringify(t.to)}
          type="button"
          className={`zone-go${props.marks.chosen === t ? ' chosen' : ''}`}
          onClick={() => props.onCell(t.to)}
        >
          {t.label ?? 'Join'}
        </button>
      ))}
    </li>
  );
}

/** Tokens of one zone: engagements and groups boxed, the rest loose. */
function ZoneContents({ state, people, props }: { state: EncounterState; people: Combatant[]; props: BattleMapProps }) {
  const byKey = new Map<string, Combatant[]>();
  for (const c of people) {
    const engagement = fieldOf(c.position, 'engagement');
    const group = fieldOf(c.position, 'group');
    const k = engagement ? `e:${engagement}` : group ? `g:${group}` : 'loose';
    byKey.set(k, [...(byKey.get(k) ?? []), c]);
  }
  return (
    <>
      {[...byKey.entries()].map(([k, list]) => (
        <div key={k} className={k === 'loose' ? 'zone-loose' : k.startsWith('e:') ? 'engagement' : 'group'}>
          {k !== 'loose' ? <p className="zone-box-title">{k.startsWith('e:') ? '⚔ Engaged' : '◯ Group'}</p> : null}
          <ul className="zone-tokens">
            {list.map((c) => (
              <Chip key={c.id} state={state} c={c} props={props} />
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/** The zones of a `legends` fight (or any zone ruleset): each with traits, features, neighbours, groups and engagements. */
export function ZoneBoard(props: BattleMapProps) {
  const { state, marks } = props;
  const zones = zonesOf(state, props.space.zones);
  const names = new Map(zones.map((z) => [z.id, z.name]));
  const people = Object.values(state.combatants);
  const unplaced = people.filter((c) => !c.position || typeof c.position !== 'object');
  return (
    <div className="zone-board" role="group" aria-label={props.title}>
      {zones.map((z) => {
        const here = people.filter((c) => fieldOf(c.position, 'zone') === z.id);
        const go = marks.reach?.reachable.find((t) => fieldOf(t.to, 'zone') === z.id && !fieldOf(t.to, 'join'));
        const chosen = go !== undefined && marks.chosen === go;
        return (
          <section
            key={z.id}
            className={`zone${go ? ' reach' : ''}${chosen ? ' chosen' : ''}`}
            data-zone={z.id}
            aria-label={`Zone ${z.name}`}
          >
            <header className="zone-head">
              <h3>{z.name}</h3>
              {go ? (
                <button type="button" className="zone-go" onClick={() => props.onCell(go.to)}>
                  {chosen ? '✓ chosen' : 'Go here'}
                </button>
              ) : null}
              {props.placing && !go ? (
                <button type="button" className="zone-go" onClick={() => props.onCell({ zone: z.id })}>
                  Place {state.combatants[props.placing]?.name ?? ''} here (GM)
                </button>
              ) : null}
            </header>
            {traitWords(z).length ? <p className="zone-traits">{traitWords(z).join(' · ')}</p> : null}
            {z.features?.length ? <p className="zone-traits">Features: {z.features.map((f) => f.name).join(', ')}</p> : null}
            {z.neighbors?.length ? <p className="zone-traits">Next to: {z.neighbors.map((n) => names.get(n) ?? n).join(', ')}</p> : null}
            {here.length ? <ZoneContents state={state} people={here} props={props} /> : <p className="muted">Empty</p>}
          </section>
        );
      })}
      {unplaced.length ? (
        <section className="zone" aria-label="Not placed">
          <h3>Not placed</h3>
          <ul className="zone-tokens">
            {unplaced.map((c) => (
              <Chip key={c.id} state={state} c={c} props={props} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
