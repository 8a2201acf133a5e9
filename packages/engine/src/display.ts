/**
 * How a ruleset is shown (served by `GET /rulesets` as plain data): its vitals, the labels and
 * groups of its stats, which per-combatant state fields are internal, and a sentence for each of
 * its events. Clients read this and stay ruleset-agnostic.
 */

/**
 * Where a number lives: the combatant's `data.<key>` (runtime state) or `stats.<key>`, or the
 * encounter's `options.<key>`. A dot reads inside an object: `{ in: 'stats', key: 'vitals.Mana' }`.
 */
export interface FieldRef {
  in: 'data' | 'stats' | 'options';
  key: string;
}

export interface VitalThreshold {
  /** the vital's value at or past which (below for `down`, above for `up`) the label applies */
  at: number;
  /** what it means in the game's words, e.g. `disabled`, `incapacitated` */
  label: string;
}

export interface VitalSpec {
  /** the name commands use (`combatant.adjust`'s `vital`) */
  key: string;
  label: string;
  /** short label for bars, e.g. `HP`, `STUN` */
  short: string;
  current: FieldRef;
  /** the maximum, read from a field or fixed; none = no bar, the number alone */
  max?: FieldRef | number;
  /** a combatant has this vital only when its maximum is given (a Bandit without Mana shows none) */
  onlyWithMax?: boolean;
  /**
   * `down`: harm lowers it (hit points, STUN); `up`: harm raises it (a damage track, fatigue).
   * Bars always show what is left.
   */
  direction: 'down' | 'up';
  /** ordered from the least to the most serious */
  thresholds?: VitalThreshold[];
  /**
   * What those who see no numbers are told, by how full it is (current ÷ max): full, over 3/4,
   * over 2/5, above 0, 0 (e.g. `full, high, about half, low, none` for Mana or Stress). Without
   * it, what is left in words of harm (unhurt, lightly hurt, about half, badly hurt, spent).
   */
  amountWords?: [string, string, string, string, string];
  /** the GM may apply damage or healing to it (`combatant.adjust`) */
  adjustable: boolean;
  doc: string;
}

/**
 * A sentence for an event: `{field}` is replaced by the event's field (a combatant id becomes its
 * name, a list is joined with commas, `{field.sub}` reads inside an object). A list of variants
 * picks the first whose `when` matches (every listed field equals the given value; `true` matches
 * any truthy value, `false` any falsy one). `$numbers` in `when` is the reader's, not the event's: true when
 * the reader sees the numbers of the event's subject (`targetId`, else `combatantId`) as the bars show them:
 * the GM and its controller; a sentence that tells a vital's total gives a variant without it for the rest.
 */
export type EventSentence = string | Array<{ when?: Record<string, unknown>; text: string }>;

/**
 * Vitals the GM names for each encounter (Stress, Mana): one vital per name in the option
 * `options.<names>` (a list of strings), built from `spec` with `{name}` replaced by the name in
 * its key, label, short label and field keys. The names in the option `options.<rising>` take the
 * direction `up` (harm raises them). `vitalSpecs` gives the list for an encounter.
 */
export interface NamedVitals {
  names: string;
  rising?: string;
  spec: VitalSpec;
}

