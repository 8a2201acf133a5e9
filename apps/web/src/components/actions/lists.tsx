import type { ReactNode } from 'react';
import { formatCost } from '../../lib/describe.js';
import { labelOf } from '../../lib/labels.js';
import type { ActionOption, WireError } from '../../lib/types.js';

/** Allowed actions by kind, in the order the ruleset lists them (kinds in first-seen order). */
function groupsOf(actions: ActionOption[], keep: (a: ActionOption) => boolean): Array<[string, Array<[ActionOption, number]>]> {
  const groups = new Map<string, Array<[ActionOption, number]>>();
  actions.forEach((a, i) => {
    if (!keep(a)) return;
    const k = a.kind ?? 'other';
    groups.set(k, [...(groups.get(k) ?? []), [a, i]]);
  });
  return [...groups.entries()];
}

/** How the ruleset shows its action lists (`display.actions`): the common ones first, kinds in its words. */
export interface ListShape {
  common: string[];
  kinds: Record<string, string>;
}

const kindName = (shape: ListShape, kind: string): string => shape.kinds[kind] ?? labelOf(kind);

/** What the lists share: the actions, which are shown (the search), the open form, and running one. */
export interface ListProps {
  actions: ActionOption[];
  name: string;
  shown: (a: ActionOption) => boolean;
  open: number | null;
  busy: boolean;
  run: (a: ActionOption, i: number) => void;
  shape: ListShape;
}

/**
 * The label and cost as shown under a kind's heading: a trailing "(major)" that repeats the
 * heading is left out, and so is a cost of exactly one of that kind ("cost: 1 major" under MAJOR).
 */
export function underHeading(a: ActionOption, heading: { kind: string; name: string } | undefined): { label: string; cost: string } {
  const cost = formatCost(a.cost);
  if (!heading) return { label: a.label, cost };
  const words = [heading.kind, heading.name].map((w) => w.trim().toLowerCase());
  const m = /^(.*\S)\s*\(([^()]+)\)$/.exec(a.label);
  const label = m && words.includes(m[2]!.trim().toLowerCase()) ? m[1]! : a.label;
  const entries = Object.entries(a.cost ?? {}).filter(([, n]) => n !== 0);
  const same = entries.length === 1 && entries[0]![1] === 1 && words.includes(entries[0]![0].toLowerCase());
  return { label, cost: same ? '' : cost };
}

function ActionButton({ a, i, p, kindTag, heading }: { a: ActionOption; i: number; p: ListProps; kindTag: boolean; heading?: boolean }) {
  const shown = underHeading(a, heading && a.kind ? { kind: a.kind, name: kindName(p.shape, a.kind) } : undefined);
  return (
    <button
      type="button"
      className="action"
      onClick={() => p.run(a, i)}
      disabled={p.busy}
      aria-expanded={(a.params ?? []).length > 0 ? p.open === i : undefined}
    >
      <span className="action-label">{shown.label}</span>
      {kindTag && a.kind ? <span className="tag">{kindName(p.shape, a.kind)}</span> : null}
      {shown.cost ? <span className="cost">cost: {shown.cost}</span> : null}
      {a.provokes ? <span className="tag tag-warn">! provokes: {a.provokes.reason}</span> : null}
    </button>
  );
}

