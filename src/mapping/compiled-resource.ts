import type { FieldRule, ListFilter, Mapping } from './mapping-schema.js';

/** A field rule with its dotted names split, and its nested rules compiled. */
export interface CompiledRule {
  rule: FieldRule;
  v1: string[];
  v2: string[];
  children: CompiledRules | undefined;
  /** a one-segment rename (or none) with no conversion: the hot path of translation */
  plain: boolean;
}

/** Rules indexed for both directions: v1 → v2 by the first v1 segment, v2 → v1 by the v2 name. */
export interface CompiledRules {
  outByV1: ReadonlyMap<string, readonly CompiledRule[]>;
  inByV2: ReadonlyMap<string, CompiledRule>;
  all: readonly CompiledRule[];
}

/** v1 capability name ↔ v2 enum name. */
export interface CapabilityTable {
  toV2: ReadonlyMap<string, string>;
  toV1: ReadonlyMap<string, string>;
}

/** The v2 fields the side store's times fill, and where v1 keeps its own creation time, if it does. */
export interface MetaFields {
  created?: string;
  updated?: string;
  /** v1 path of the record's own creation time, when v1 has one (the start of an unseen record's history) */
  since?: string[];
}

export interface CompiledResource {
  mapping: Mapping;
  file: string;
  /** e.g. `/iam/v2beta1` */
  prefix: string;
  /** e.g. `groups` */
  segment: string;
  rules: CompiledRules;
  capabilities: CapabilityTable;
  filters: ReadonlyMap<string, ListFilter>;
  /** synthesized times, if the resource has any */
  meta: MetaFields | undefined;
}
