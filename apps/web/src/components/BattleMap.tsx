import { GridBoard } from './GridBoard.js';
import type { BattleMapProps } from './map-tokens.js';
import { ZoneBoard } from './ZoneBoard.js';

/** The battle map, drawn from the ruleset's space: a square or hex grid, or zones. */
export function BattleMap(props: BattleMapProps) {
  if (props.space.kind === 'zones') return <ZoneBoard {...props} />;
  return <GridBoard {...props} kind={props.space.kind} />;
}
