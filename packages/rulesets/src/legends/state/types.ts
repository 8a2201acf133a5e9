import { z } from 'zod';
import type { Combatant, Ctx, EncounterState } from '@fray/engine';
import type { LegendsOptions } from '../options.js';
import type { ActionDef, ActionKind, LegendsStats } from './stats.js';

/** The legends state: positions and zones, the per-combatant data, and the ruleset state (`rs`). */

export const positionSchema = z
  .object({
    zone: z.string().min(1).max(64),
    /** a place inside the zone (a zone feature, "the north end"...); null = the zone's open ground */
    area: z.string().min(1).max(140).nullable().default(null),
    group: z.string().min(1).max(64).nullable().default(null),
    engagement: z.string().min(1).max(64).nullable().default(null),
  })
  .strict();

export type Position = z.infer<typeof positionSchema>;

export const zoneTraitsSchema = z
  .object({
    /** die size of movement rolls in this zone */
    movementDie: z.number().int().min(2).max(100).optional(),
    /** unprotected characters needed per protected one */
    groupDefenseRatio: z.number().int().min(1).max(20).optional(),
    /** other traits, free text */
    notes: z.array(z.string().max(200)).max(20).optional(),
  })
  .strict();

export interface Zone {
  id: string;
  name: string;
  traits: z.infer<typeof zoneTraitsSchema>;
  features: { id: string; name: string; description: string }[];
  neighbors: string[];
}

export interface TurnBudget {
  /** how many of its own turns this combatant has begun */
  n: number;
  /** the kinds taken this turn, in order */
  seq: ActionKind[];
  free: string[];
  minors: string[];
  major: string | null;
  verbal: boolean;
  touched: string | null;
  bypassed: boolean;
  /** item id whose minor-action pickup roll failed this turn */
  pickupFailed: string | null;
  ended: boolean;
  forfeited: boolean;
}

export type LData = {
  surprised: boolean;
  fatigue: number;
  /** wounds taken (attack outcomes and the GM's damage); taken out at stats.toughness */
  wounds: number;
  stealth: 'low' | null;
  /** round of the last movement roll attempted (0 = none) */
  moveRollRound: number;
  turn: TurnBudget;
  /** hands used for a major action: busy until this combatant's next turn */
  busyHands: number;
  /** protected characters who leave group defense cannot melee until this round */
  noMeleeUntilRound: number;
  carriedBy: string | null;
  /** the round its turn was forfeited to change turn order (0 = none) */
  forfeitRound: number;
  /** the round its last turn began (to know who has acted this round) */
  turnRound: number;
  /** the round of its last successful bypass of group defense (a guarded area opens the next movement phase) */
  bypassedRound: number;
};

export interface PendingMove {
  combatantId: string;
  destination: Position;
  steps: number;
  die: number;
  tn: number;
  total: number;
  margin: number;
  success: boolean;
  escaping: boolean;
  reactive: boolean;
  group: string | null;
  rollId: string;
  /** the character joined (group / engage / near), to bring them into a new group or engagement */
  join: string | null;
  mode: 'group' | 'engage' | 'near' | null;
  /** set once the mover decided (group moves resolve when every member has) */
  finished?: { reach: number; keep: boolean };
}

export interface PreparedReaction {
  id: string;
  by: string[];
  watch: string;
  anticipate: string;
  /** move: a movement roll when it triggers; rush: the prepared rush of a roll already made */
  kind: 'move' | 'rush';
  /** margin of the roll already made, for a prepared rush */
  margin?: number;
}

export interface GroupMove {
  group: string;
  /** the destination as the first member stated it (the others must state the same) */
  input: unknown;
  destination: Position;
  members: string[];
  agreed: string[];
  rolled: boolean;
}

export interface GroupDefense {
  protected: string[];
  /** guarded objects; `area` set: the group prevents access to that area of its zone */
  objects: { id: string; name: string; quarters: number; area?: string }[];
}

export interface Touch {
  by: string;
  target: string;
  round: number;
  until: 'end-of-turn' | 'next-turn' | 'maintained';
}

export interface Offer {
  id: string;
  from: string;
  to: string;
  itemId: string;
  /** hand: the item is in the giver's hand; inventory: offered from inventory; into: to be added to the recipient's inventory */
  kind: 'hand' | 'inventory' | 'into';
}

/** An attack rolled by the server, waiting for the GM to confirm or change its outcome. */
export interface PendingAttack {
  id: string;
  by: string;
  target: string;
  attack: string;
  weaponId: string | null;
  total: number;
  margin: number;
  hit: boolean;
  damage: number;
  damageFormula: string;
  rollId: string;
}

export type LRS = {
  zones: Record<string, Zone>;
  turnRolls: Record<string, number>;
  /** who still has to decide (turn-order decisions, repositioning, movement, group defense) */
  queue: string[];
  /** the order as the ruleset last set it (to re-anchor durations when someone leaves) */
  lastOrder: string[];
  pending: PendingMove[];
  reactions: PreparedReaction[];
  groupMoves: GroupMove[];
  defense: Record<string, GroupDefense>;
  /** groups whose defense has too many protected after a defender fell */
  overflow: string[];
  forfeits: string[];
  touches: Touch[];
  /** who touched whom this round ("by>target"), for the two-touchers limit */
  touchLog: string[];
  offers: Offer[];
  customActions: Record<string, ActionDef>;
  /** the round's movement phase: who may move */
  movers: string[];
  /** attacks waiting for the GM's ruling (option attackOutcome) */
  attacks: PendingAttack[];
};

export type LState = EncounterState<LRS, LegendsStats, LData>;

export type LCombatant = Combatant<LegendsStats, LData>;

/** the handler context with the legends state types */
export type LCtx = Omit<Ctx<LRS, LegendsOptions>, 'state' | 'base'> & { readonly state: LState; readonly base?: LState };

export interface DroppedInfo {
  by: string;
  round: number;
  turnN: number;
  zone: string;
  area: string | null;
  engagement: string | null;
  group: string | null;
  fallen?: boolean;
}
