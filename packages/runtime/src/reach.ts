/**
 * Where a combatant can go with one of its movement options, for the battle map: the server tries
 * each candidate destination against the rules (the engine's `apply` on a copy, nothing kept) and
 * answers which are legal, by which path, how many steps, and where a step opens a reaction
 * window (an attack of opportunity). The client holds no rules.
 *
 * Secrecy: the trial runs on the state without the combatants this viewer does not see, so a
 * hidden combatant never blocks, threatens or is named in the answer of a viewer who cannot see it.
 * Only acceptance and the reaction a step opens are reported, never other events (no roll leaks).
 */
import {
  apply,
  withoutCombatants,
  hexLine,
  hexNeighbors,
  legalActions,
  squareLine,
  type ActionOption,
  type Actor,
  type EncounterState,
  type EngineError,
  type EngineEvent,
  type Hex,
  type ParamSpec,
  type Ruleset,
  type Square,
  type Viewer,
} from '@fray/engine';

export interface ReachRequest {
  combatantId: string;
  /** the option as `actions` gave it: its command, action and template pick it */
  command: string;
  action?: string | undefined;
  template?: Record<string, unknown> | undefined;
  /** the option's other fields, as chosen so far (e.g. a charge's target) */
  params?: Record<string, unknown> | undefined;
  /** a destination to explain: why it can or cannot be reached */
  to?: unknown;
}
export interface ReachTarget {
  to: unknown;
  /** grid options: the cells, one step at a time (the command's path) */
  path?: unknown[];
  steps: number;
  /** the first reaction window this move opens: after which step (0 = before the first), who may react */
  provokes?: { at: number; from: string[]; description: string };
  label?: string;
}
export type ReachAnswer =
  | {
      ok: true;
      version: number;
      space: 'squares' | 'hexes' | 'zones';
      param: string;
      paramKind: 'path' | 'position';
      from: unknown;
      maxSteps: number | null;
      reachable: ReachTarget[];
      refused: Array<{ to: unknown; error: EngineError }>;
      explain?: { to: unknown; ok: boolean; error?: EngineError; path?: unknown[] };
    }
  | { ok: false; error: EngineError | { code: string; message: string } };

/** A grid's geometry: which positions are its cells, a cell's neighbours, the straight line between two. */
interface Grid<C> {
  isCell(p: unknown): p is C;
  neighbours(c: C): C[];
  line(a: C, b: C): C[];
}
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const squares: Grid<Square> = {
  isCell: (p): p is Square => isRecord(p) && typeof p.x === 'number' && typeof p.y === 'number',
  // straight steps first, so that of two equally short paths the straighter one is found first
  neighbours: ({ x, y }) =>
    [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
      [1, 1],
      [1, -1],
      [-1, 1],
      [-1, -1],
    ].map(([dx, dy]) => ({ x: x + dx!, y: y + dy! })),
  line: squareLine,
};
const hexes: Grid<Hex> = {
  isCell: (p): p is Hex => isRecord(p) && typeof p.q === 'number' && typeof p.r === 'number',
  neighbours: hexNeighbors,
  line: hexLine,
};
/** A movement option's destination field. */
type DestinationParam = ParamSpec & { kind: 'path' | 'position' };
const isDestination = (p: ParamSpec): p is DestinationParam => p.kind === 'path' || p.kind === 'position';
/** What a trial reads of the window a `reaction.opened` event opens (the engine's ReactionWindow): who may react, and why. */
function openedWindow(e: EngineEvent): { eligible: unknown[]; description: string } | null {
  const w = e.window;
  if (!isRecord(w) || !Array.isArray(w.eligible) || !isRecord(w.trigger) || typeof w.trigger.description !== 'string') return null;
  return { eligible: w.eligible, description: w.trigger.description };
}
const isZone = (z: unknown): z is { id: string; name: string } => isRecord(z) && typeof z.id === 'string' && typeof z.name === 'string';
const keyOf = (p: unknown): string => JSON.stringify(p);
/** Trials per request: a grid answer explores outward from legal cells only, so this is rarely reached. */
const MAX_TRIALS = 700;
const DEFAULT_MAX_STEPS = 12;

