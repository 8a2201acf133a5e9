import type { ParamSpec } from '@fray/engine';

/** The shape of an action of the catalogue, and the parameters the categories share. */

export type OaTag = 'OA' | 'OA from movement' | 'OA from certain movement' | 'conditional' | 'OA varies' | 'no';
export type CatType = 'standard' | 'move' | 'quick' | 'free' | 'reaction' | 'none' | 'varies';

/** One action of the text as data: its type, its OA tag, the command that performs it. */
export interface ActionDef {
  id: string;
  label: string;
  type: CatType;
  oa: OaTag;
  command: string;
  /** fixed fields of the command (e.g. the attack kind) */
  template?: Record<string, unknown>;
  params?: ParamSpec[];
  rule: string;
  notes?: string;
}

export const target: ParamSpec = { name: 'targetId', kind: 'combatant' };
export const path: ParamSpec = { name: 'path', kind: 'path', label: 'squares, in order' };
export const skill: ParamSpec = { name: 'skill', kind: 'text' };
export const raises: ParamSpec = {
  name: 'raises',
  kind: 'number',
  min: 0,
  max: 2,
  optional: true,
  label: 'Raise (reaction)',
  placeholder: '0',
  doc: 'Each raise (a reaction) increases the DC by +5; on a success the degree of success is +2.',
};
export const item: ParamSpec = { name: 'itemId', kind: 'item' };