export interface RulesetDisplay {
  /** the vitals every encounter has */
  vitals: VitalSpec[];
  /** the vitals an encounter names in its options, shown after `vitals` */
  namedVitals?: NamedVitals;
  /** stat groups, in the order shown; stats in no group are shown last under "Other" */
  statGroups: Array<{ label: string; stats: string[] }>;
  /** a readable label per stat key */
  statLabels: Record<string, string>;
  /**
   * Keys of the per-combatant state (`data`) that are engine bookkeeping: never shown as stats.
   * Every other key is shown with its label from `dataLabels`.
   */
  internal: string[];
  /** readable labels of the state keys that are shown (budgets, pools) */
  dataLabels: Record<string, string>;
  /** a sentence per event type, the ruleset's own and the engine's when it says them better */
  events: Record<string, EventSentence>;
  /** event types that are bookkeeping: shown only in the GM's engine log */
  quiet?: string[];
  /** sample stat blocks for quick NPCs */
  samples?: StatBlock[];
  /** rulings the GM owes, shown as cards with buttons (e.g. a pending attack) */
  rulings?: PendingRuling[];
  /** events after which the rules leave the harm to the GM: the console asks "Damage or healing?" */
  harmPrompts?: HarmPrompt[];
  /** the clock's phase ids (`clock.phase`) in the game's words, e.g. `combat-round` → "Combat round" */
  phases?: Record<string, string>;
  /** what a player does in a phase, one line by phase id, shown in the your-turn card (e.g. what to do after declaring) */
  phaseHints?: Record<string, string>;
  /**
   * The action lists: `common` are the actions a combatant usually takes (matched against an
   * option's `action`, else its `command`), shown first on the your-turn card with every other
   * action folded under "More"; `kinds` names an option's `kind` in plain words (`none` → "No
   * action needed").
   */
  actions?: { common?: string[]; kinds?: Record<string, string> };
  /**
   * The GM's condition form: the duration units its `effectExpiry` understands (unit → what it
   * means, the first the default) and the named conditions its rules act on.
   */
  effects?: { units: Record<string, string>; conditions: string[] };
  /** what the GM's forms (stats, options, position, commands) need beyond the JSON Schemas to ask in the game's words */
  forms?: FormHints;
}

/**
 * Something of the encounter a field's value names, picked by its name instead of typed as an id:
 * a combatant, a zone of the space (`space.zones`), an action of the catalogue (by its label), a
 * value several combatants share in their positions (a group, an engagement: picked by who is in
 * it), a combatant's item, an effect, a recent roll, a vital or a stat of the ruleset (by their
 * words), or an entry of a combatant's stats (`entries`: a power, by its name).
 */
export type FieldRefers = 'combatant' | 'zone' | 'action' | 'shared' | 'item' | 'effect' | 'roll' | 'vital' | 'stat' | 'entry';

/** How a form asks for one field (see `FormHints.fields`). */
export interface FieldHint {
  /** the field's label, when its name is not the game's word (stats have `statLabels`) */
  label?: string;
  /** what it means, when the schema has no doc for it (a position's parts, a command's fields) */
  doc?: string;
  /** a choice's words, by its value (`very-slow` → "Very slow"); a list of strings with `choices` is ticked, other entries typed */
  choices?: Record<string, string>;
  /** the value (or each entry of a list) names something of the encounter: picked, never typed */
  refers?: FieldRefers;
  /** with `refers: 'action'`: only the catalogue's actions of these kinds (`advanced`, `full-round`) */
  kinds?: string[];
  /**
   * With `refers: 'entry'`: where in a combatant's stats the entries are, lists by a dot
   * (`powers`: each power, by its `id` and `name`; `powers.alternates`: each power's alternate
   * effects, by their names; several paths separated by commas). On a list of strings in a list of objects (a power's alternates),
   * `entries: 'siblings'` offers the names of the other rows (the other powers).
   */
  entries?: string;
  /** a bonus: shown with its sign on the combatant's card (`+6`) */
  signed?: boolean;
  /**
   * An id the client makes from another field of the same object (e.g. `name`), unique among its
   * neighbours: never asked. With `refers`, the GM picks an existing one or leaves it to be made.
   */
  madeFrom?: string;
  /**
   * An object of free keys (skill → rank): a row per entry, its key asked as `label`; `refers` picks
   * it; `usual` offers the usual keys (a list, or the keys of an option); `value` labels a number's field.
   */
  keys?: { label: string; refers?: 'action'; usual?: string[] | { option: string }; value?: string };
}

