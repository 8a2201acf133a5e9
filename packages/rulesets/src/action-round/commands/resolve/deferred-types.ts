import type { In } from '../schemas.js';

/**
 * An action paid for and waiting for the opportunity attacks it provoked: "the provoking action
 * resumes" when the window closes (resolve/deferred.ts runs it).
 */
export type DeferredAction =
  | { t: 'resolve'; action: 'attack'; cmd: In<'attack'> }
  | { t: 'resolve'; action: 'stunt'; cmd: In<'stunt'> & { disadvantage: number } }
  | { t: 'resolve'; action: 'assess'; cmd: In<'assess'> }
  | { t: 'resolve'; action: 'retrieve'; cmd: In<'retrieve'> }
  | { t: 'resolve'; action: 'aim'; cmd: In<'aim'> }
  | { t: 'resolve'; action: 'gambit'; cmd: In<'gambit'> }
  | { t: 'resolve'; action: 'influence'; cmd: In<'influence'> }
  | { t: 'resolve'; action: 'use-skill'; cmd: In<'useSkill'> }
  | { t: 'resolve'; action: 'use-tool'; cmd: In<'useTool'> }
  | { t: 'resolve'; action: 'load'; cmd: In<'load'> }
  | { t: 'resolve'; action: 'use-power'; cmd: In<'usePower'> }
  | { t: 'resolve'; action: 'stand'; cmd: { combatantId: string } };
