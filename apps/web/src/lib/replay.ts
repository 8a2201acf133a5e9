import { useEffect, useMemo, useRef, useState } from 'react';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { api } from './api.js';
import { eventsOf } from './events.js';
import { textAt } from './guards.js';
import type { EncounterState, LogEntry } from './types.js';

/**
 * A saved encounter's replay (docs/timeline.md, "Replay"): pages of versions from the server, each
 * the view at its first version and the patches after it, as one viewer saw them live. The pages
 * are read one after the other (the first one shows at once); a version's view is its page's
 * start with the patches up to it applied.
 */

/** Versions per request (the server allows up to 200). */
const PAGE = 200;

export type ReplayStep = LogEntry & { seq: number; ops: Operation[] };

export interface ReplayPageReply {
  encounterId: string;
  name: string;
  ruleset: string;
  as: string;
  branch: number;
  firstVersion: number;
  lastVersion: number;
  from: number;
  to: number;
  state: EncounterState;
  steps: ReplayStep[];
  players: Array<{ playerId: string; combatantIds: string[] }>;
}

/** The GM's own replay (signed in), or a shared read-only link's token. */
export type ReplaySource = { kind: 'gm'; encounterId: string } | { kind: 'link'; token: string };

function fetchPage(source: ReplaySource, as: string, branch: number | null, from: number | null): Promise<ReplayPageReply> {
  const at = `${from === null ? '' : `from=${from}&`}${branch === null ? '' : `branch=${branch}&`}limit=${PAGE}`;
  if (source.kind === 'link') return api<ReplayPageReply>('GET', `/replays/shared?${at}`, undefined, { token: source.token });
  return api<ReplayPageReply>('GET', `/encounters/${encodeURIComponent(source.encounterId)}/replay?as=${encodeURIComponent(as)}&${at}`);
}

/** Every view of a page, oldest first (each a copy: a patch never changes an earlier view). */
const framesOfPage = new WeakMap<ReplayPageReply, EncounterState[]>();
function pageFrames(p: ReplayPageReply): EncounterState[] {
  const hit = framesOfPage.get(p);
  if (hit) return hit;
  const out = [p.state];
  let doc = p.state;
  for (const s of p.steps) {
    doc = jsonpatch.applyPatch(doc, s.ops, false, false).newDocument;
    out.push(doc);
  }
  framesOfPage.set(p, out);
  return out;
}

export interface Replay {
  pages: ReplayPageReply[];
  /** the first page's (name, ruleset, versions, players) */
  meta: ReplayPageReply | null;
  /** every step loaded so far, oldest first */
  log: ReplayStep[];
  /** the newest version loaded */
  loadedTo: number;
  error: unknown;
  /** names of every combatant met so far, in any view loaded (the viewer chooser's labels) */
  names: Map<string, string>;
}

function noteNames(names: Map<string, string>, p: ReplayPageReply): void {
  for (const c of Object.values(p.state.combatants)) names.set(c.id, c.name);
  for (const s of p.steps) {
    for (const e of eventsOf(s)) {
      const name = e.type === 'combatant.added' ? textAt(e, 'combatant.name') : null;
      const id = textAt(e, 'combatantId');
      if (name && id) names.set(id, name);
    }
  }
}

/** Loads the replay of `source` as `as` on `branch` (null: the live one), page after page (again when any changes). */
export function useReplay(source: ReplaySource, as: string, branch: number | null): Replay {
  const [pages, setPages] = useState<ReplayPageReply[]>([]);
  const [error, setError] = useState<unknown>(null);
  const names = useRef(new Map<string, string>()).current;
  const key = source.kind === 'gm' ? `gm:${source.encounterId}` : `link:${source.token}`;
  useEffect(() => {
    let on = true;
    setPages([]);
    setError(null);
    void (async () => {
      let from: number | null = null;
      for (;;) {
        const p = await fetchPage(source, as, branch, from);
        if (!on) return;
        noteNames(names, p);
        setPages((prev) => [...prev, p]);
        if (p.to >= p.lastVersion) return;
        from = p.to;
      }
    })().catch((e: unknown) => on && setError(e));
    return () => {
      on = false;
    };
  }, [key, as, branch]);
  const log = useMemo(() => pages.flatMap((p) => p.steps), [pages]);
  return { pages, meta: pages[0] ?? null, log, loadedTo: pages.length > 0 ? pages[pages.length - 1]!.to : -1, error, names };
}

/** The view at `version` (null while its page is not loaded). */
export function frameAt(r: Replay, version: number): EncounterState | null {
  const p = r.pages.find((x) => x.from <= version && version <= x.to);
  return p ? (pageFrames(p)[version - p.from] ?? null) : null;
}

/** The log up to `version` (steps are in version order). */
export function logUpTo(log: ReplayStep[], version: number): ReplayStep[] {
  let n = 0;
  while (n < log.length && log[n]!.seq <= version) n += 1;
  return n === log.length ? log : log.slice(0, n);
}
