/**
 * Run by make.sh inside a checkout of the previous release, with that release's code: a server on
 * a new embedded database in $FIXTURE_DATA_DIR, a GM, a few encounters of several rulesets played
 * through the socket client, and each encounter's version and state hash in $FIXTURE_EXPECTED.
 * Only APIs that release had are used.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { FrayClient } from '@fray/client';
import { registry } from '@fray/rulesets';
import { buildServer } from '@fray/server';
import { openStore } from '@fray/store';

const dataDir = process.env.FIXTURE_DATA_DIR!;
const out = process.env.FIXTURE_EXPECTED!;
const store = await openStore({ dataDir });
const server = await buildServer({ store, rulesets: registry, logLevel: 'warn', runtime: { snapshotEvery: 6, reactionSeconds: 0 } });
const { url } = await server.listen(0, '127.0.0.1');
const http = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await fetch(url + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
};
const gm = (await http('POST', '/accounts', { name: 'Fixture GM' })).token as string;
const fights = [
  {
    name: 'Bridge at dusk',
    ruleset: 'legends',
    seed: 11,
    combatants: [
      { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { DEX: 12, SPD: 10, STR: 9 } },
      { id: 'gob', name: 'Goblin', side: 'foes', stats: { DEX: 9, SPD: 8, STR: 7 } },
    ],
    rolls: 9,
  },
  {
    name: 'Tavern brawl',
    ruleset: 'legends',
    seed: 12,
    combatants: [{ id: 'bren', name: 'Bren', side: 'heroes', stats: { DEX: 10, SPD: 9, STR: 12 } }],
    rolls: 3,
  },
];
const client = await FrayClient.connect(url, gm);
const expected: Array<{ name: string; ruleset: string; version: number; sha256: string }> = [];
for (const f of fights) {
  const id = (await http('POST', '/encounters', { name: f.name, ruleset: f.ruleset, seed: f.seed }, gm)).id as string;
  for (const c of f.combatants) await http('POST', `/encounters/${id}/combatants`, c, gm);
  await http('POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: [f.combatants[0]!.id] }, gm);
  const m = await client.join(id);
  for (let i = 0; i < f.rolls; i++) {
    const ack = await m.command({ type: 'dice.roll', formula: '3d6', purpose: `roll ${i}`, combatantId: f.combatants[0]!.id });
    if (!ack.ok) throw new Error(JSON.stringify(ack));
  }
  const host = server.runtime.peek(id)!;
  expected.push({
    name: f.name,
    ruleset: f.ruleset,
    version: host.version,
    sha256: createHash('sha256').update(JSON.stringify(host.state)).digest('hex'),
  });
}
client.close();
await server.close();
await store.close();
// the GM token too (test data only): the upgrade test signs in as this GM and plays on
writeFileSync(out, `${JSON.stringify({ release: process.env.FIXTURE_RELEASE, gmToken: gm, encounters: expected }, null, 2)}\n`);
process.exit(0);
