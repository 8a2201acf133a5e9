import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDice, type EncounterMirror, type FrayClient } from '@fray/client';
import { connect, startServer, until, type TestServer } from './helpers.js';

/**
 * Committed dice across the GM's timeline (docs/dice.md, docs/timeline.md): after an undo, a rewind
 * and new rolls on the new branch, then the reveal, the verifier (`verifyDice` and the fray-verify
 * CLI as a process) accepts the honest log a player holds for the live branch and for each branch a
 * rewind left, and rejects a changed die face. A fork rolls fresh committed dice of its own, which
 * verify from the fork's log and export against the fork's commitment.
 */

type Entry = { seq: number; events: Array<Record<string, unknown>> };
type Dice = { commitment: string; contributions: unknown[]; sealed: boolean };

let s: TestServer;
let gmToken: string;
const clients: FrayClient[] = [];
const dir = mkdtempSync(join(tmpdir(), 'fray-timeline-dice-'));
const exec = promisify(execFile);
const cli = join(import.meta.dirname, '../../../packages/verify/src/cli.ts');

/** fray-verify on a file: its exit code and output. */
async function frayVerify(name: string, content: unknown, args: string[]): Promise<{ code: number; out: string }> {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  try {
    const r = await exec(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', cli, file, ...args], {
      cwd: import.meta.dirname,
    });
    return { code: 0, out: r.stdout };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout + x.stderr };
  }
}

const diceOf = (m: EncounterMirror) => (m.state as { dice: Dice }).dice;
const rollsIn = (entries: Entry[]) => entries.flatMap((e) => e.events.filter((ev) => ev.type === 'dice.rolled'));

async function playerLog(player: FrayClient, encounterId: string, branch?: number): Promise<Entry[]> {
  const ack = await player.request('log', { encounterId, afterSeq: 0, limit: 1000, ...(branch === undefined ? {} : { branch }) });
  if (!ack.ok) throw new Error(ack.error.message);
  return ack.entries as Entry[];
}

/** A copy of the log with one face of its first visible roll changed. */
function forged(entries: Entry[]): Entry[] {
  const copy = structuredClone(entries);
  const roll = rollsIn(copy).find((r) => Array.isArray(r.faces) && r.faces.length > 0)!;
  const face = (roll.faces as Array<{ value: number }>)[0]!;
  face.value = face.value === 1 ? 2 : 1;
  return copy;
}

beforeAll(async () => {
  s = await startServer();
  gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await s?.close();
});

