import { ensure } from '@fray/engine';
import { checkTalk } from '../checks/index.js';
import { emit, type ArCtx } from '../events.js';
import { actNow, delay } from '../flow.js';
import { spend } from './resolve/budget.js';
import { command, me } from './kit.js';
import { S } from './schemas.js';

/** Delay and the delayed turn (no action), and talk (free, even off your turn). */

const delayTurn = command({ schema: S.delay, actor: 'combatant', handle: (ctx: ArCtx, cmd) => delay(ctx, cmd.combatantId) });
const actNowCmd = command({ schema: S.actNow, actor: 'combatant', handle: (ctx: ArCtx, cmd) => actNow(ctx, cmd.combatantId) });

const talk = command({
  schema: S.talk,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    // "speaking is a free action that you can perform even when it isn’t your turn"
    ensure(checkTalk(ctx.state, c));
    spend(ctx, c, 'talk', 'free');
    emit(ctx, 'said', { combatantId: c.id, text: cmd.text });
  },
});

export const turnCommands = { delay: delayTurn, 'act-now': actNowCmd, talk };
