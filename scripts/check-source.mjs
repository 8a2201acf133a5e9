#!/usr/bin/env node
// The source check (issue 35, item 3), run by `npm test` and `npm run lint` (turbo's root task
// `check:source`). Over the tracked TypeScript source outside tests, benchmarks and generated files:
//   - no file over 400 lines, no function over 80 (ESLint's max-lines / max-lines-per-function);
//   - no import cycles (dpdm, type-only imports included);
//   - no dead exports or files (knip, configured in knip.json);
//   - the `as` casts (TypeScript AsExpression and <T>x, not `as const`) within each folder's budget,
//     and no `as unknown as`.
// Today's offenders are listed in scripts/source-allowlist.json. That file may only shrink: an entry
// whose offence is gone fails the check until it is removed; `--tighten` lowers every number to
// today's count and drops stale entries (it never adds or raises one).
//
//   node scripts/check-source.mjs            run every part
//   node scripts/check-source.mjs --only sizes,casts,cycles,exports
//   node scripts/check-source.mjs --counts   also print the cast count of every folder
//   node scripts/check-source.mjs --tighten  rewrite the allowlist to today's (lower) figures
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const allowlistPath = 'scripts/source-allowlist.json';
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const args = process.argv.slice(2);
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg ? new Set((onlyArg.split('=')[1] ?? args[args.indexOf(onlyArg) + 1] ?? '').split(',')) : null;
const runs = (part) => !only || only.has(part);
const tighten = args.includes('--tighten');
const showCounts = args.includes('--counts');

/** The source under the check: tracked (or new, not ignored) .ts/.tsx under a package's src/ or the web plugin. */
function sourceFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', 'packages', 'apps'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))]
    .filter((f) => /^(packages|apps)\/[^/]+\/(src|plugin)\/.*\.(ts|tsx|mts|cts)$/.test(f))
    .filter((f) => !f.endsWith('.d.ts') && !/(^|\/)(generated|test|tests|__tests__)\//.test(f))
    .filter((f) => !/\.(test|spec|bench)\.[cm]?tsx?$/.test(f))
    .filter((f) => existsSync(join(root, f)))
    .sort();
}

const allowlist = JSON.parse(readFileSync(join(root, allowlistPath), 'utf8'));
const problems = [];
const notes = [];
const fail = (msg) => problems.push(msg);

// --- sizes: ESLint's own rules, inline disables not honoured -------------------------------------
async function checkSizes(files) {
  const { ESLint } = await import('eslint');
  const tseslint = (await import('typescript-eslint')).default;
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    allowInlineConfig: false,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
        rules: {
          'max-lines': ['error', { max: MAX_FILE_LINES }],
          'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES }],
        },
      },
    ],
  });
  const results = await eslint.lintFiles(files);
  const fileLines = {};
  const functionLines = {};
  for (const r of results) {
    const file = relative(root, r.filePath);
    const text = r.source ?? readFileSync(r.filePath, 'utf8');
    const lines = text.split('\n');
    const seen = new Map();
    for (const m of r.messages) {
      if (m.ruleId === 'max-lines') {
        fileLines[file] = Number(/\((\d+)\)/.exec(m.message)?.[1]);
      } else if (m.ruleId === 'max-lines-per-function') {
        const [, kindName, count] = /^(.*) has too many lines \((\d+)\)/.exec(m.message) ?? [];
        let name = kindName ?? m.message;
        if (!name.includes("'")) name += ` (${labelOf(lines[m.line - 1] ?? '')})`;
        const n = (seen.get(name) ?? 0) + 1;
        seen.set(name, n);
        const key = `${file} › ${name}${n > 1 ? ` #${n}` : ''}`;
        functionLines[key] = { lines: Number(count), line: m.line };
      } else if (m.fatal) {
        fail(`${file}:${m.line}: cannot parse: ${m.message}`);
      }
    }
  }
  compare('files', fileLines, (k, n) => `${k}: ${n} lines, over the ${MAX_FILE_LINES}-line limit`);
  const fnCounts = Object.fromEntries(Object.entries(functionLines).map(([k, v]) => [k, v.lines]));
  compare('functions', fnCounts, (k, n) => {
    const [file, name] = k.split(' › ');
    return `${file}:${functionLines[k].line}: ${name} has ${n} lines, over the ${MAX_FUNCTION_LINES}-line limit`;
  });
}

