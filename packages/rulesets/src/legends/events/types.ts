import type { Item } from '@fray/engine';
import type { Range } from '../mechanics/space.js';
import type {
  ActionDef,
  ActionKind,
  ActionTag,
  DroppedInfo,
  GroupDefense,
  GroupMove,
  Offer,
  PendingAttack,
  PendingMove,
  Position,
  PreparedReaction,
  Touch,
  Zone,
} from '../state/index.js';

/** A combatant put somewhere (a move, a placement by the GM, the allies and enemies an arrival brings along). */
interface Move {
  id: string;
  to: Position;
}

/** The clock: turn order, rounds, phases, turns, who decides next. */
export type ClockEvent =
  | { type: 'legends.turnOrderRolled'; margins: Record<string, number>; order: string[] | null }
  | { type: 'legends.orderSet'; order: string[] }
  | { type: 'legends.queue'; queue: string[] }
  | { type: 'legends.turnOrderChanged'; combatantId: string; from: number; to: number; order: string[]; successor: string }
  | { type: 'legends.turnOrderKept'; combatantId: string }
  | { type: 'legends.reanchored'; from: string; to: string }
  | { type: 'legends.forfeited'; combatantId: string; round: number }
  | { type: 'legends.forfeitsCleared' }
  | { type: 'legends.roundBegan'; round: number }
  | { type: 'legends.roundEnded'; round: number }
  | { type: 'legends.movementPhase'; round: number; movers: string[] }
  | { type: 'legends.movementEnded' }
  | { type: 'legends.turnBegan'; combatantId: string; round: number }
  | { type: 'legends.turnEnded'; combatantId: string; reason: string };

/** The action phase: actions taken and what they did. */
type ActionEvent =
  | {
      type: 'legends.acted';
      combatantId: string;
      action: string;
      kind: ActionKind;
      tags: ActionTag[];
      verbal?: true | undefined;
      hands?: number | undefined;
      targetId: string | null;
      doubleMinor?: true | undefined;
      note?: string | undefined;
    }
  | { type: 'legends.actionResolved'; combatantId: string; action: string; kind: ActionKind; targetId: string | null; note: string | null }
  | {
      type: 'legends.attacked';
      combatantId: string;
      targetId: string;
      attack: string;
      weaponId: string | null;
      competent: boolean;
      unarmed: boolean;
      range: Range;
      meleeDisadvantage: number;
      bypassed: boolean;
    }
  | { type: 'legends.touched'; combatantId: string; touch: Touch }
  | { type: 'legends.bypassRolled'; combatantId: string; success: boolean; margin: number; hindrance: number; easing: number }
  | { type: 'legends.pickupRolled'; combatantId: string; itemId: string; success: boolean; margin: number }
  | { type: 'legends.pickupFailed'; combatantId: string; itemId: string };

/** The movement phase: rolls, rushes, moves, prepared reactions, grouped-up movement. */
export type MovementEvent =
  | { type: 'legends.moveRolled'; combatantId: string; pending: PendingMove; hindrance: number; easing: number }
  | {
      type: 'legends.moveUpdated';
      combatantId: string;
      pending: PendingMove;
      rush?: 'none' | 'self' | 'external';
      reach?: number;
      overridden?: true;
    }
  | { type: 'legends.moveFinished'; combatantId: string }
  | { type: 'legends.movementDeclined'; combatantId: string; reason: string }
  | { type: 'legends.rushed'; combatantId: string; fatigue: number; plusTn: number; source: 'self' | 'external' }
  | {
      type: 'legends.moved';
      combatantId: string;
      moves: Move[];
      from?: Position;
      to?: Position;
      reach?: number;
      steps?: number;
      preparedRush?: true;
      group?: string | null;
      keepTogether?: boolean;
    }
  | { type: 'legends.placed'; combatantId: string | null; moves: Move[]; reason: string }
  | { type: 'legends.normalized' }
  | { type: 'legends.reactionPrepared'; combatantId: string; reaction: PreparedReaction; gmOnly?: true | undefined }
  | { type: 'legends.reactionsSpent'; watch: string }
  | { type: 'legends.reactionUsed'; combatantId: string; reactionId: string }
  | { type: 'legends.groupMoveDeclared'; combatantId: string; groupMove: GroupMove }
  | { type: 'legends.groupMoveAgreed'; combatantId: string; group: string }
  | { type: 'legends.groupMoveRolled'; group: string }
  | { type: 'legends.groupMoveEnded'; group: string | null }
  | { type: 'legends.groupMoveFailed'; combatantId: string; group: string; reason?: 'disagreement' };

/** Group defense. */
type DefenseEvent =
  | { type: 'legends.groupDefenseDeclared'; combatantId: string; group: string; protected: string[]; objects: GroupDefense['objects'] }
  | { type: 'legends.groupDefenseReset' }
  | { type: 'legends.groupDefenseOverflow'; group: string }
  | { type: 'legends.groupDefenseLeft'; combatantId: string; group: string | null }
  | { type: 'legends.groupDefenseBrokenDown'; group: string };

/** Items and carried characters. */
export type ItemEvent =
  | {
      type: 'legends.itemMoved';
      combatantId: string;
      fromId: string;
      toId: string;
      itemId: string;
      location: Item['location'];
      dropped?: DroppedInfo;
    }
  | { type: 'legends.offered'; combatantId: string; offer: Offer }
  | { type: 'legends.offerClosed'; offerId: string }
  | { type: 'legends.carried'; combatantId: string; targetId: string }
  | { type: 'legends.carryEnded'; combatantId: string; targetId: string; voluntary: boolean };

/** The GM's tools, vitals and attack outcomes. */
type TableEvent =
  | { type: 'legends.surprised'; combatantId: string; surprised: boolean }
  | { type: 'legends.actionDefined'; action: ActionDef }
  | { type: 'legends.actionRemoved'; key: string }
  | { type: 'legends.zoneDefined'; zone: Zone }
  | { type: 'legends.fatigueChanged'; combatantId: string; fatigue: number }
  | { type: 'legends.wounded'; combatantId: string; wounds: number; amount: number; healed?: true | undefined; reason: string }
  | { type: 'legends.attackRolled'; combatantId: string; targetId: string; attack: PendingAttack }
  | {
      type: 'legends.attackResolved';
      attackId: string;
      combatantId: string;
      targetId: string;
      hit: boolean;
      damage: number;
      changed?: true | undefined;
    };

/** Every event of the legends ruleset. */
export type LegendsEvent = ClockEvent | ActionEvent | MovementEvent | DefenseEvent | ItemEvent | TableEvent;
