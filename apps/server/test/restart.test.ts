import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandAck } from '@fray/client';
import { connect, expectConverged, startServer, testStore } from './helpers.js';

/** "a server restart (and a killed process) resumes the encounter with every acknowledged command present" */
describe('restart', () => {
  it('a graceful restart resumes the encounter exactly where it stopped', async () => {
    const store = await testStore();
    const a = await startServer({ store, runtime: { snapshotEvery: 5, reactionSeconds: 0 } });
    const gmToken = (await a.http('POST', '/accounts', {})).body.token as string;
    const id = (await a.http('POST', '/encounters', { name: 'Resume me', ruleset: 'skirmish', seed: 3 }, gmToken)).body.id as string;
    await a.http('POST', `/encounters/${id}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9 } }, gmToken);
    await a.http('POST', `/encounters/${id}/combatants`, { id: 'orc', name: 'Orc', side: 'npcs', stats: { hp: 9 } }, gmToken);
    const player = (await a.http('POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken)).body
      .token as string;
    const gmA = await connect(a.url, gmToken);
    const m = await gmA.join(id);
    const acked: string[] = [];
    const send = async (command: { type: string; [k: string]: unknown }, commandId: string) => {
      const ack = await m.command(command, { commandId });
      if (ack.ok) acked.push(commandId);
      return ack;
    };
    await send({ type: 'combat.start' }, 'start');
    for (let i = 0; i < 8; i++) await send({ type: 'dice.roll', formula: '3d6', purpose: `roll ${i}` }, `roll-${i}`);
    const before = JSON.parse(JSON.stringify(a.server.runtime.peek(id)!.state)) as unknown;
    const gmViewBefore = JSON.parse(JSON.stringify(m.state)) as unknown;
    gmA.close();
    await a.server.close();

    const b = await startServer({ store });
    try {
      const gmB = await connect(b.url, gmToken);
      const mb = await gmB.join(id);
      // the resumed state is exact (generator included), and the GM sees what it saw before the stop
      expect(JSON.parse(JSON.stringify(b.server.runtime.peek(id)!.state))).toEqual(before);
      expect(mb.state).toEqual(gmViewBefore);
      const p = await connect(b.url, player);
      const pm = await p.join(id);
      const log = await b.http('GET', `/encounters/${id}/log`, undefined, gmToken);
      const ids = (log.body.entries as Array<{ commandId: string }>).map((e) => e.commandId);
      for (const c of acked) expect(ids).toContain(c);
      // play on
      expect((await mb.command({ type: 'dice.roll', formula: '1d20', purpose: 'after restart' })).ok).toBe(true);
      await expectConverged(b, id, [mb, pm]);
      gmB.close();
      p.close();
    } finally {
      await b.server.close();
      await store.close();
    }
  });

  describe('a killed process (kill -9)', () => {
    const children: ChildProcess[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'fray-kill-'));
    afterAll(() => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    function startChild(): Promise<{ child: ChildProcess; url: string }> {
      const cwd = fileURLToPath(new URL('..', import.meta.url));
      const child = spawn(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', 'src/main.ts'], {
        cwd,
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          FRAY_DATA_DIR: dataDir,
          FRAY_LEASE_SECONDS: '2',
          NODE_ENV: 'test',
          FRAY_WEB_BUILD: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      return new Promise((resolve, reject) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => reject(new Error(`server did not start: ${out}\n${err}`)), 120_000);
        child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve({ child, url: m[1]! });
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server exited ${code}: ${out}\n${err}`));
        });
      });
    }

    async function http(url: string, method: string, path: string, body?: unknown, token?: string) {
      const res = await fetch(url + path, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }

    it('every acknowledged command survives kill -9, and the encounter resumes', async () => {
      const first = await startChild();
      const gmToken = (await http(first.url, 'POST', '/accounts', {})).body.token as string;
      const id = (await http(first.url, 'POST', '/encounters', { name: 'Crash', ruleset: 'legends', seed: 9 }, gmToken)).body.id as
        string | undefined;
      expect(id).toBeDefined();
      const gm = await connect(first.url, gmToken);
      const m = await gm.join(id!);
      const acked = new Map<string, number>();
      for (let i = 0; i < 10; i++) {
        const ack = await m.command({ type: 'dice.roll', formula: '1d6', purpose: `roll ${i}` }, { commandId: `k-${i}` });
        if (ack.ok) acked.set(`k-${i}`, ack.version);
      }
      // a burst in flight: kill the process as soon as some of it is acknowledged
      const burst: Array<Promise<CommandAck | null>> = [];
      for (let i = 10; i < 40; i++) {
        burst.push(
          m.command({ type: 'dice.roll', formula: '1d6', purpose: `burst ${i}` }, { commandId: `k-${i}` }).then(
            (ack) => {
              if (ack.ok) acked.set(`k-${i}`, ack.version);
              return ack;
            },
            () => null,
          ),
        );
      }
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (acked.size >= 15) {
            clearInterval(t);
            resolve();
          }
        }, 1);
      });
      first.child.kill('SIGKILL');
      gm.close();
      await Promise.race([Promise.allSettled(burst), new Promise((r) => setTimeout(r, 1000))]);
      expect(acked.size).toBeGreaterThanOrEqual(15);

      const second = await startChild();
      const log = await http(second.url, 'GET', `/encounters/${id}/log`, undefined, gmToken);
      const entries = log.body.entries as Array<{ commandId: string; seq: number }>;
      for (const [commandId, version] of acked) {
        const e = entries.find((x) => x.commandId === commandId);
        expect(e, commandId).toBeDefined();
        expect(e!.seq).toBe(version);
      }
      // the lease of the killed process expires, then the new one runs the encounter
      const gm2 = await connect(second.url, gmToken);
      let joined = null;
      for (let i = 0; i < 50 && !joined; i++) {
        joined = await gm2.join(id!).catch((e: { code?: string }) => {
          if (e.code !== 'ENCOUNTER_BUSY') throw e;
          return null;
        });
        if (!joined) await new Promise((r) => setTimeout(r, 200));
      }
      expect(joined).not.toBeNull();
      expect(joined!.version).toBe(entries.length);
      expect(joined!.version).toBeGreaterThanOrEqual(Math.max(...acked.values()));
      // a retry of an acknowledged command is recognised, not applied again
      const retry = await joined!.command({ type: 'dice.roll', formula: '1d6', purpose: 'roll 3' }, { commandId: 'k-3' });
      expect(retry).toMatchObject({ ok: true, version: acked.get('k-3') });
      const next = await joined!.command({ type: 'dice.roll', formula: '1d6', purpose: 'after the crash' });
      expect(next).toMatchObject({ ok: true, version: entries.length + 1 });
      gm2.close();
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }, 240_000);
  });
});
