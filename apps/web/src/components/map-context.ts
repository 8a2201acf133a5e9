import { createContext, useContext } from 'react';
import type { Live } from '../lib/live.js';
import type { ActionOption, EncounterState, RulesetInfo } from '../lib/types.js';

/** What the action forms ask of the map: a destination picked on it, a combatant tapped on it. */
export interface MapApi {
  startMove(combatantId: string, option: ActionOption, params: Record<string, unknown>): void;
  /** while set, tapping one of `ids` calls `onPick` (a form's target field); returns the undo */
  pickCombatant(ids: string[], onPick: (id: string) => void): () => void;
}
export const MapContext = createContext<MapApi | null>(null);
export const useMapApi = (): MapApi | null => useContext(MapContext);

/** The option's destination field, if it has one (a path or a position). */
export const destinationParam = (o: ActionOption) => (o.params ?? []).find((p) => p.kind === 'path' || p.kind === 'position');

/** `canCommand` for a spectator. */
export const noOne = (): boolean => false;

/** What a page gives its map: the connection and state, the ruleset's space, who is whose, the GM's powers. */
export interface PanelProps {
  live: Live | null;
  state: EncounterState | null;
  version: number;
  ruleset: RulesetInfo | undefined;
  isMine: (id: string) => boolean;
  canCommand: (id: string) => boolean;
  gm: boolean;
  title: string;
}
