import type { Ctx, EncounterState, Hex } from '@fray/engine';
import type { OcvPhasesOptions } from '../options.js';
import type { Stats } from './stats.js';

export interface ManoeuvreUse {
  id: string;
  ocv: number;
  dcv: number;
  halveDcv?: boolean;
}

type Trigger = { on: 'attacks' | 'moves' | 'acts' | 'enters-reach' | 'manual'; by: string | null; description: string };

export type Hold =
  | { kind: 'delay'; key: string; before: string | null }
  | { kind: 'ready'; key: string; actionType: 'attack' | 'move' | 'free'; action: string | null; trigger: Trigger };

export type Data = {
  stun: number;
  endurance: number;
  /** per Phase */
  slots: number;
  attacks: number;
  full: boolean;
  moved: boolean;
  stepped: boolean;
  free: number;
  aoos: number;
  opportunities: string[];
  restricted: boolean;
  braced: boolean;
  /** since the start of the character's last regular action */
  manoeuvres: ManoeuvreUse[];
  dodging: boolean;
  hold: Hold | null;
  skipNext: boolean;
  /** cannot abort until its Initiative slot in the Phase with this ordinal (see phaseOrdinal) has passed */
  abortLock: number | null;
  fullStarted: string | null;
};

export type PhaseName = 'surprise' | 'phase-1' | 'phase-2' | 'phase-3' | 'phase-4' | 'post-turn';

/** What to do with an action; interrupted actions wait on `rs.jobs` (a stack). */
export interface Job {
  actor: string;
  row: string;
  via: 'regular' | 'readied' | 'abort';
  stage: 'trigger' | 'provoke' | 'resolve';
  targetIds: string[];
  path: Hex[];
  itemId: string | null;
  ranged: number | null;
  ocvModifier: number;
  /** the provocation was negated (skill check) or ruled away */
  noProvoke: boolean;
  /** the first hex of `path` is entered after leaving the current hex: that leaving was already checked */
  leaveChecked: boolean;
  /**
   * the last hex of this move the mover stood in alone, while it passes through an ally's hex (a
   * move stopped there steps back to it: never ending in an occupied hex); absent otherwise
   */
  back?: Hex;
  fullAction: string | null;
  step: Hex | null;
}

export interface Intent {
  windowId: string;
  combatantId: string;
  job: Job;
  /** ready: who triggered it (the readied character acts just before them) */
  before: string | null;
  kind: 'readied' | 'abort';
}

export type RS = {
  map: { blocking: string[]; difficult: string[]; dark: string[] };
  order: string[];
  scores: Record<string, number>;
  unaware: string[];
  turn: number;
  phase: PhaseName | null;
  phaseCount: number;
  passed: string[];
  spent: string[];
  offered: string[];
  jobs: Job[];
  intents: Intent[];
  pauseFor: string | null;
  attacks: { rollId: string; attackerId: string; targetId: string; ocv: number; need: number; hit: boolean }[];
  stalled: boolean;
};

export type S = EncounterState<RS, Stats, Data>;

/** A command's context, and the encounter state it reads (the engine's `ctx.state`, with this ruleset's stats and data). */
export type C = Ctx<RS, OcvPhasesOptions>;