/** A name for an anonymous function from the line it starts on: `const x = (`, `x: async (`, `app.get('/a', (`. */
function labelOf(line) {
  const t = line.trim();
  const named = /(?:^|[\s(,{])([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s*)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>)/.exec(t);
  if (named) return named[1];
  const callback = /([A-Za-z_$][\w$.]*)\((?:[^()]*,\s*)?(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>/.exec(t);
  if (callback) return `callback of ${callback[1]}`;
  return t.length > 50 ? `${t.slice(0, 50)}…` : t;
}

/**
 * Offences (key -> figure) against an allowlist section (key -> allowed figure): an offence above its
 * entry, or with none, fails; an entry with no offence left fails until it is removed (the list only
 * shrinks); an entry above today's figure is tightened by --tighten.
 */
function compare(section, found, describe) {
  const allowed = allowlist[section] ?? {};
  for (const [key, n] of Object.entries(found)) {
    const cap = allowed[key];
    if (cap === undefined) fail(describe(key, n));
    else if (n > cap) fail(`${describe(key, n)} (the allowlist's ${cap} may not grow)`);
    else if (n < cap) tightenTo(section, key, n);
  }
  for (const key of Object.keys(allowed)) {
    if (!(key in found)) {
      if (tighten) delete allowed[key];
      else fail(`${allowlistPath}: "${key}" in "${section}" is no longer an offence: remove the entry (or run --tighten)`);
    }
  }
}

function tightenTo(section, key, n) {
  if (tighten) allowlist[section][key] = n;
  else notes.push(`${section} "${key}": ${n} now, the allowlist says ${allowlist[section][key]} (--tighten lowers it)`);
}

// --- casts: the TypeScript AST --------------------------------------------------------------------
function checkCasts(files) {
  const budgets = allowlist.casts ?? {};
  const doubleBudgets = allowlist.asUnknownAs ?? {};
  const keys = Object.keys(budgets).sort((a, b) => b.length - a.length);
  const count = {};
  const doubles = {};
  const doubleSites = {};
  const folderOf = (file) => keys.find((k) => file === k || file.startsWith(`${k}/`)) ?? /^[^/]+\/[^/]+/.exec(file)?.[0] ?? file;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
    const folder = folderOf(file);
    count[folder] ??= 0;
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(sf) === 'const';
        if (!isConst) count[folder]++;
        const inner = ts.isParenthesizedExpression(node.expression) ? node.expression.expression : node.expression;
        if (ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword) {
          doubles[folder] = (doubles[folder] ?? 0) + 1;
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          (doubleSites[folder] ??= []).push(`${file}:${line + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  let total = 0;
  const rows = [];
  for (const folder of Object.keys({ ...budgets, ...count }).sort()) {
    const n = count[folder] ?? 0;
    total += n;
    const budget = budgets[folder] ?? 0;
    const target = allowlist.castTargets?.[folder];
    rows.push(
      `  ${folder.padEnd(44)} ${String(n).padStart(5)}  budget ${String(budget).padStart(4)}${target === undefined ? '' : `  target ${target}`}`,
    );
    if (n > budget) {
      fail(
        `${folder}: ${n} \`as\` casts, over its budget of ${budget} in ${allowlistPath} (type it: z.infer, discriminated unions, type guards)`,
      );
    } else if (n < budget) {
      tightenTo('casts', folder, n);
    }
    const d = doubles[folder] ?? 0;
    const dCap = doubleBudgets[folder] ?? 0;
    if (d > dCap) {
      const sites = doubleSites[folder].slice(0, 5).join(', ');
      fail(
        `${folder}: ${d} \`as unknown as\`, the allowlist allows ${dCap} (none is the rule): ${sites}${doubleSites[folder].length > 5 ? ', …' : ''}`,
      );
    } else if (d < dCap) {
      if (tighten && d === 0) delete doubleBudgets[folder];
      else tightenTo('asUnknownAs', folder, d);
    }
  }
  const castTotal = allowlist.castTotalTarget;
  if (showCounts) console.log(`as casts (not as const) per folder:\n${rows.join('\n')}`);
  console.log(`check-source: ${total} \`as\` casts in ${files.length} files${castTotal ? ` (issue target: under ${castTotal + 1})` : ''}`);
}

// --- cycles: dpdm --------------------------------------------------------------------------------
async function checkCycles(files) {
  const { parseDependencyTree, parseCircular } = await import('dpdm');
  const tree = await parseDependencyTree(files, {
    context: root,
    transform: false, // type-only imports count: a cycle of types is still a cycle for the reader
    skipDynamicImports: false,
    exclude: /node_modules|\/generated\//,
    tsconfig: join(root, 'tsconfig.base.json'),
  });
  const found = {};
  for (const cycle of parseCircular(tree)) {
    const rel = cycle.map((f) => relative(root, join(root, f)));
    const start = rel.indexOf([...rel].sort()[0]);
    const ordered = [...rel.slice(start), ...rel.slice(0, start)];
    found[[...ordered, ordered[0]].join(' -> ')] = 1;
  }
  const asList = Object.fromEntries((allowlist.cycles ?? []).map((c) => [c, 1]));
  const saved = allowlist.cycles;
  allowlist.cycles = asList;
  compare('cycles', found, (k) => `import cycle: ${k}`);
  allowlist.cycles = tighten ? Object.keys(asList) : saved;
}

// --- dead exports and files: knip ----------------------------------------------------------------
function checkExports() {
  const bin = join(root, 'node_modules', '.bin', 'knip');
  let out;
  try {
    out = execFileSync(
      process.execPath,
      [
        bin,
        '--tsConfig',
        'tsconfig.build.json',
        '--no-progress',
        '--reporter',
        'json',
        '--include',
        'files,exports,types,nsExports,nsTypes,duplicates',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
  } catch (err) {
    out = err.stdout; // knip exits 1 when it finds something
    if (!out) throw err;
  }
  const found = {};
  for (const issue of JSON.parse(out).issues) {
    for (const f of issue.files ?? []) found[`${issue.file}: (unused file)`] = 1;
    for (const kind of ['exports', 'types', 'nsExports', 'nsTypes']) {
      for (const e of issue[kind] ?? []) found[`${issue.file}: ${e.name}`] = e.line;
    }
    for (const group of issue.duplicates ?? [])
      found[`${issue.file}: duplicate ${group.map((e) => e.name).join('|')}`] = group[0]?.line ?? 0;
  }
  const saved = allowlist.deadExports ?? [];
  const asMap = Object.fromEntries(saved.map((k) => [k, 1]));
  for (const key of Object.keys(found)) {
    if (!(key in asMap)) {
      const [file, what] = key.split(': ');
      fail(
        `${file}:${found[key]}: ${what.startsWith('(') ? 'unused file' : `${what} is exported but used nowhere (dead export): remove it or its export`}`,
      );
    }
  }
  const kept = [];
  for (const key of saved) {
    if (key in found) kept.push(key);
    else if (!tighten) fail(`${allowlistPath}: "${key}" in "deadExports" is no longer an offence: remove the entry (or run --tighten)`);
  }
  if (tighten) allowlist.deadExports = kept;
}

const started = performance.now();
const files = sourceFiles();
const timings = [];
const timed = async (part, fn) => {
  if (!runs(part)) return;
  const t = performance.now();
  await fn(files);
  timings.push(`${part} ${((performance.now() - t) / 1000).toFixed(1)} s`);
};
await timed('sizes', checkSizes);
await timed('casts', checkCasts);
await timed('cycles', checkCycles);
await timed('exports', checkExports);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

if (tighten) {
  writeFileSync(join(root, allowlistPath), `${JSON.stringify(allowlist, null, 2)}\n`);
  console.log(`check-source: ${allowlistPath} tightened to today's figures`);
}
if (notes.length && !tighten)
  console.log(`check-source: ${notes.length} allowlist entries could be lowered (node scripts/check-source.mjs --tighten)`);
if (problems.length) {
  console.error(problems.map((p) => `✗ ${p}`).join('\n'));
  console.error(
    `check-source: ${problems.length} problem(s) in ${seconds} s. Limits: ${MAX_FILE_LINES} lines a file, ${MAX_FUNCTION_LINES} a function, no import cycle, no dead export, casts within ${allowlistPath}.`,
  );
  process.exit(1);
}
console.log(`check-source: ${files.length} files pass (${seconds} s: ${timings.join(', ')})`);
