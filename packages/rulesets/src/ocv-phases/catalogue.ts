import type { CatalogueEntry } from '@fray/engine';

export const ID = 'ocv-phases';

/**
 * The rule ids every refusal names, the most specific one (`ocv-phases.<rule>`); each check in
 * checks/ quotes the sentence of the rule text it implements.
 */
export const RULE = {
  initiativeOrder: 'ocv-phases.initiative-order',
  interrupts: 'ocv-phases.interrupts',
  incapable: 'ocv-phases.incapable',
  surprise: 'ocv-phases.surprise',
  actionTypes: 'ocv-phases.action-types',
  fullPhase: 'ocv-phases.full-phase',
  startFullPhase: 'ocv-phases.start-full-phase',
  restrictedPhase: 'ocv-phases.restricted-phase',
  freeActions: 'ocv-phases.free-actions',
  stunned: 'ocv-phases.stunned',
  prone: 'ocv-phases.prone',
  hexes: 'ocv-phases.hexes',
  movement: 'ocv-phases.movement',
  oneStep: 'ocv-phases.one-step',
  stepNoMove: 'ocv-phases.step-no-move',
  stepSlow: 'ocv-phases.step-slow',
  stepTerrain: 'ocv-phases.step-terrain',
  attack: 'ocv-phases.attack',
  meleeReach: 'ocv-phases.melee-reach',
  ranged: 'ocv-phases.ranged',
  lineOfSight: 'ocv-phases.line-of-sight',
  items: 'ocv-phases.items',
  aooOpportunity: 'ocv-phases.aoo-opportunity',
  aooDodge: 'ocv-phases.aoo-dodge',
  aooOnePerPhase: 'ocv-phases.aoo-one-per-phase',
  aooManoeuvre: 'ocv-phases.aoo-manoeuvre',
  skillCheckNegates: 'ocv-phases.skill-check-negates',
  usuallyVaries: 'ocv-phases.usually-varies',
  delay: 'ocv-phases.delay',
  delayNoInterrupt: 'ocv-phases.delay-no-interrupt',
  ready: 'ocv-phases.ready',
  readyTrigger: 'ocv-phases.ready-trigger',
  abort: 'ocv-phases.abort',
  abortDefensive: 'ocv-phases.abort-defensive',
  abortLockout: 'ocv-phases.abort-lockout',
  abortGaveUp: 'ocv-phases.abort-gave-up',
} as const;

/**
 * The manoeuvre table of the rule text, row by row, in data: each row's action type and whether
 * it provokes an attack of opportunity ("Yes", "No", "Yes (skill check negates)", "Usually
 * (varies)"). OCV/DCV modifiers of the combat manoeuvres are not in the text: they are the
 * usual values of the system and can be overridden with the `manoeuvreModifiers` option.
 */

export type ActionType = 'attack' | 'move' | 'full' | 'free' | 'none';
export type Provokes = 'no' | 'yes' | 'skill' | 'varies';
/** Which command performs a row. */
type Via = 'attack' | 'defend' | 'move' | 'act' | 'free' | 'delay' | 'step' | 'ready';

export interface Row {
  id: string;
  label: string;
  type: ActionType;
  provokes: Provokes;
  via: Via;
  /** combat manoeuvres: OCV / DCV modifiers (until the character's next action), DCV halved */
  ocv?: number;
  dcv?: number;
  halveDcv?: boolean;
  /** needs an attack roll (usable for an attack of opportunity if also melee-capable) */
  attackRoll?: boolean;
  /** defensive: a target of aborting */
  defensive?: boolean;
  /** several targets */
  multi?: boolean;
  /** the row moves the character */
  moves?: boolean;
}

