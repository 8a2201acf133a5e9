import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registry } from '@fray/rulesets';
import { allEncounters, restoreFromFile } from '@fray/store';
import { freshRestoreTarget } from '@fray/store/testing';
import { stateHash } from '../src/data/verify.js';
import { connect, startServer } from './helpers.js';

/**
 * Issue 34, "Upgrades that keep the data": "a test starts the current server on a database made by
 * the previous tagged release (keep a small fixture of such a database under test data), resumes
 * its encounters, and plays on."
 *
 * The fixture (fixtures/previous-release, made by scripts/upgrade-fixture/make.sh from the release's
 * own code) is that database as a Fray backup: its rows as the release wrote them, at the release's
 * migrations. Restoring it builds exactly that database; this server then applies its newer
 * migrations, as it does at start on an upgraded host.
 */
const dir = fileURLToPath(new URL('./fixtures/previous-release/', import.meta.url));

interface Expected {
  release: string;
  gmToken: string;
  encounters: Array<{ name: string; ruleset: string; version: number; sha256: string }>;
}

describe('upgrades that keep the data', () => {
  it('the current server resumes every encounter of the previous release at its version and state, and plays on', async () => {
    const expected = JSON.parse(await readFile(`${dir}expected.json`, 'utf8')) as Expected;
    const target = await freshRestoreTarget();
    try {
      const restored = await restoreFromFile(`${dir}database.jsonl`, target.target);
      expect(restored.header.migrations.length).toBeGreaterThan(0);
      const store = await target.open();
      const s = await startServer({ store, rulesets: registry });
      try {
        const ids = await allEncounters(store);
        expect(ids).toHaveLength(expected.encounters.length);
        const gm = await connect(s.url, expected.gmToken);
        for (const { id } of ids) {
          const host = await s.server.runtime.open(id);
          const want = expected.encounters.find((e) => e.name === host.state.name)!;
          expect(want, `encounter ${host.state.name}`).toBeDefined();
          expect(host.version).toBe(want.version);
          expect(stateHash(host.state)).toBe(want.sha256);
          // and plays on, as the release's GM (its account token still signs in)
          const m = await gm.join(id);
          const combatantId = Object.keys(host.state.combatants)[0]!;
          const ack = await m.command({ type: 'dice.roll', formula: '3d6', purpose: 'after the upgrade', combatantId });
          expect(ack.ok && ack.version).toBe(want.version + 1);
        }
        gm.close();
      } finally {
        await s.close();
        await store.close();
      }
    } finally {
      await target.dispose();
    }
  }, 300_000);
});
