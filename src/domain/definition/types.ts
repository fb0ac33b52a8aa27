import type { JsonObject, JsonValue } from '../shared/json.js';
import type { Space } from '../shared/spaces.js';

/**
 * The value objects of the definition layer. All of them are deeply frozen,
 * JSON-friendly plain data (no classes), so they persist and compare as JSON.
 */

/** The fixed normalisation policy: metadata, never an online rescaling. */
export interface Normalisation {
  readonly center: number;
  readonly scale: number;
}

/**
 * Declaration order of mapping keys, by the RFC 6901 pointer of the mapping
 * (`''` for the root). JavaScript objects put integer-like keys first; this
 * table keeps the order of the source document. Missing entries fall back to
 * `Object.keys` order.
 */
export type KeyOrder = Readonly<Record<string, readonly string[]>>;

/** One numeric scenario leaf exposed as a definition sensor and actuator. */
export interface Selector {
  /** RFC 6901 pointer of the leaf inside the environment's scenario. */
  readonly pointer: string;
  /** Short key for unique named leaves, else the full escaped pointer. */
  readonly alias: string;
  /** `<environmentUid>.definition.<alias>`, shared by sensor and actuator. */
  readonly uid: string;
  /** The leaf's current value. */
  readonly value: number;
  readonly space: Space;
  readonly normalisation: Normalisation;
  /** `discovered` automatically, or declared by a `selector_manifest` entry. */
  readonly source: 'discovered' | 'manifest';
}

/** A selector read as a sensor of the meta agent: its uid, pointer, space and normalisation. */
export interface SensorDescriptor {
  readonly uid: string;
  readonly pointer: string;
  readonly space: Space;
  readonly normalisation: Normalisation;
}

/**
 * A selector written as an actuator of the meta agent: its uid, pointer, space and normalisation.
 */
export interface ActuatorDescriptor {
  readonly uid: string;
  readonly pointer: string;
  readonly space: Space;
  readonly normalisation: Normalisation;
}

/** The ordered sensors and actuators of a definition; positions align. */
export interface DefinitionInterface {
  readonly environmentUid: string;
  readonly sensors: readonly SensorDescriptor[];
  readonly actuators: readonly ActuatorDescriptor[];
}

/** Scalar readings in interface order. */
export interface DefinitionVector {
  readonly uids: readonly string[];
  readonly values: readonly number[];
}

/** One replace operation at an RFC 6901 pointer of the environment's scenario. */
export interface PatchOperation {
  readonly op: 'replace';
  readonly path: string;
  readonly value: JsonValue;
}

/** A versioned, copy-safe definition change with a content hash. */
export interface DeclarativePatch {
  readonly version: 1;
  readonly environmentUid: string;
  /** Revision (sha256 of the canonical scenario) the patch applies to. */
  readonly baseRevision: string;
  readonly operations: readonly PatchOperation[];
  /** sha256 of the canonical JSON of every field above. */
  readonly hash: string;
}

/** Stable sha256 over the canonical descriptors of an interface. */
export interface DescriptorFingerprint {
  readonly algorithm: 'sha256';
  readonly value: string;
}

/** A definition that passed validation, ready to start an environment. */
export interface ValidatedCandidate {
  readonly environmentUid: string;
  /** The validated scenario (the patch applied to a copy). */
  readonly definition: JsonObject;
  readonly fingerprint: DescriptorFingerprint;
  /** sha256 of the canonical candidate scenario. */
  readonly revision: string;
  readonly provenance: {
    readonly baseRevision: string;
    readonly patchHash: string | null;
    readonly operationCount: number;
  };
}

/**
 * A `selector_manifest` entry, normalised: it replaces the discovered
 * selector at `pointer` (or declares one there) with a custom alias, space or
 * normalisation. Omitted fields keep the discovered defaults.
 */
export interface SelectorManifestEntry {
  readonly pointer: string;
  readonly alias?: string;
  readonly space?: Space;
  readonly normalisation?: Normalisation;
}

/**
 * The environment's `definition` block, validated and normalised: regular
 * expression sources matched against a leaf's key or its full pointer
 * (exclusion wins; no `include` means include everything), and the manifest.
 */
export interface DiscoveryOptions {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly selectorManifest: readonly SelectorManifestEntry[];
}

/** What an environment proposes, config-only, from its scenario definition. */
export interface ProposedDefinition {
  readonly environmentUid: string;
  /**
   * RFC 6901 pointer of the inline scenario inside the environment's `params`
   * (arena's built-ins use `/scenario`). The meta turn's override replaces
   * exactly this subtree.
   */
  readonly scenarioPointer: string;
  readonly scenario: JsonObject;
  readonly keyOrder: KeyOrder;
  readonly selectors: readonly Selector[];
  readonly interface: DefinitionInterface;
  /**
   * The narrowing and overrides discovery used, so a provider re-derives the
   * interface of a candidate exactly as the proposal did. Absent: none.
   */
  readonly discovery?: DiscoveryOptions;
}