function KindLists({ p, keep }: { p: ListProps; keep: (a: ActionOption) => boolean }) {
  const shape = p.shape;
  return (
    <>
      {groupsOf(p.actions, keep).map(([kind, items]) => (
        <div key={kind} className="kind-group">
          <h4 className="kind-heading">
            {kindName(shape, kind)} ({items.length})
          </h4>
          <ul className="action-list" aria-label={`${kindName(shape, kind)} for ${p.name}`}>
            {items.map(([a, i]) => (
              <li key={i}>
                <ActionButton a={a} i={i} p={p} kindTag={false} heading />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/**
 * The "your turn" card: the ruleset's common actions first (what one usually does: attack, move),
 * every other possible one under "More actions" by kind, with the blocked ones; a search shows
 * every match. A ruleset naming no common action: its kinds, the first small one open.
 */
export function GroupedActions({ p, many, needle, blocked }: { p: ListProps; many: boolean; needle: string; blocked: ReactNode }) {
  const shape = p.shape;
  const common = new Set(shape.common);
  const isCommon = (a: ActionOption) => common.has(a.action ?? a.command);
  const first = p.actions.filter((a) => a.allowed && isCommon(a));
  if (needle === '' && first.length > 0) {
    const rest = p.actions.filter((a) => a.allowed && !isCommon(a)).length;
    return (
      <>
        <ul className="action-list common-actions" aria-label={`Common actions for ${p.name}`}>
          {p.actions.map((a, i) =>
            a.allowed && isCommon(a) ? (
              <li key={i}>
                <ActionButton a={a} i={i} p={p} kindTag={false} />
              </li>
            ) : null,
          )}
        </ul>
        {rest > 0 || blocked ? (
          <details className="action-group more-actions">
            <summary>More actions ({rest})</summary>
            <KindLists p={p} keep={(a) => a.allowed && !isCommon(a)} />
            {blocked}
          </details>
        ) : null}
      </>
    );
  }
  return (
    <>
      {groupsOf(p.actions, (a) => a.allowed && p.shown(a)).map(([kind, items], gi) => (
        <details
          key={`${kind}-${needle ? 'q' : ''}`}
          className="action-group"
          open={!many || needle !== '' || (gi === 0 && items.length <= 6)}
        >
          <summary>
            {kindName(shape, kind)} ({items.length})
          </summary>
          <ul className="action-list" aria-label={`${kindName(shape, kind)} for ${p.name}`}>
            {items.map(([a, i]) => (
              <li key={i}>
                <ActionButton a={a} i={i} p={p} kindTag={false} heading />
              </li>
            ))}
          </ul>
        </details>
      ))}
      {blocked}
    </>
  );
}

export function FlatActions({ p, hidden }: { p: ListProps; hidden: boolean }) {
  return (
    <ul className="action-list" aria-label={`Actions for ${p.name}`} hidden={hidden}>
      {p.actions.map((a, i) =>
        !hidden && a.allowed && p.shown(a) ? (
          <li key={i}>
            <ActionButton a={a} i={i} p={p} kindTag />
          </li>
        ) : null,
      )}
    </ul>
  );
}

/** The blocked actions, each with the rule that blocks it (pressing one shows the refusal). */
export function BlockedActions({
  p,
  combatantId,
  open,
  onShow,
}: {
  p: ListProps;
  combatantId: string;
  open: boolean;
  onShow: (error: WireError) => void;
}) {
  const blocked = p.actions.filter((a) => !a.allowed);
  return (
    <details className="blocked-list" open={open}>
      <summary>Not possible now ({blocked.length}) — why</summary>
      <ul className="action-list" aria-label={`Blocked actions for ${p.name}`}>
        {p.actions.map((a, i) =>
          a.allowed || !p.shown(a) ? null : (
            <li key={i} className="blocked" data-testid="blocked-action">
              <button
                type="button"
                className="action"
                aria-disabled="true"
                aria-describedby={`blocked-${combatantId}-${i}`}
                onClick={() => onShow(a.blocked ?? { code: 'BLOCKED', message: 'Not allowed now.' })}
              >
                <span aria-hidden="true">⊘ </span>
                <span className="action-label">{a.label}</span>
                {a.kind ? <span className="tag">{kindName(p.shape, a.kind)}</span> : null}
                {a.cost && formatCost(a.cost) ? <span className="cost">cost: {formatCost(a.cost)}</span> : null}
              </button>
              <small id={`blocked-${combatantId}-${i}`} className="reason">
                Blocked: {a.blocked?.message ?? 'not allowed now'}
                {a.blocked?.rule ? <span className="rule"> ({a.blocked.rule})</span> : null}
              </small>
            </li>
          ),
        )}
      </ul>
    </details>
  );
}
