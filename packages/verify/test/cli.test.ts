import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { apply, createEncounter, projectEvents, type EncounterState, type EngineEvent, type Ruleset } from '@fray/engine';
import { getRuleset } from '@fray/rulesets';
import { checkLogText, CheckFileError } from '../src/check-file.js';

/**
 * fray-verify (docs/dice.md, "Verify"): files an encounter really produced — the GM's log as GET
 * /encounters/:id/log gives it, a player's as the socket `log` answers, an export — checked by the
 * CLI as a process (exit codes, one line per roll), and forged or malformed files refused, typed.
 */

const legends = getRuleset('legends') as Ruleset;
const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;
const SEED = '5e'.repeat(32);
const SALT = 'a1'.repeat(16);

/** A fight through the engine: contributions, a plain roll, a secret one, a forced one, an override, the end. */
function fight() {
  let s = createEncounter(legends, { id: 'enc', seed: 1, dice: { seed: SEED, salt: SALT } });
  const initial = s;
  const batches: Array<{ seq: number; command: unknown; events: EngineEvent[]; state: EncounterState }> = [];
  const run = (cmd: Record<string, unknown>) => {
    const r = apply(legends, s, cmd);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    s = r.state;
    batches.push({ seq: s.version, command: cmd, events: r.events, state: s });
    return r.events.find((e) => e.type === 'dice.rolled')?.rollId;
  };
  run({ type: 'dice.contribute', by: gm, value: '0f'.repeat(32) });
  run({ type: 'dice.contribute', by: p1, value: 'c3'.repeat(32) });
  run({ type: 'dice.roll', by: gm, formula: '1d20', purpose: 'initiative' });
  run({ type: 'dice.roll', by: gm, formula: '2d6+1', purpose: 'ambush', secret: true });
  run({ type: 'dice.roll', by: p1, formula: '4d6kh3', purpose: 'strength' });
  run({ type: 'dice.force', by: gm, formula: '1d20', total: 20 });
  run({ type: 'dice.roll', by: gm, formula: '1d20', purpose: 'the dragon wakes' });
  const id = run({ type: 'dice.roll', by: gm, formula: '1d8', purpose: 'damage' });
  run({ type: 'dice.override', by: gm, rollId: id, total: 8, reason: 'the sword is magic' });
  run({ type: 'combat.end', by: gm });
  const at = (seq: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString();
  const gmLog = {
    encounterId: 'enc',
    entries: batches.map((b) => ({
      seq: b.seq,
      commandId: `c${b.seq}`,
      command: b.command,
      events: projectEvents(b.events, gm, b.state),
      at: at(b.seq),
    })),
  };
  const playerLog = {
    ok: true,
    entries: batches.map((b) => ({ seq: b.seq, commandId: '', events: projectEvents(b.events, p1, b.state), at: at(b.seq) })),
  };
  const exported = { format: 'fray-encounter', formatVersion: 1, initial: { version: 0, state: initial }, log: gmLog.entries };
  return { gmLog, playerLog, exported, commitment: initial.dice!.commitment };
}

const run = promisify(execFile);
const cli = join(import.meta.dirname, '../src/cli.ts');
async function fray(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const r = await run(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', cli, ...args], { cwd: import.meta.dirname });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}

describe('fray-verify <log.json>', () => {
  let dir: string;
  let f: ReturnType<typeof fight>;
  const file = (name: string, data: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof data === 'string' ? data : JSON.stringify(data));
    return p;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fray-verify-'));
    f = fight();
  });

  it("the GM's log (GET /encounters/:id/log): one line per roll in plain words, exit 0", async () => {
    const r = await fray([file('gm.json', f.gmLog), '--commitment', f.commitment]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(5 + 1);
    expect(lines[0]).toMatch(/^#1 1d20 \(initiative\): Verified: \d+ \(total \d+\) are the dice at position 0\.$/);
    expect(lines[1]).toMatch(/^#2 2d6\+1 \(ambush\): Verified/);
    expect(lines[3]).toMatch(/^#4 1d20 \(the dragon wakes\): Forced roll: the GM set this result in advance/);
    expect(lines[4]).toMatch(/^#5 1d8 \(damage\): GM override: .* changed the total to 8\. Reason: the sword is magic$/);
    expect(lines[5]).toBe('All 5 rolls check out. Of these: 1 GM override (shown with the reason), 1 roll forced by the GM.');
  });

  it("a player's log (the socket `log` answer): the secret roll is unseen, its draws counted; the reveal and commitment come from the log", async () => {
    const r = await fray([file('player.json', f.playerLog)]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('All 4 rolls check out.');
    expect(r.out).not.toContain('ambush');
    expect(r.out).toMatch(/\d+ draws? of the dice went to rolls you could not see/);
    expect(r.out).toContain('pass --commitment');
  });

  it('an export file: checked against the commitment of its first snapshot', () => {
    const r = checkLogText(JSON.stringify(f.exported));
    expect(r.commitmentFrom).toBe('export');
    expect(r.report.ok).toBe(true);
    expect(r.report.counts).toEqual({ verified: 3, override: 1, forced: 1, mismatch: 0, unchecked: 0 });
  });

  it('a forged die face: that roll "Does not match", exit 1', async () => {
    const forged = structuredClone(f.gmLog);
    const rolled = forged.entries.flatMap((e) => e.events).find((e) => e.type === 'dice.rolled' && e.purpose === 'strength')!;
    const faces = rolled.faces as Array<{ value: number }>;
    faces[0]!.value = faces[0]!.value === 6 ? 5 : 6;
    const r = await fray([file('forged.json', forged), '--commitment', f.commitment]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^#3 4d6kh3 \(strength\): Does not match: the dice at position \d+ are/m);
    expect(r.out).toContain('1 of 5 rolls do not match the revealed dice (#3): the log was changed.');
  });

  it('a forged reveal (another seed, its own commitment) against the commitment seen at join: COMMITMENT_MISMATCH, exit 2', async () => {
    const r = await fray([file('gm2.json', f.gmLog), '--seed', '00'.repeat(32), '--salt', SALT, '--commitment', f.commitment]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^fray-verify: COMMITMENT_MISMATCH: SHA-256 of this seed and salt is not the commitment/);
  });

  it('bad files, each a typed error and exit 2: not JSON, not a log, a malformed event, a refusal, no reveal yet, a missing file', async () => {
    const cases: Array<[string, string]> = [
      ['{"entries": [', 'NOT_JSON'],
      ['{"hello": "world"}', 'MALFORMED_LOG'],
      [JSON.stringify({ entries: [{ events: [{ type: 'dice.rolled', rollId: 'r1' }] }] }), 'MALFORMED_LOG'],
      [JSON.stringify({ format: 'fray-encounter', log: 'nope' }), 'MALFORMED_LOG'],
      [JSON.stringify({ ok: false, error: { code: 'NOT_AUTHORIZED', message: 'no' } }), 'LOG_REFUSED'],
      [JSON.stringify({ entries: f.gmLog.entries.slice(0, 4) }), 'NOT_REVEALED'],
    ];
    for (const [text, code] of cases) {
      let caught: unknown;
      try {
        checkLogText(text);
      } catch (e) {
        caught = e;
      }
      expect(caught, text.slice(0, 60)).toBeInstanceOf(CheckFileError);
      expect((caught as CheckFileError).code, text.slice(0, 60)).toBe(code);
    }
    const r = await fray([file('bad.json', cases[1]![0])]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^fray-verify: MALFORMED_LOG: The file is not a Fray log/);
    expect((await fray([join(dir, 'missing.json')])).err).toMatch(/^fray-verify: FILE_UNREADABLE: Cannot read/);
  });
});