export const ROWS: readonly Row[] = [
  // Attack actions
  { id: 'block', label: 'Block', type: 'attack', provokes: 'no', via: 'defend', ocv: 0, dcv: 0, defensive: true },
  { id: 'disarm', label: 'Disarm', type: 'attack', provokes: 'no', via: 'attack', ocv: -2, dcv: 0, attackRoll: true },
  { id: 'dodge', label: 'Dodge', type: 'attack', provokes: 'no', via: 'defend', ocv: 0, dcv: 3, defensive: true },
  { id: 'grab', label: 'Grab', type: 'attack', provokes: 'no', via: 'attack', ocv: -1, dcv: -2, attackRoll: true },
  { id: 'haymaker', label: 'Haymaker', type: 'attack', provokes: 'no', via: 'attack', ocv: 0, dcv: -5, attackRoll: true },
  { id: 'missile-deflection', label: 'Missile Deflection', type: 'attack', provokes: 'no', via: 'defend', ocv: 0, dcv: 0, defensive: true },
  { id: 'roll-with-a-punch', label: 'Roll With A Punch', type: 'attack', provokes: 'no', via: 'defend', ocv: -2, dcv: -2, defensive: true },
  { id: 'strike', label: 'Strike', type: 'attack', provokes: 'no', via: 'attack', ocv: 0, dcv: 0, attackRoll: true },
  { id: 'other-attack', label: 'Other Attacks', type: 'attack', provokes: 'no', via: 'attack', ocv: 0, dcv: 0, attackRoll: true },
  // Move actions
  {
    id: 'move-half',
    label: 'Move up to half of combat movement',
    type: 'move',
    provokes: 'skill',
    via: 'move',
    moves: true,
    defensive: true,
  },
  { id: 'crawl', label: 'Crawl one hex', type: 'move', provokes: 'skill', via: 'move', moves: true },
  { id: 'draw-focus', label: 'Draw or sheathe a focus', type: 'move', provokes: 'skill', via: 'act' },
  { id: 'stand-up', label: 'Stand up from prone', type: 'move', provokes: 'skill', via: 'act' },
  { id: 'mount', label: 'Mount or dismount a horse', type: 'move', provokes: 'skill', via: 'act' },
  { id: 'reload', label: 'Reload a gun', type: 'move', provokes: 'skill', via: 'act' },
  { id: 'skill-move', label: 'Use a skill that requires a move action', type: 'move', provokes: 'varies', via: 'act' },
  { id: 'start-full-phase', label: 'Start a full-phase action', type: 'move', provokes: 'varies', via: 'act' },
  { id: 'complete-full-phase', label: 'Complete a full-phase action', type: 'move', provokes: 'varies', via: 'act' },
  { id: 'analyse', label: "Analyse an opponent's weaknesses", type: 'move', provokes: 'no', via: 'act' },
  { id: 'sense', label: 'Attempt to use a non-targeting sense to perceive an enemy', type: 'move', provokes: 'no', via: 'act' },
  { id: 'resist-knockback', label: 'Resist Knockback', type: 'move', provokes: 'no', via: 'act' },
  { id: 'door', label: 'Open or close a door', type: 'move', provokes: 'no', via: 'act' },
  { id: 'heavy-object', label: 'Move a heavy object', type: 'move', provokes: 'yes', via: 'act' },
  { id: 'pick-up', label: 'Pick up an item', type: 'move', provokes: 'yes', via: 'act' },
  // Full-phase actions
  {
    id: 'move-full',
    label: 'Move more than half and up to all of combat movement',
    type: 'full',
    provokes: 'skill',
    via: 'move',
    moves: true,
  },
  { id: 'move-noncombat', label: 'Move at non-combat speed', type: 'full', provokes: 'yes', via: 'move', moves: true },
  { id: 'skill-full', label: 'Use a skill that requires a full-phase action', type: 'full', provokes: 'varies', via: 'act' },
  { id: 'retrieve-focus', label: 'Retrieve or stow a stored focus', type: 'full', provokes: 'yes', via: 'act' },
  { id: 'change-clothes', label: 'Change clothes', type: 'full', provokes: 'yes', via: 'act' },
  {
    id: 'move-by',
    label: 'Move By an opponent',
    type: 'full',
    provokes: 'no',
    via: 'move',
    moves: true,
    ocv: -2,
    dcv: -2,
    attackRoll: true,
  },
  {
    id: 'move-through',
    label: 'Move Through an opponent',
    type: 'full',
    provokes: 'no',
    via: 'move',
    moves: true,
    ocv: -2,
    dcv: -3,
    attackRoll: true,
  },
  {
    id: 'rapid-fire',
    label: 'Rapid Fire at multiple opponents',
    type: 'full',
    provokes: 'no',
    via: 'attack',
    ocv: 0,
    dcv: 0,
    halveDcv: true,
    attackRoll: true,
    multi: true,
  },
  {
    id: 'sweep',
    label: 'Sweep multiple opponents',
    type: 'full',
    provokes: 'no',
    via: 'attack',
    ocv: 0,
    dcv: 0,
    halveDcv: true,
    attackRoll: true,
    multi: true,
  },
  { id: 'withdraw', label: 'Withdraw from combat', type: 'full', provokes: 'no', via: 'move', moves: true },
  { id: 'recover-stunned', label: 'Recover from being Stunned', type: 'full', provokes: 'no', via: 'act' },
  { id: 'recovery', label: 'Take a Recovery', type: 'full', provokes: 'no', via: 'act' },
  // Free actions
  { id: 'brace', label: 'Brace for Accuracy', type: 'free', provokes: 'no', via: 'free', halveDcv: true },
  { id: 'shift-multipower', label: 'Shift a Multipower', type: 'free', provokes: 'no', via: 'free' },
  { id: 'soliloquy', label: 'Make a Soliloquy', type: 'free', provokes: 'no', via: 'free' },
  { id: 'presence-attack', label: 'Make a Presence Attack', type: 'free', provokes: 'no', via: 'free' },
  { id: 'power-toggle', label: 'Turn a Power On or Off', type: 'free', provokes: 'no', via: 'free' },
  { id: 'casual-strength', label: 'Use Casual Strength', type: 'free', provokes: 'no', via: 'free' },
  { id: 'drop-item', label: 'Drop an item', type: 'free', provokes: 'no', via: 'free' },
  { id: 'drop-prone', label: 'Drop prone', type: 'free', provokes: 'no', via: 'free' },
  // Not an action
  { id: 'delay', label: 'Delay', type: 'none', provokes: 'no', via: 'delay' },
  { id: 'step', label: '1-Hex Step', type: 'none', provokes: 'no', via: 'step', moves: true },
  // Not in the table, but in the text: "Readying is an attack action. It does not provoke."
  { id: 'ready', label: 'Ready an action', type: 'attack', provokes: 'no', via: 'ready' },
];

