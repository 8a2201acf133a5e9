import type { Command, EngineError } from '@fray/engine';
import type { S } from '../state/index.js';
import { checkAooOffered, checkCanAoo } from './attack.js';
import { checkAbortOffered, checkTakeReadied } from './holds.js';

/**
 * Why a character may not answer the open window (a `reaction.pass` from one it does not offer a
 * response): the rule that kept it out — it dodged or made its attack of opportunity this Phase, or
 * no enemy provoked one from it; not the condition its readied action waits for, or no abort
 * offered. Null (the engine's generic refusal) for other windows.
 */
export function refuseReaction(s: S, command: Command): EngineError | null {
  const id = command.combatantId;
  const w = s.reaction;
  if (typeof id !== 'string' || !s.combatants[id] || !w) return null;
  if (w.kind === 'ocv-phases.attack-of-opportunity') return checkCanAoo(s, id) ?? checkAooOffered(s, id);
  if (w.kind !== 'ocv-phases.before-action') return null;
  const h = s.combatants[id]!.data.hold;
  if (h?.kind === 'ready') return checkTakeReadied(s, id);
  return checkAbortOffered(s, id);
}
