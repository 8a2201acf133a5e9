/**
 * fray-verify <log.json> [--seed hex --salt hex] [--commitment hex]: checks every roll of a log a
 * viewer holds against the revealed dice (docs/dice.md). Prints one line per roll and a summary.
 * Exit 0 when every roll checks out, 1 when a roll does not match, 2 when the file cannot be
 * checked (unreadable, malformed, forged reveal, not revealed yet).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CheckFileError, checkLogText, type CheckOptions } from './check-file.js';

const USAGE = `Usage: fray-verify <log.json> [--commitment <hex>] [--seed <hex> --salt <hex>]

  <log.json>     the log you hold: the socket "log" answer, GET /encounters/:id/log, or an export
  --commitment   the commitment you saw when you first joined (state.dice.commitment); without it,
                 the export's (or the log's reveal's) is used
  --seed --salt  the revealed seed and salt; without them, the log's dice.revealed event is used`;

function run(argv: string[]): number {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (e) {
    process.stderr.write(`fray-verify: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new CheckFileError('FILE_UNREADABLE', `Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const options: CheckOptions = {
      ...(args.values.seed ? { seed: args.values.seed } : {}),
      ...(args.values.salt ? { salt: args.values.salt } : {}),
      ...(args.values.commitment ? { commitment: args.values.commitment } : {}),
    };
    const result = checkLogText(text, options);
    for (const line of result.lines) process.stdout.write(`${line}\n`);
    if (result.commitmentFrom === 'log')
      process.stdout.write(
        "Note: checked against the commitment in the log's own reveal; pass --commitment with the one you saw when you joined to rule out a forged file.\n",
      );
    return result.report.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof CheckFileError) {
      process.stderr.write(`fray-verify: ${e.code}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { seed: { type: 'string' }, salt: { type: 'string' }, commitment: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
}

process.exitCode = run(process.argv.slice(2));