export const ROW: Readonly<Record<string, Row>> = Object.fromEntries(ROWS.map((r) => [r.id, r]));

const rowsVia = (via: Via): string[] => ROWS.filter((r) => r.via === via).map((r) => r.id);
export const ATTACK_IDS = rowsVia('attack');
export const DEFEND_IDS = rowsVia('defend');
export const MOVE_IDS = rowsVia('move');
export const ACT_IDS = rowsVia('act');
export const FREE_IDS = rowsVia('free');
/** manoeuvres usable for an attack of opportunity: "any manoeuvre that requires an attack roll", single-target melee */
export const AOO_IDS = ROWS.filter((r) => r.via === 'attack' && r.attackRoll && !r.multi).map((r) => r.id);

export const TYPE_LABEL: Record<ActionType, string> = {
  attack: 'attack action',
  move: 'move action',
  full: 'full-phase action',
  free: 'free action',
  none: 'not an action',
};

export const PROVOKES_LABEL: Record<Provokes, string> = {
  no: 'No',
  yes: 'Yes',
  skill: 'Yes (skill check negates)',
  varies: 'Usually (varies)',
};

const signed = (n: number): string => (n >= 0 ? `+${n}` : `${n}`);

/** Every row of the manoeuvre table, for the catalogue GET /rulesets shows. */
export const catalogue: CatalogueEntry[] = ROWS.map((r) => ({
  id: r.id,
  label: r.label,
  kind: TYPE_LABEL[r.type],
  provokes: PROVOKES_LABEL[r.provokes],
  rule: `manoeuvre table: ${r.label} — ${TYPE_LABEL[r.type]}, attack of opportunity: ${PROVOKES_LABEL[r.provokes]}`,
  notes:
    r.ocv !== undefined || r.dcv !== undefined
      ? `OCV ${signed(r.ocv ?? 0)}, DCV ${signed(r.dcv ?? 0)}${r.halveDcv ? ', DCV halved' : ''}`
      : undefined,
}));