function sameTemplate(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

/** The state as far as this viewer knows it: without the combatants it does not see (the engine's `withoutCombatants`). */
function knownState(state: EncounterState, visible: ReadonlySet<string>): EncounterState {
  const unseen = Object.keys(state.combatants).filter((id) => !visible.has(id));
  return unseen.length === 0 ? state : withoutCombatants(state, unseen);
}

interface Trial {
  ok: boolean;
  error?: EngineError;
  provokes?: ReachTarget['provokes'];
}

function tryIt(
  ruleset: Ruleset,
  state: EncounterState,
  cmd: Record<string, unknown>,
  moverId: string,
  path: unknown[] | null,
  visible: ReadonlySet<string>,
): Trial {
  let r: ReturnType<typeof apply>;
  try {
    r = apply(ruleset, state, cmd);
  } catch {
    return {
      ok: false,
      error: { code: 'ILLEGAL_ACTION', rule: 'engine.commands', message: 'The rules could not check this destination.' },
    };
  }
  if (!r.ok) return { ok: false, error: r.error };
  const opened = r.events.find((e) => e.type === 'reaction.opened');
  const w = opened ? openedWindow(opened) : null;
  if (!w) return { ok: true };
  const from = w.eligible.filter((id): id is string => typeof id === 'string' && visible.has(id) && id !== moverId);
  if (from.length === 0) return { ok: true };
  const stopped = keyOf(r.state.combatants[moverId]?.position ?? null);
  const at = path ? path.findIndex((p) => keyOf(p) === stopped) + 1 : 0;
  return { ok: true, provokes: { at, from, description: w.description } };
}

function gridReach<C>(
  ruleset: Ruleset,
  state: EncounterState,
  grid: Grid<C>,
  base: Record<string, unknown>,
  param: DestinationParam,
  from: C,
  moverId: string,
  visible: ReadonlySet<string>,
): { reachable: ReachTarget[]; refused: Array<{ to: unknown; error: EngineError }>; maxSteps: number } {
  const maxSteps = Math.min(param.max ?? DEFAULT_MAX_STEPS, 30);
  const reachable: ReachTarget[] = [];
  const refused: Array<{ to: unknown; error: EngineError }> = [];
  const seen = new Set<string>([keyOf(from)]);
  let frontier: Array<{ cell: C; path: C[] }> = [{ cell: from, path: [] }];
  let trials = 0;
  for (let depth = 1; depth <= maxSteps + 1 && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      for (const n of grid.neighbours(f.cell)) {
        const k = keyOf(n);
        if (seen.has(k) || trials >= MAX_TRIALS) continue;
        seen.add(k);
        trials++;
        const path = [...f.path, n];
        const t = tryIt(ruleset, state, { ...base, [param.name]: param.kind === 'path' ? path : n }, moverId, path, visible);
        if (t.ok) {
          reachable.push({ to: n, path, steps: path.length, ...(t.provokes ? { provokes: t.provokes } : {}) });
          next.push({ cell: n, path });
        } else refused.push({ to: n, error: t.error! });
      }
    }
    frontier = next;
  }
  return { reachable, refused, maxSteps };
}

function zoneReach(
  ruleset: Ruleset,
  state: EncounterState,
  base: Record<string, unknown>,
  param: DestinationParam,
  moverId: string,
  visible: ReadonlySet<string>,
) {
  const at = (ruleset.space?.zones ?? 'rs.zones').split('.').reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), state);
  const zones = isRecord(at) ? Object.values(at).filter(isZone) : [];
  const candidates: Array<{ to: Record<string, unknown>; label: string }> = zones.map((z) => ({
    to: { zone: z.id },
    label: `Go to ${z.name}`,
  }));
  for (const c of Object.values(state.combatants)) {
    if (c.id === moverId || !visible.has(c.id)) continue;
    candidates.push({ to: { join: c.id, mode: 'engage' }, label: `Engage ${c.name}` });
    candidates.push({ to: { join: c.id, mode: 'group' }, label: `Group with ${c.name}` });
    candidates.push({ to: { join: c.id, mode: 'near' }, label: `Go next to ${c.name}` });
  }
  const reachable: ReachTarget[] = [];
  const refused: Array<{ to: unknown; error: EngineError }> = [];
  for (const cand of candidates.slice(0, MAX_TRIALS)) {
    const t = tryIt(ruleset, state, { ...base, [param.name]: cand.to }, moverId, null, visible);
    if (t.ok) reachable.push({ to: cand.to, steps: 1, label: cand.label, ...(t.provokes ? { provokes: t.provokes } : {}) });
    else refused.push({ to: cand.to, error: t.error! });
  }
  return { reachable, refused };
}