describe('committed dice and the timeline through a real server', () => {
  let encounterId: string;
  let player: FrayClient;
  let commitment: string;
  let startedAt: number;

  it('undo, rewind, new rolls, reveal: every branch a player holds verifies (verifyDice and the CLI); a changed face does not', async () => {
    encounterId = (await s.http('POST', '/encounters', { name: 'Dice rewind', ruleset: 'skirmish' }, gmToken)).body.id as string;
    await s.http('POST', `/encounters/${encounterId}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9 } }, gmToken);
    await s.http(
      'POST',
      `/encounters/${encounterId}/combatants`,
      { id: 'spy', name: 'Spy', side: 'npcs', hidden: true, stats: { hp: 9 } },
      gmToken,
    );
    const invite = (await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken)).body
      .token as string;
    const gm = await connect(s.url, gmToken);
    player = await connect(s.url, invite);
    clients.push(gm, player);
    const gmView = await gm.join(encounterId);
    const pView = await player.join(encounterId);
    commitment = diceOf(pView).commitment; // as the player saw it at its first join
    await until(() => diceOf(gmView).contributions.length === 2, 10_000, 'two contributions');
    const roll = (m: EncounterMirror, purpose: string, extra: Record<string, unknown> = {}) =>
      m.command({ type: 'dice.roll', formula: '2d6', purpose, ...extra });
    expect((await gmView.command({ type: 'combat.start' })).ok).toBe(true);
    startedAt = gmView.version;
    expect((await roll(gmView, 'a')).ok).toBe(true);
    expect((await roll(pView, 'b', { combatantId: 'hero' })).ok).toBe(true);
    expect((await roll(gmView, 'spy sneaks', { combatantId: 'spy' })).ok).toBe(true);
    expect((await roll(gmView, 'c', { secret: true })).ok).toBe(true);
    // undo (the secret roll), a new roll on branch 1; then a rewind of two more, new rolls on branch 2
    expect((await gmView.command({ type: 'timeline.rewind', toVersion: gmView.version - 1 })).ok).toBe(true);
    expect((await roll(pView, 'd', { combatantId: 'hero' })).ok).toBe(true);
    expect((await gmView.command({ type: 'timeline.rewind', toVersion: gmView.version - 3 })).ok).toBe(true);
    expect((await roll(gmView, 'e')).ok).toBe(true);
    expect((await roll(pView, 'f', { combatantId: 'hero' })).ok).toBe(true);
    expect((await gmView.command({ type: 'combat.end' })).ok).toBe(true); // reveals by itself
    expect(gmView.branch).toBe(2);

    const live = await playerLog(player, encounterId);
    const reveal = live.flatMap((e) => e.events).find((ev) => ev.type === 'dice.revealed') as { seed: string; salt: string };
    expect(reveal.seed).toMatch(/^[0-9a-f]{64}$/);
    // (skirmish rolls initiative at combat start)
    const purposes = (entries: Entry[]) =>
      rollsIn(entries)
        .map((r) => String(r.purpose))
        .filter((p) => !p.startsWith('initiative'));
    const branches = { 0: await playerLog(player, encounterId, 0), 1: await playerLog(player, encounterId, 1), 2: live };
    expect(purposes(branches[2])).toEqual(['a', 'e', 'f']);
    expect(purposes(branches[1])).toEqual(['a', 'b', 'd']);
    // a rewind does not re-roll: e (branch 2) took the position b had on branch 0
    const at = (entries: Entry[], p: string) => rollsIn(entries).find((r) => r.purpose === p)!.draw;
    expect(at(branches[2], 'e')).toBe(at(branches[0], 'b'));
    for (const [branch, entries] of Object.entries(branches)) {
      const report = verifyDice(entries, { ...reveal, commitment });
      expect(report.ok, `branch ${branch}`).toBe(true);
      expect(report.counts.verified, `branch ${branch}`).toBe(rollsIn(entries).length);
      const bad = verifyDice(forged(entries), { ...reveal, commitment });
      expect([bad.ok, bad.counts.mismatch], `forged branch ${branch}`).toEqual([false, 1]);
    }
    // the player's read of branch 0 has a gap where the spy's and the secret roll were
    expect(verifyDice(branches[0], { ...reveal, commitment }).unseenDraws).toBeGreaterThan(0);
    // the GM's log of the abandoned branch (HTTP) has every roll, and verifies too
    const gmOld = (await s.http('GET', `/encounters/${encounterId}/log?branch=0`, undefined, gmToken)).body as { entries: Entry[] };
    expect(purposes(gmOld.entries)).toEqual(['a', 'b', 'spy sneaks', 'c']);
    expect(verifyDice(gmOld, { ...reveal, commitment })).toMatchObject({ ok: true, unseenDraws: 0 });

    // the CLI: the live branch holds the reveal; a left branch is checked with the reveal given
    const ok = await frayVerify('live.json', { ok: true, entries: branches[2] }, ['--commitment', commitment]);
    expect(ok.code, ok.out).toBe(0);
    const old = await frayVerify('branch0.json', { ok: true, entries: branches[0] }, [
      '--commitment',
      commitment,
      '--seed',
      reveal.seed,
      '--salt',
      reveal.salt,
    ]);
    expect(old.code, old.out).toBe(0);
    expect(old.out).toMatch(/verified/i);
    const bad = await frayVerify('forged.json', { ok: true, entries: forged(branches[0]) }, [
      '--commitment',
      commitment,
      '--seed',
      reveal.seed,
      '--salt',
      reveal.salt,
    ]);
    expect(bad.code, bad.out).toBe(1);
  }, 90_000);

  it('a fork rolls fresh committed dice (its own commitment, contributions, seal), verifiable from its log and export', async () => {
    // combat under way, the original's dice sealed
    const made = await s.http('POST', `/encounters/${encounterId}/fork`, { version: startedAt + 1 }, gmToken);
    expect(made.status).toBe(201);
    const forkId = made.body.id as string;
    const gm = await connect(s.url, gmToken);
    clients.push(gm);
    const view = await gm.join(forkId);
    const dice = diceOf(view);
    expect(dice.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(dice.commitment).not.toBe(commitment);
    // open again: the GM's client contributes on join; the first roll seals
    await until(() => diceOf(view).contributions.length === 1, 10_000, "the GM's contribution to the fork");
    expect(diceOf(view).sealed).toBe(false);
    const rolled = await view.command({ type: 'dice.roll', formula: '1d20', purpose: 'what if' });
    expect(rolled.ok).toBe(true);
    const events = (rolled.ok ? rolled.events : []) as Array<{ type: string }>;
    expect(events.map((e) => e.type)).toContain('dice.sealed');
    expect(events.find((e) => e.type === 'dice.rolled')).toMatchObject({ draw: 0 });
    expect((await view.command({ type: 'combat.end' })).ok).toBe(true);
    const log = (await s.http('GET', `/encounters/${forkId}/log`, undefined, gmToken)).body as { entries: Entry[] };
    const reveal = log.entries.flatMap((e) => e.events).find((ev) => ev.type === 'dice.revealed') as {
      seed: string;
      salt: string;
      commitment: string;
    };
    expect(reveal.commitment).toBe(dice.commitment);
    const original = (await playerLog(player, encounterId)).flatMap((e) => e.events).find((ev) => ev.type === 'dice.revealed') as {
      seed: string;
    };
    expect(reveal.seed).not.toBe(original.seed);
    expect(verifyDice(log, { ...reveal, commitment: dice.commitment })).toMatchObject({ ok: true, counts: { verified: 1 } });
    const file = (await s.http('GET', `/encounters/${forkId}/export`, undefined, gmToken)).body;
    const checked = await frayVerify('fork-export.json', file, []);
    expect(checked.code, checked.out).toBe(0);
    expect(checked.out).toContain('what if');
    const bad = await frayVerify('fork-forged.json', { ...file, log: forged(file.log as Entry[]) }, []);
    expect(bad.code, bad.out).toBe(1);
  }, 90_000);
});