/**
 * Form hints by where the field is: `stats.<name>`, `options.<name>`, `position.<name>`,
 * `commands.<type>.<field>`; inside an object, a list's entries or a map's values with a dot
 * (`stats.powers.id`, `options.conditionModifiers.ocv`, `commands.defineZone.zone.neighbors`).
 */
export interface FormHints {
  fields?: Record<string, FieldHint>;
  /**
   * How a zone is added by its name alone: the command and the field its zone goes in; the client
   * sends `{ type: command, [field]: { id, name } }` with an id made from the name.
   */
  newZone?: { command: string; field: string };
}

/**
 * A ruling the GM owes: each entry of the ruleset-state list `rs.<list>` (objects with an `id`) is
 * shown to the GM as a card titled `title`, with the sentence `text` (filled from the entry like an
 * event's) and one button per choice; a button sends `{ type: command, [idField]: entry.id,
 * ...choice.fields }`, plus the number field (prefilled from `entry[number.from]`) when the
 * choice says `number: true`.
 */
export interface PendingRuling {
  list: string;
  title: string;
  text: EventSentence;
  command: string;
  idField: string;
  number?: { field: string; label: string; from: string; min?: number; max?: number };
  choices: Array<{ label: string; fields: Record<string, unknown>; number?: boolean }>;
}

/**
 * An event after which the rules leave the harm to the GM (a hit whose damage the ruleset does not
 * apply): the GM's console asks "Damage or healing?" about the event's target, one click to apply
 * it with `combatant.adjust`.
 */
export interface HarmPrompt {
  /** the event's type */
  event: string;
  /** the event's fields that must match, as in an event sentence's `when` */
  when?: Record<string, unknown>;
  /** not when the same command also emitted one of these events (the rules took it from there) */
  unless?: string[];
  /** the event's field naming who takes it; default `targetId` */
  target?: string;
  /** the event's field holding the amount, when the event knows it (prefilled) */
  amount?: string;
  /** the vital asked about first (a vital's `key`); default the first adjustable one */
  vital?: string;
}

/** A ready-made combatant a GM adds in one step ("4 × Goblin"): original, documented in the ruleset's doc. */
export interface StatBlock {
  name: string;
  side: string;
  /** validated by the ruleset's stats schema (a test checks every sample) */
  stats: Record<string, unknown>;
  items?: Array<{
    id: string;
    name: string;
    location: 'left-hand' | 'right-hand' | 'both-hands' | 'carried' | 'ground';
    tags?: string[];
    props?: Record<string, unknown>;
  }>;
  /** one line: what it is, in the game */
  doc: string;
}

function namesIn(options: unknown, key: string | undefined): string[] {
  const v: unknown = key && typeof options === 'object' && options !== null ? Reflect.get(options, key) : undefined;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** `{name}` replaced by the name in a vital spec's words and field keys. */
function named(spec: VitalSpec, name: string, rising: boolean): VitalSpec {
  const fill = (t: string) => t.split('{name}').join(name);
  const ref = (r: FieldRef | number | undefined) => (r === undefined || typeof r === 'number' ? r : { in: r.in, key: fill(r.key) });
  const out: VitalSpec = {
    ...spec,
    key: fill(spec.key),
    label: fill(spec.label),
    short: fill(spec.short),
    current: { in: spec.current.in, key: fill(spec.current.key) },
    doc: fill(spec.doc),
  };
  const max = ref(spec.max);
  if (max !== undefined) out.max = max;
  if (rising) out.direction = 'up';
  return out;
}

/** The vitals of an encounter with these options: the ruleset's own, then the ones it names. */
export function vitalSpecs(display: RulesetDisplay | undefined, options: unknown): VitalSpec[] {
  if (!display) return [];
  const nv = display.namedVitals;
  if (!nv) return display.vitals;
  const rising = new Set(namesIn(options, nv.rising));
  return [...display.vitals, ...namesIn(options, nv.names).map((n) => named(nv.spec, n, rising.has(n)))];
}
