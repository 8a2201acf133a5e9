/**
 * The dice verifier's report in plain words (docs/dice.md), for a person: one line per roll and a
 * summary. Shared by the `fray-verify` CLI and the web app's "Verify the dice" button.
 */
import type { DiceReport, RollCheck } from './verify-dice.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One roll as a line: its number in the log, formula, purpose, and what the check found. */
export function rollLine(roll: RollCheck, index: number): string {
  const purpose = roll.purpose ? ` (${roll.purpose})` : '';
  return `#${index + 1} ${roll.formula}${purpose}: ${roll.words}`;
}

/**
 * The report in a sentence or two: "All 37 rolls check out." or which rolls failed; the GM's
 * overrides and forced rolls, the rolls that could not be checked, and the draws this viewer
 * could not see.
 */
export function diceSummary(report: DiceReport): string {
  const total = report.rolls.length;
  const c = report.counts;
  const parts: string[] = [];
  if (total === 0) parts.push('There are no rolls to check.');
  else if (!report.ok) {
    const failed = report.rolls.flatMap((r, i) => (r.status === 'mismatch' ? [`#${i + 1}`] : []));
    parts.push(
      `${failed.length} of ${plural(total, 'roll', 'rolls')} do not match the revealed dice (${failed.join(', ')}): the log was changed.`,
    );
  } else if (c.unchecked === total)
    parts.push(`None of the ${plural(total, 'roll', 'rolls')} could be checked: they were not rolled from committed dice.`);
  else if (c.unchecked === 0) parts.push(total === 1 ? 'The roll checks out.' : `All ${total} rolls check out.`);
  else parts.push(`${total - c.unchecked} of ${total} rolls check out.`);
  const notes: string[] = [];
  if (c.override > 0) notes.push(`${plural(c.override, 'GM override', 'GM overrides')} (shown with the reason)`);
  if (c.forced > 0) notes.push(`${plural(c.forced, 'roll', 'rolls')} forced by the GM`);
  if (c.unchecked > 0 && c.unchecked < total) notes.push(`${plural(c.unchecked, 'roll', 'rolls')} could not be checked`);
  if (notes.length > 0) parts.push(`Of these: ${notes.join(', ')}.`);
  if (report.unseenDraws > 0)
    parts.push(`${plural(report.unseenDraws, 'draw', 'draws')} of the dice went to rolls you could not see (the GM's secret rolls).`);
  return parts.join(' ');
}
