/** The types of schema-generated forms: a JSON Schema as `GET /rulesets` gives it, a form's field, the ruleset's hints. */
import type { FieldHint, FieldRefers } from '@fray/engine';

/** Form hints by the path below the form's root (`mountId`, `powers.id`, `skills`). */
export type Hints = Record<string, FieldHint>;

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  examples?: unknown[];
  description?: string;
  title?: string;
  [k: string]: unknown;
};

export type FieldKind = 'integer' | 'number' | 'text' | 'boolean' | 'select' | 'multiselect' | 'list' | 'json';

export interface Field {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  choices?: string[];
  min?: number;
  max?: number;
  doc?: string;
  default?: unknown;
  /** a field for one entry of an object-valued property: its value is `value[parent][key]` */
  parent?: string;
  key?: string;
  /** an object-valued property: the kind of each of its entries (a map of numbers: integer) */
  entry?: Pick<Field, 'kind' | 'choices' | 'min' | 'max'>;
  /** a list of plain objects (`json`, its value the list as JSON): the fields of each entry, edited as rows */
  rows?: Field[];
  /** the rows are a map's entries (an object of free keys): `rows[0]` is the key (`__key`), then `__value` or the value's fields */
  map?: { scalar: boolean };
  /** a choice's words by its value (else the value made readable) */
  choiceLabels?: Record<string, string>;
  /** a list with choices that also takes other entries (typed) */
  open?: boolean;
  /** an example of a value (the placeholder), e.g. `2d6+3` */
  example?: string;
  /** the value names something of the encounter: its choices come from the form's context */
  refers?: FieldRefers;
  /** an action of these kinds only (the catalogue's `kind`) */
  actionKinds?: string[];
  /** an id made from this sibling field when left blank; not shown unless it `refers` (then blank = a new one) */
  madeFrom?: string;
  /** usual values (a map's keys): offered as you type; an option's keys come from the form's context */
  usual?: string[] | { option: string };
  /** with `refers: 'entry'`: where the entries are in a combatant's stats (`powers`), or `siblings` (the other rows' names) */
  entries?: string;
  /** any plain value, typed: a number when it reads as one, yes/no as true/false, else the words */
  loose?: boolean;
}
