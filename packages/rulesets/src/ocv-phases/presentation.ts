import { keepIf, keepKeys, withParts, type EncounterState, type RulesetDisplay, type Viewer } from '@fray/engine';
import type { RS } from './state/index.js';

/** How `ocv-phases` is shown: see docs/rulesets/ocv-phases.md ("How it is shown"). */
export const display: RulesetDisplay = {
  vitals: [
    {
      key: 'stun',
      label: 'STUN',
      short: 'STUN',
      current: { in: 'data', key: 'stun' },
      max: { in: 'stats', key: 'stun' },
      direction: 'down',
      thresholds: [{ at: 0, label: 'unconscious' }],
      adjustable: true,
      doc: 'Current STUN, out of the maximum (stat `stun`); a Recovery regains REC. At 0 or less a character is knocked out.',
    },
    {
      key: 'endurance',
      label: 'END',
      short: 'END',
      current: { in: 'data', key: 'endurance' },
      max: { in: 'stats', key: 'endurance' },
      direction: 'down',
      thresholds: [{ at: 0, label: 'out of END' }],
      adjustable: true,
      doc: 'Current END, out of the maximum (stat `endurance`); a Recovery regains REC.',
    },
  ],
  statGroups: [
    { label: 'Combat', stats: ['combatValue', 'ocv', 'dcv', 'combatLevels', 'lightningReflexes', 'combatReflexes', 'reach'] },
    { label: 'Movement', stats: ['move', 'noncombatMove'] },
    { label: 'Characteristics', stats: ['stun', 'endurance', 'recovery', 'recovers'] },
    { label: 'Skills', stats: ['skills'] },
  ],
  statLabels: {
    combatValue: 'Combat Value',
    lightningReflexes: 'Lightning Reflexes',
    ocv: 'OCV',
    dcv: 'DCV',
    combatLevels: 'Combat levels',
    move: 'Move (hexes)',
    noncombatMove: 'Non-combat move',
    reach: 'Reach',
    combatReflexes: 'Combat Reflexes',
    recovery: 'REC',
    stun: 'STUN (max)',
    endurance: 'END (max)',
    recovers: 'Takes Recoveries',
    skills: 'Skills',
  },
  internal: ['opportunities', 'manoeuvres', 'abortLock', 'fullStarted', 'skipNext', 'stepped', 'aoos', 'hold'],
  dataLabels: {
    slots: 'Actions this Phase',
    attacks: 'Attacks this Phase',
    full: 'Full Phase action',
    moved: 'Has moved',
    free: 'Free actions',
    restricted: 'Restricted',
    braced: 'Braced',
    dodging: 'Dodging',
  },
  effects: {
    units: { phase: 'phases', turn: 'turns (4 phases)' },
    conditions: ['prone', 'stunned', 'unconscious'],
  },
  // damage, knockback and STUN loss from hits are not covered (docs/rulesets/ocv-phases.md): the GM applies them
  harmPrompts: [
    { event: 'ocv-phases.attack-resolved', when: { hit: true }, vital: 'stun' },
    { event: 'ocv-phases.attack-reresolved', when: { hit: true }, vital: 'stun' },
  ],
  events: {
    'ocv-phases.attack-resolved': [
      { when: { hit: true }, text: '{combatantId} hits {targetId}: rolled {total}, needed {need} or more (OCV {ocv} against DCV {dcv}).' },
      { text: '{combatantId} misses {targetId}: rolled {total}, needed {need} or more (OCV {ocv} against DCV {dcv}).' },
    ],
    'ocv-phases.attack-reresolved': [
      { when: { hit: true }, text: 'After the GM’s ruling, {combatantId} hits {targetId} ({total}, needed {need}).' },
      { text: 'After the GM’s ruling, {combatantId} misses {targetId} ({total}, needed {need}).' },
    ],
    'ocv-phases.aborted': '{combatantId} aborts to {action}.',
    'ocv-phases.acted': [
      { when: { note: true }, text: '{combatantId}: {row} — {note}.' },
      { when: { targets: true }, text: '{combatantId}: {row} on {targets}.' },
      { text: '{combatantId}: {row}.' },
    ],
    'ocv-phases.action-ended': [
      { when: { holding: true }, text: '{combatantId} holds their action ({holding}).' },
      { text: "{combatantId}'s action ends." },
    ],
    'ocv-phases.awareness': [
      { when: { aware: true }, text: '{combatantId} is aware of the fight.' },
      { text: '{combatantId} is unaware of the fight.' },
    ],
    'ocv-phases.declared': [
      { when: { targets: true }, text: '{combatantId} declares {row} against {targets}.' },
      { text: '{combatantId} declares {row}.' },
    ],
    'ocv-phases.full-started': '{combatantId} starts a Full Phase action.',
    'ocv-phases.held': '{combatantId} holds their action ({hold.kind}).',
    'ocv-phases.hold-expired': "{combatantId}'s held action lapses ({reason}).",
    'ocv-phases.hold-taken': '{combatantId} takes their held action.',
    'ocv-phases.initiative': 'Initiative: {order}.',
    'ocv-phases.interrupted': "{combatantId}'s {row} is interrupted: {reason}.",
    'ocv-phases.joined': '{combatantId} joins the fight (Initiative {score}).',
    'ocv-phases.left': '{combatantId} leaves the fight.',
    'ocv-phases.map-set': 'The GM sets the map.',
    'ocv-phases.moved': '{combatantId} moves.',
    'ocv-phases.phase-started': 'Turn {turn}, {phase} begins.',
    // the totals stay with the bars' secrecy (numbers for the GM and the controller)
    'ocv-phases.pools': [
      { when: { $numbers: true, stun: true, endurance: true }, text: '{combatantId} now has {stun} STUN and {endurance} END.' },
      { when: { $numbers: true, stun: true }, text: '{combatantId} now has {stun} STUN.' },
      { when: { $numbers: true }, text: '{combatantId} now has {endurance} END.' },
      { when: { stun: true, endurance: true }, text: 'The STUN and END of {combatantId} change.' },
      { when: { stun: true }, text: 'The STUN of {combatantId} changes.' },
      { text: 'The END of {combatantId} changes.' },
    ],
    'ocv-phases.provoked': '{combatantId} provokes an attack of opportunity from {from} ({reason}).',
    'ocv-phases.recovered': '{combatantId} takes a Recovery: {stun} STUN, {endurance} END.',
    'ocv-phases.restricted': [
      { when: { restricted: true }, text: '{combatantId} is restricted.' },
      { text: '{combatantId} is no longer restricted.' },
    ],
    'ocv-phases.skill-check': [
      { when: { success: true }, text: '{combatantId} makes a {skill} roll: {total} against {target}.' },
      { text: '{combatantId} fails a {skill} roll: {total} against {target}.' },
    ],
    'ocv-phases.slot': [
      { when: { outcome: 'acts' }, text: "{combatantId}'s Initiative slot: acts." },
      { when: { outcome: 'incapable' }, text: '{combatantId} cannot act.' },
      { text: "{combatantId}'s Initiative slot passes ({outcome})." },
    ],
    'ocv-phases.slot-yielded': '{combatantId} yields the slot.',
    'ocv-phases.stalled': 'The clock stops: {reason}.',
    'ocv-phases.pause': 'The clock pauses.',
    'ocv-phases.offered': '{combatantId} may act now.',
  },
  phases: {
    surprise: 'Surprise phase',
    'phase-1': 'Phase 1',
    'phase-2': 'Phase 2',
    'phase-3': 'Phase 3',
    'phase-4': 'Phase 4',
    'post-turn': 'Post-turn recovery',
  },
  forms: {
    fields: {
      // a hex by its axial column and row, as the map numbers them
      'position.q': { label: 'Hex column (q)' },
      'position.r': { label: 'Hex row (r)' },
      'stats.skills': { keys: { label: 'Skill', value: 'Roll (3d6 or less)' } },
      'options.conditionModifiers': { keys: { label: 'Condition' } },
      'options.surpriseDcvPenalty': { label: 'Surprise DCV penalty' },
      'options.braceOcv': { label: 'Brace OCV bonus' },
      'options.tieBreakDie': { label: 'Tie-break die' },
      'options.manoeuvreModifiers': { keys: { label: 'Manoeuvre', refers: 'action' } },
      ...Object.fromEntries(
        ['conditionModifiers', 'manoeuvreModifiers'].flatMap((o) => [
          [`options.${o}.ocv`, { label: 'OCV' }],
          [`options.${o}.dcv`, { label: 'DCV' }],
          [`options.${o}.halveDcv`, { label: 'DCV halved' }],
          [`options.${o}.zeroDcv`, { label: 'DCV 0' }],
        ]),
      ),
    },
  },
  quiet: ['ocv-phases.current', 'ocv-phases.job-popped', 'ocv-phases.job-pushed', 'ocv-phases.intent', 'ocv-phases.intents-taken'],
  samples: [
    {
      name: 'Thug',
      side: 'thugs',
      stats: { combatValue: 3, stun: 20, endurance: 20, recovery: 4 },
      doc: 'Street muscle: low Combat Value, a few hits of STUN.',
    },
    {
      name: 'Agent',
      side: 'agents',
      stats: { combatValue: 5, stun: 25, endurance: 30, recovery: 6, lightningReflexes: 2 },
      doc: 'A trained operative.',
    },
    {
      name: 'Brick',
      side: 'villains',
      stats: { combatValue: 6, stun: 50, endurance: 40, recovery: 12, reach: 2 },
      doc: 'A super-strong villain with long arms.',
    },
  ],
};

/** What players and spectators see of `rs`: nothing about combatants hidden from them. */
export function projectState(rs: RS, viewer: Viewer, state: EncounterState<RS>): RS {
  if (viewer.role === 'gm') return rs;
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const hidden = new Set(
    Object.values(state.combatants)
      .filter((c) => c.hidden && (playerId === null || c.controller !== playerId))
      .map((c) => c.id),
  );
  if (hidden.size === 0) return rs;
  const keep = (id: string | null) => id === null || !hidden.has(id);
  return withParts(rs, {
    order: keepIf(rs.order, keep),
    scores: keepKeys(rs.scores, keep),
    unaware: keepIf(rs.unaware, keep),
    passed: keepIf(rs.passed, keep),
    spent: keepIf(rs.spent, keep),
    offered: keepIf(rs.offered, keep),
    jobs: keepIf(rs.jobs, (j) => keep(j.actor) && j.targetIds.every(keep)),
    intents: keepIf(rs.intents, (i) => keep(i.combatantId)),
    pauseFor: keep(rs.pauseFor) ? rs.pauseFor : null,
    attacks: keepIf(rs.attacks, (a) => keep(a.attackerId) && keep(a.targetId)),
  });
}
