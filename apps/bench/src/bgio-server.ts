/**
 * The boardgame.io peer: its own server (koa + its socket.io transport, in-memory storage), one
 * minimal turn-based combat game: 12 combatants, an `attack` move (a d6 from boardgame.io's
 * seeded random plugin off a target's hit points) and the built-in `endTurn` event. Delta state
 * on, so clients get RFC 6902 patches as Fray's do. Prints `LISTENING <port>`.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// boardgame.io ships CommonJS with a directory entry that Node's ESM loader does not resolve
const { Server, Origins } = require('boardgame.io/server') as {
  Server: (opts: { games: unknown[]; origins: unknown[] }) => {
    run: (port: number) => Promise<{ appServer: { address(): { port: number } } }>;
  };
  Origins: { LOCALHOST: RegExp };
};

interface Combatant {
  id: string;
  side: string;
  hp: number;
}
interface G {
  combatants: Combatant[];
  lastRoll: number;
}

const game = {
  name: 'bench-combat',
  deltaState: true,
  setup: (): G => ({
    combatants: Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, side: i < 6 ? 'heroes' : 'raiders', hp: 30 })),
    lastRoll: 0,
  }),
  moves: {
    attack: ({ G, random }: { G: G; random: { D6(): number } }, target: number) => {
      const roll = random.D6();
      const c = G.combatants[target % G.combatants.length]!;
      c.hp = c.hp > roll ? c.hp - roll : 30;
      G.lastRoll = roll;
    },
  },
};

const server = Server({ games: [game], origins: [Origins.LOCALHOST, /127\.0\.0\.1/] });
const port = Number(process.env.PORT ?? 0);
server.run(port).then(({ appServer }) => {
  console.log(`LISTENING ${appServer.address().port}`);
});
// exit on SIGTERM through process.exit, so that a --cpu-prof given by BENCH_PEER_NODE_ARGS is written
process.on('SIGTERM', () => process.exit(0));