/** The answer to a `reach` request; the caller has checked that this viewer may command the combatant. */
export function reachOf(
  ruleset: Ruleset,
  full: EncounterState,
  viewer: Viewer,
  visible: ReadonlySet<string>,
  req: ReachRequest,
): ReachAnswer {
  const space = ruleset.space?.kind;
  if (!space) return { ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'engine.space', message: `${ruleset.name} has no map.` } };
  const options: ActionOption[] = legalActions(ruleset, full, req.combatantId);
  const option = options.find(
    (o) => o.command === req.command && (req.action === undefined || o.action === req.action) && sameTemplate(o.template, req.template),
  );
  if (!option)
    return {
      ok: false,
      error: { code: 'UNKNOWN_COMMAND', rule: 'engine.commands', message: `No "${req.command}" option for this combatant now.` },
    };
  if (!option.allowed)
    return { ok: false, error: option.blocked ?? { code: 'ILLEGAL_ACTION', rule: 'engine.commands', message: 'Not possible now.' } };
  const param = (option.params ?? []).find(isDestination);
  if (!param)
    return { ok: false, error: { code: 'INVALID_COMMAND', rule: 'engine.commands', message: `${option.label} takes no destination.` } };
  const by: Actor =
    viewer.role === 'gm' ? { role: 'gm' } : viewer.role === 'player' ? { role: 'player', playerId: viewer.playerId } : { role: 'gm' };
  const base: Record<string, unknown> = { ...(req.params ?? {}), ...(option.template ?? {}), type: option.command, by };
  const state = viewer.role === 'gm' ? full : knownState(full, visible);
  const mover = state.combatants[req.combatantId];
  const common = {
    ok: true as const,
    version: full.version,
    space,
    param: param.name,
    paramKind: param.kind,
    from: mover?.position ?? null,
  };
  if (space === 'zones') return { ...common, maxSteps: null, ...zoneReach(ruleset, state, base, param, req.combatantId, visible) };
  const on = { ruleset, state, base, param, mover: req.combatantId, visible, to: req.to };
  const answer = space === 'hexes' ? onGrid(hexes, mover?.position, on) : onGrid(squares, mover?.position, on);
  if (!answer)
    return {
      ok: false,
      error: {
        code: 'ILLEGAL_ACTION',
        rule: 'engine.space',
        message: `${mover?.name ?? 'This combatant'} is not on the map: the GM places it first.`,
      },
    };
  return { ...common, ...answer };
}

type GridAnswer = Pick<Extract<ReachAnswer, { ok: true }>, 'reachable' | 'refused' | 'maxSteps' | 'explain'>;

/** A grid's answer from where the mover stands (null when it is not on the map), with `to` explained when asked. */
function onGrid<C>(
  grid: Grid<C>,
  position: unknown,
  on: {
    ruleset: Ruleset;
    state: EncounterState;
    base: Record<string, unknown>;
    param: DestinationParam;
    mover: string;
    visible: ReadonlySet<string>;
    to: unknown;
  },
): GridAnswer | null {
  const { ruleset, state, base, param, mover, visible, to } = on;
  if (!grid.isCell(position)) return null;
  const answer: GridAnswer = gridReach(ruleset, state, grid, base, param, position, mover, visible);
  if (grid.isCell(to)) {
    const line = grid.line(position, to).slice(1);
    if (line.length > 0 && line.length <= 200) {
      const t = tryIt(ruleset, state, { ...base, [param.name]: param.kind === 'path' ? line : to }, mover, line, visible);
      answer.explain = { to, ok: t.ok, ...(t.error ? { error: t.error } : {}), path: line };
    }
  }
  return answer;
}
