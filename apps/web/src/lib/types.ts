/**
 * The engine's state and action shapes as the browser sees them (packages/engine/src/types.ts).
 * Re-exported as types only: the browser bundle never runs the engine.
 */
export type {
  ActionOption,
  Clock,
  Combatant,
  Effect,
  EncounterState,
  EngineEvent,
  ParamSpec,
  ReactionWindow,
  RollRecord,
} from '@fray/engine';

export interface WireError {
  code: string;
  message: string;
  rule?: string;
}

export interface Deadlines {
  reaction: { windowId: string; at: number } | null;
  turn: { combatantId: string; at: number } | null;
}

export type ViewerRole = 'gm' | 'player' | 'spectator';

export interface PatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

export interface PatchMessage {
  encounterId: string;
  from: number;
  to: number;
  ops: PatchOp[];
  events: unknown[];
  deadlines?: Deadlines;
}

export interface LogEntry {
  seq: number;
  commandId?: string;
  command?: unknown;
  events: unknown[];
  at?: string | null;
}

export interface RulesetInfo {
  id: string;
  name: string;
  summary: string;
  options: { schema: unknown; defaults: unknown; docs: Record<string, string> };
  stats: { schema: unknown; docs: Record<string, string> };
  position?: { schema: unknown };
  commands?: string[];
  commandInfo?: Record<string, { actor: 'gm' | 'combatant' | 'any'; reaction: boolean; schema: unknown }>;
  space?: { kind: 'squares' | 'hexes' | 'zones'; zones?: string; terrain?: string } | null;
  catalogue?: unknown[];
  /** how the ruleset is shown (engine RulesetDisplay) */
  display?: unknown;
}

export interface EncounterSummary {
  id: string;
  name: string;
  ruleset: string;
  status: 'setup' | 'active' | 'ended' | 'archived';
  round: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface InviteInfo {
  id: string;
  role: 'player' | 'spectator';
  playerId: string | null;
  combatantIds: string[];
  revoked: boolean;
}
