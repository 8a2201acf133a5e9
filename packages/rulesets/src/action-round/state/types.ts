import type { Combatant, EncounterState } from '@fray/engine';
import type { Stats } from './stats.js';

export type Slot = 'standard' | 'move' | 'quick';
export type ActionType = Slot | 'free' | 'reaction' | 'none';
export interface Square {
  x: number;
  y: number;
}

/** A readied action: what, as which type, and the trigger. */
export interface Readied {
  action: string;
  params: Record<string, unknown>;
  as: Slot;
  trigger: { event: 'acts' | 'moves' | 'attacks' | 'enters-reach'; by: string | null; description: string };
  round: number;
}

export type Data = {
  /** remaining actions of the current turn */
  slots: { standard: number; move: number; quick: number };
  /** free actions used since the start of the last own turn */
  free: number;
  /** took an action (not free) this turn: no delay any more */
  acted: boolean;
  attackedThisTurn: boolean;
  standardTaken: boolean;
  /** the open move action: squares left, and whether a standard action came after it started */
  move: { mode: string; remaining: number; afterStandard: boolean; split: boolean } | null;
  /** squares moved this round (slam) */
  moved: number;
  movedRound: number;
  reactedSeq: number;
  reactedCycle: number;
  quickUsedThisTurn: boolean;
  quickInReaction: boolean;
  readied: Readied | null;
  delaying: boolean;
  delayedSeq: number;
  aim: { targetId: string; bonus: number; maintainedTurn: number } | null;
  activeDefense: number | null;
  stance: { penalty: { on: 'attack' | 'defense' | 'effect'; n: number }; bonus: { on: 'attack' | 'defense' | 'effect'; n: number } } | null;
  surgePending: boolean;
  surgeDeferred: boolean;
  extraStandard: number;
  fatigue: number;
  damage: number;
  socialDamage: number;
  stress: number;
  destiny: number;
  fate: number;
  corruption: number;
  runStreak: number;
  lastRunRound: number;
  speedBonusRound: number;
  analyze: Record<string, number>;
  assistDegrees: number;
  hunchAdvantage: number;
  edges: number;
  alternates: Record<string, string>;
  turnsTaken: number;
  ammo: boolean;
  deathSaveFailures: number;
  retry: boolean;
};

export interface LastCheck {
  id: string;
  combatantId: string;
  purpose: string;
  kind: string;
  total: number;
  dc: number;
  success: boolean;
  degrees: number;
  natural: number;
  targetId: string | null;
  attack?: { kind: AttackKind; damage: number; targetId: string } | null;
  seq: number;
}

export type RS = {
  /** free actions a character may take between its turns (option `freeActionLimit`, GM-adjustable) */
  freeActionLimit: number;
  roundSeconds: number;
  /** increments every time the turn changes hands (one reaction per turn) */
  turnSeq: number;
  areaPowerUsed: string[];
  rulings: Record<string, { type: ActionType; provokes: boolean }>;
  attitudes: Record<string, Record<string, number>>;
  lastCheck: Record<string, LastCheck>;
  /** a combatant whose turn was interrupted by a delayed character acting first */
  interrupted: string | null;
};

export type State = EncounterState<RS, Stats, Data>;
export type C = Combatant<Stats, Data>;

export type AttackKind = 'close' | 'ranged' | 'court' | 'rumor';
export type Benefit = 'afflict' | 'disarm' | 'grab' | 'pull' | 'push' | 'break';
export type TriggerKind = 'acts' | 'moves' | 'attacks' | 'enters-reach';
