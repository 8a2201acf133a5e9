import type { Item } from '@fray/engine';
import type { Options } from '../options.js';
import type { ActionType, State } from '../state/index.js';

/**
 * The variable actions (use a skill, a tool, load a complex weapon): "What type of action a Skill
 * requires can vary from use to use ... Use GM’s discretion for both". The GM's ruling for the key,
 * else the item's own `action`/`provokes` props, else the options' defaults.
 */

const ACTION_TYPES: readonly ActionType[] = ['standard', 'move', 'quick', 'free', 'reaction', 'none'];
const actionTypeOf = (v: unknown): ActionType | undefined => ACTION_TYPES.find((t) => t === v);

export function variableRuling(s: State, o: Options, key: string, item?: Item): { type: ActionType; provokes: boolean } {
  const r = s.rs.rulings[key];
  if (r) return r;
  const props = item?.props ?? {};
  const provokes = props['provokes'];
  return {
    type: actionTypeOf(props['action']) ?? o.variableActionDefault,
    provokes: typeof provokes === 'boolean' ? provokes : o.variableProvokesDefault,
  };
}

/** LOAD: the GM's ruling for the weapon, else its `loadAction` prop, else the default. */
export function loadRuling(s: State, o: Options, it: Item): ActionType {
  return s.rs.rulings[`load:${it.id}`]?.type ?? actionTypeOf((it.props ?? {})['loadAction']) ?? o.variableActionDefault;
}
