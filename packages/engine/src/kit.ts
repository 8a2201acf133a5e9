/**
 * The ruleset kit: typed commands and the one way a rule refuses.
 *
 * `defineCommand` keeps what a command's zod schema knows: its handler receives `z.infer` of the
 * schema (the engine parses every command with that schema before the handler runs), so a handler
 * reads `cmd.raises` as the number it is, without a cast.
 */
import type { z } from 'zod';
import type { CommandSpec, Command, Ctx } from './types.js';
import { RuleViolation, type EngineError, type ErrorCode } from './errors.js';

/** A command whose handler sees its schema's output type. */
export interface TypedCommandSpec<S extends z.ZodType<Command>, RS, O> extends Omit<CommandSpec<RS, O>, 'schema' | 'handle'> {
  schema: S;
  handle(ctx: Ctx<RS, O>, command: z.output<S>): void;
}

/**
 * Define a command with a handler typed by its schema. The schema must accept a whole command
 * (`type`, `by` and its fields: extend `commandSchema`).
 */
export function defineCommand<RS, O, S extends z.ZodType<Command>>(spec: TypedCommandSpec<S, RS, O>): CommandSpec<RS, O> {
  return spec;
}

/**
 * `defineCommand` with the ruleset's state and options types fixed once:
 * `const command = commandKit<MyRS, MyOptions>();` then `command({ schema, actor, handle })`.
 */
export function commandKit<RS, O>() {
  return <S extends z.ZodType<Command>>(spec: TypedCommandSpec<S, RS, O>): CommandSpec<RS, O> => defineCommand(spec);
}

/** A refusal as a value: the error code, the most specific rule id that forbids it, and why. */
export function ruleError(code: ErrorCode, rule: string, message: string): EngineError {
  return { code, rule, message };
}

/** Refuse the command with an error found by a check (`checks.ts`): `refuse(why)` never returns. */
export function refuse(error: EngineError): never {
  throw new RuleViolation(error.code, error.rule, error.message);
}

/** Run a check that answers null (allowed) or the refusal; refuse when it is not null. */
export function ensure(error: EngineError | null): void {
  if (error) refuse(error);
}
