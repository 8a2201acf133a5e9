/**
 * The server's per-command cost outside the database and the network: a command through
 * `EncounterHost.submit` (queue, engine, commit to an in-memory store, per-viewer projection,
 * patch, events, history) with five viewers (the GM, three players, a spectator) whose sinks
 * serialize each message as socket.io would. Printed: CPU µs per command for the whole path, the
 * same commands on encounters nobody watches, and the difference (what the five viewers cost).
 *
 *   npm run bench -w @fray/runtime          (BENCH_N=4000 commands, BENCH_E=50 encounters)
 */
import type { EncounterState, Viewer } from '@fray/engine';
import { registry } from '@fray/rulesets';
import { MemoryStore, Runtime, type EncounterHost } from '../src/index.js';

const N = Number(process.env.BENCH_N ?? 4000);
const E = Number(process.env.BENCH_E ?? 50);
const gm: Viewer = { role: 'gm' };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const runtime = new Runtime({
    store: new MemoryStore(),
    rulesets: registry as never,
    options: { ownerId: 'bench', snapshotEvery: 1_000_000, reactionSeconds: 0 },
  });
  let bytes = 0;
  let messages = 0;
  const setup = async (withViewers: boolean): Promise<EncounterHost[]> => {
    const hosts: EncounterHost[] = [];
    for (let e = 0; e < E; e++) {
      const rec = await runtime.create({ accountId: 'acc', name: `b${e}`, ruleset: 'legends', seed: e + 1 });
      const host = await runtime.open(rec.id);
      let n = 0;
      const cmd = (command: Record<string, unknown>) => host.submit({ commandId: `s${n++}`, command, by: { role: 'gm' } }, gm);
      for (let i = 0; i < 12; i++) {
        const hero = i < 6;
        const ack = await cmd({
          type: 'combatant.add',
          combatant: {
            id: `c${i}`,
            name: `Fighter ${i}`,
            side: hero ? 'heroes' : 'raiders',
            controller: hero ? `p${i % 3}` : null,
            hidden: i === 11,
            secretStats: i >= 9 ? ['STR'] : [],
            stats: { DEX: 10 + (i % 3), SPD: 9 + (i % 4), STR: 8 + (i % 5) },
          },
        });
        if (!ack.ok) throw new Error(JSON.stringify(ack));
      }
      const viewers: Viewer[] = [
        gm,
        { role: 'player', playerId: 'p0' },
        { role: 'player', playerId: 'p1' },
        { role: 'player', playerId: 'p2' },
        { role: 'spectator' },
      ];
      if (withViewers)
        for (const v of viewers)
          host.subscribe(v, (m) => {
            bytes += JSON.stringify(m).length;
            messages += 1;
          });
      const start = await cmd({ type: 'combat.start' });
      if (!start.ok) throw new Error(JSON.stringify(start));
      hosts.push(host);
    }
    return hosts;
  };

  // The command mix: players roll for their own combatant, the GM edits a stat, applies and
  // removes an effect, and ends the current turn.
  const next = (
    s: EncounterState,
    i: number,
  ): { command: Record<string, unknown>; by: { role: 'gm' } | { role: 'player'; playerId: string } } => {
    const k = i % 8;
    if (k < 4)
      return {
        command: { type: 'dice.roll', formula: '3d6', purpose: 'bench', combatantId: `c${i % 6}` },
        by: { role: 'player', playerId: `p${i % 3}` },
      };
    if (k === 4)
      return {
        command: { type: 'combatant.update', combatantId: `c${6 + (i % 6)}`, changes: { stats: { STR: 8 + (i % 7) } } },
        by: { role: 'gm' },
      };
    if (k === 5)
      return {
        command: { type: 'effect.apply', targetId: `c${i % 12}`, name: 'Dazed', duration: { unit: 'round', count: 1 } },
        by: { role: 'gm' },
      };
    if (k === 6) {
      const eff = s.effects[0];
      return eff
        ? { command: { type: 'effect.remove', effectId: eff.id }, by: { role: 'gm' } }
        : { command: { type: 'dice.roll', formula: '1d6', purpose: 'bench' }, by: { role: 'gm' } };
    }
    return { command: { type: 'turn.end', combatantId: s.clock.current }, by: { role: 'gm' } };
  };

  // warm up, then measure the whole path
  const run = async (hosts: EncounterHost[], count: number, tag: string) => {
    let refused = 0;
    const refusedCodes = new Map<string, number>();
    const log: Array<{ h: number; before: EncounterState; command: Record<string, unknown> }> = [];
    const t0 = cpu();
    const w0 = performance.now();
    for (let i = 0; i < count; i++) {
      const h = i % hosts.length;
      const host = hosts[h % hosts.length]!;
      const { command, by } = next(host.state, i);
      const before = host.state;
      const ack = await host.submit({ commandId: `${tag}${i}`, command, by }, by.role === 'player' ? by : gm);
      if (!ack.ok) {
        refused += 1;
        refusedCodes.set(ack.error.code, (refusedCodes.get(ack.error.code) ?? 0) + 1);
      } else log.push({ h, before, command: { ...command, by } });
    }
    return { ms: cpu() - t0, wall: performance.now() - w0, refused, refusedCodes, log };
  };
  const watched = await setup(true);
  const alone = await setup(false);
  await run(watched, Math.min(1000, N), 'w');
  await run(alone, Math.min(1000, N), 'w');
  bytes = 0;
  messages = 0;
  const whole = await run(watched, N, 'm');
  const sent = messages;
  const quiet = await run(alone, N, 'm');
  const wholeUs = (whole.ms / N) * 1000;
  const quietUs = (quiet.ms / N) * 1000;
  console.log(
    JSON.stringify(
      {
        commands: N,
        encounters: E,
        accepted: whole.log.length,
        refused: Object.fromEntries(whole.refusedCodes),
        cpuUsPerCommand: Math.round(wholeUs),
        withoutViewersUsPerCommand: Math.round(quietUs),
        viewersUsPerCommand: Math.round(wholeUs - quietUs),
        messagesPerCommand: Number((sent / N).toFixed(2)),
        bytesPerMessage: Math.round(bytes / Math.max(1, sent)),
        fullStateBytes: JSON.stringify(watched[0]!.state).length,
      },
      null,
      2,
    ),
  );
  await runtime.shutdown();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
