import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run new-ruleset <id>` scaffolds into a throwaway copy of the repository's rulesets package, whose checks then run there.
const repo = join(import.meta.dirname, '../../..');
const script = join(repo, 'scripts/new-ruleset.mjs');
const root = mkdtempSync(join(tmpdir(), 'fray-new-ruleset-'));
const pkg = join(root, 'packages/rulesets');
cpSync(join(repo, 'packages/rulesets'), pkg, {
  recursive: true,
  filter: (p) => !/\/(node_modules|dist|bench)(\/|$)/.test(p) && !/\/test\/[a-z-]+\//.test(p.replace(pkg, '')),
});
cpSync(join(repo, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (id: string) => spawnSync(process.execPath, [script, id, '--root', root], { encoding: 'utf8' });

describe('npm run new-ruleset', () => {
  it('refuses a bad or a taken id with a clear message', () => {
    const bad = run('My_Game');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('"My_Game" is not a ruleset id');
    const taken = run('freeform');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('the ruleset id "freeform" is taken');
  });

  it('scaffolds the layout, the registry line, a conformance test and a docs stub, and its conformance tests pass right away', () => {
    const made = run('demo-game');
    expect(made.stderr).toBe('');
    for (const f of [
      'index.ts',
      'options.ts',
      'state.ts',
      'catalogue.ts',
      'checks.ts',
      'commands/index.ts',
      'commands/actions.ts',
      'flow.ts',
      'events.ts',
      'legal.ts',
      'presentation.ts',
      'invariants.ts',
    ]) {
      expect(existsSync(join(pkg, 'src/demo-game', f)), f).toBe(true);
    }
    expect(readFileSync(join(pkg, 'src/registry.ts'), 'utf8')).toContain("'demo-game': demoGame,");
    expect(existsSync(join(root, 'docs/rulesets/demo-game.md'))).toBe(true);
    const bin = join(repo, 'node_modules/.bin');
    // the new folder and its test alone: the rest of the package is typechecked by its own task
    const only = {
      extends: '../../tsconfig.base.json',
      compilerOptions: { rootDir: '.', noEmit: true, types: ['node'] },
      include: ['src/demo-game', 'test/conformance/demo-game.test.ts'],
    };
    writeFileSync(join(pkg, 'tsconfig.scaffold.json'), JSON.stringify(only));
    const typecheck = spawnSync(join(bin, 'tsc'), ['-p', 'tsconfig.scaffold.json'], { cwd: pkg, encoding: 'utf8' });
    expect(typecheck.stdout + typecheck.stderr).toBe('');
    const tests = spawnSync(join(bin, 'vitest'), ['run', 'test/conformance/demo-game.test.ts'], {
      cwd: pkg,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    expect(tests.stdout + tests.stderr).toMatch(/Tests +10 passed/);
    expect(tests.status).toBe(0);
    expect(run('demo-game').stderr).toContain('is taken');
  }, 120_000);
});
