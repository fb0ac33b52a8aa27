import { CanonicalJsonError } from '../shared/canonicalJson.js';
import { deepFreeze, isPlainObject, type JsonObject, type JsonValue } from '../shared/json.js';
import { contains, type Space } from '../shared/spaces.js';
import { interfaceFingerprint, interfaceFromSelectors } from './definitionInterface.js';
import { discoverLeaves, selectorUid } from './discovery.js';
import { defaultDiscoveryOptions } from './discoveryOptions.js';
import {
  DefinitionFingerprintError,
  DefinitionPatchError,
  DefinitionValidationError,
} from './errors.js';
import { describeDescriptorChange } from './interfaceChange.js';
import {
  applyPatchOperations,
  asDeclarativePatch,
  createDeclarativePatch,
  patchHash,
} from './patch.js';
import { isArrayIndexToken, parsePointer } from './pointer.js';
import { scenarioRevision } from './revision.js';
import { boundsFromValue, describeSpace, normalisationFromValue } from './selectors.js';
import type {
  DeclarativePatch,
  DefinitionInterface,
  DefinitionVector,
  DescriptorFingerprint,
  Normalisation,
  PatchOperation,
  ProposedDefinition,
  SensorDescriptor,
  ValidatedCandidate,
} from './types.js';

/** Scenarios keyed by environment UID, as the meta turn passes them. */
export type DefinitionMap = Readonly<Record<string, JsonObject>>;

/** Actuator values keyed by definition actuator UID. */
export type DefinitionActions = Readonly<Record<string, number>>;

interface Anchor {
  readonly uid: string;
  readonly space: Space;
  readonly normalisation: Normalisation;
}

/**
 * The environment-agnostic definition contract, built from a
 * `ProposedDefinition` and importing no environment.
 *
 * Decisions where the seed is silent:
 * - Spaces are anchored to the proposal: `describe` gives a selector the
 *   space and normalisation it had in the proposal, so changing a value never
 *   moves the action space the meta agent learns over (only a structural
 *   change alters the interface fingerprint).
 * - `proposePatch` with an empty action map gives an empty patch; a partial
 *   map patches only the given UIDs; a value equal to the current one is
 *   skipped (no operation). Operations follow interface order, so the same
 *   actions always give the same hash. A Discrete actuator's value must be one
 *   of its values (the value, not its index).
 * - `validate` accepts any RFC 6902 `replace` at an existing path, then
 *   rejects the candidate if its re-derived interface differs from the
 *   proposal's (`DefinitionFingerprintError`) or a selector value leaves its
 *   space (`DefinitionValidationError`). Other environments in the map are
 *   ignored.
 *
 * @example
 * ```ts
 * const provider = new DefinitionProvider(proposeDefinition('midas', scenario));
 * const vector = provider.vectorize({ midas: scenario }); // { uids: [...], values: [0.427, ...] }
 * const patch = provider.proposePatch({ midas: scenario }, { [vector.uids[0]]: 0.5 });
 * const candidate = provider.validate({ midas: scenario }, patch);
 * candidate.definition; // the scenario with only that value replaced
 * ```
 */
export class DefinitionProvider {
  readonly proposal: ProposedDefinition;
  readonly fingerprint: DescriptorFingerprint;
  private readonly indexByUid = new Map<string, number>();
  private readonly tokensByIndex: readonly string[][];
  private readonly anchorByPointer = new Map<string, Anchor>();
  private readonly revisions = new WeakMap<object, string>();

  constructor(proposal: ProposedDefinition) {
    const { sensors, actuators } = proposal.interface;
    if (proposal.interface.environmentUid !== proposal.environmentUid) {
      throw new DefinitionValidationError(
        `the proposal of "${proposal.environmentUid}" carries the interface of "${proposal.interface.environmentUid}"`,
      );
    }
    const shared =
      sensors.length === actuators.length &&
      sensors.every((sensor, index) => sensor === actuators[index]);
    const change = shared ? undefined : describeDescriptorChange(sensors, actuators);
    if (change !== undefined) {
      throw new DefinitionValidationError(
        `the proposal of "${proposal.environmentUid}" has sensors and actuators that do not align: ${change}`,
      );
    }
    this.proposal = proposal;
    this.fingerprint = interfaceFingerprint(proposal.interface);
    actuators.forEach((actuator, index) => {
      if (this.indexByUid.has(actuator.uid)) {
        throw new DefinitionValidationError(
          `the proposal of "${proposal.environmentUid}" declares the selector "${actuator.uid}" twice`,
        );
      }
      this.indexByUid.set(actuator.uid, index);
      this.anchorByPointer.set(actuator.pointer, actuator);
    });
    this.tokensByIndex = actuators.map((actuator) => parsePointer(actuator.pointer));
  }

  /** The environment this provider describes. */
  get environmentUid(): string {
    return this.proposal.environmentUid;
  }

  /**
   * The ordered interface derived from `definition`'s scenario, with the
   * proposal's spaces (see the class notes).
   *
   * @example
   * ```ts
   * provider.describe({ midas: scenario }).sensors.map((sensor) => sensor.uid);
   * // ['midas.definition./comdata_params/midasmv/active_mapping/3/0/1', ...]
   * ```
   */
  describe(definition: DefinitionMap): DefinitionInterface {
    return this.describeScenario(this.scenarioOf(definition)).definitionInterface;
  }

  /**
   * The values of `selectors` (UIDs; all of them in interface order when
   * omitted) read from `definition`'s scenario.
   *
   * @example
   * ```ts
   * provider.vectorize({ midas: scenario }); // { uids: [a, b, c], values: [0.427, 0.913, 2.2] }
   * provider.vectorize({ midas: scenario }, [c]); // { uids: [c], values: [2.2] }
   * ```
   */
  vectorize(definition: DefinitionMap, selectors?: readonly string[]): DefinitionVector {
    const scenario = this.scenarioOf(definition);
    const { actuators } = this.proposal.interface;
    const uids = selectors ?? actuators.map((actuator) => actuator.uid);
    const seen = new Set<string>();
    const values = uids.map((uid) => {
      if (seen.has(uid)) {
        throw new DefinitionValidationError(`selector "${uid}" is requested twice`);
      }
      seen.add(uid);
      return this.readValue(scenario, this.indexOf(uid, DefinitionValidationError));
    });
    return deepFreeze({ uids: [...uids], values });
  }

  /**
   * Translate actuator values into a `DeclarativePatch` against `definition`.
   * Unknown UIDs, missing or non-finite values, values outside a Box and
   * values not in a Discrete set are rejected with `DefinitionPatchError`
   * naming the UID.
   *
   * @example
   * ```ts
   * provider.proposePatch({ midas: scenario }, { 'midas.definition./der_params/midasmv/mapping/6/0/1': 2.4 });
   * // { version: 1, environmentUid: 'midas', baseRevision: '…',
   * //   operations: [{ op: 'replace', path: '/der_params/midasmv/mapping/6/0/1', value: 2.4 }], hash: '…' }
   * ```
   */
  proposePatch(definition: DefinitionMap, actions: DefinitionActions): DeclarativePatch {
    const scenario = this.scenarioOf(definition);
    if (!isPlainObject(actions)) {
      throw new DefinitionPatchError('actions must be a mapping of actuator UID to number');
    }
    const { actuators } = this.proposal.interface;
    const requested: (number | undefined)[] = new Array(actuators.length);
    for (const uid of Object.keys(actions)) {
      const value = actions[uid];
      const index = this.indexOf(uid, DefinitionPatchError);
      const space = (actuators[index] as SensorDescriptor).space;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new DefinitionPatchError(
          `actuator "${uid}" needs a finite number, got ${value === undefined ? 'no value' : String(value)}`,
        );
      }
      if (!contains(space, value)) {
        throw new DefinitionPatchError(
          `actuator "${uid}": ${value} is not in ${describeSpace(space)}`,
        );
      }
      requested[index] = value;
    }
    const operations: PatchOperation[] = [];
    for (let index = 0; index < actuators.length; index++) {
      const value = requested[index];
      if (value === undefined) continue;
      if (value === this.readValue(scenario, index)) continue;
      const path = (actuators[index] as SensorDescriptor).pointer;
      operations.push(Object.freeze({ op: 'replace', path, value }));
    }
    return createDeclarativePatch({
      environmentUid: this.environmentUid,
      baseRevision: this.revisionOf(scenario),
      operations,
    });
  }

  /**
   * Validate `definition` (with `patch` applied to a copy, when given) into a
   * `ValidatedCandidate`. Checks the patch's environment, hash and base
   * revision (`DefinitionPatchError`), that the candidate's interface equals
   * the proposal's (`DefinitionFingerprintError`) and that every selector
   * value lies in its space (`DefinitionValidationError`).
   *
   * @example
   * ```ts
   * const baseline = provider.validate({ midas: scenario });
   * baseline.provenance; // { baseRevision: baseline.revision, patchHash: null, operationCount: 0 }
   * ```
   */
  validate(definition: DefinitionMap, patch?: DeclarativePatch): ValidatedCandidate {
    const scenario = this.scenarioOf(definition);
    const baseRevision = this.revisionOf(scenario);
    let candidate = scenario;
    let checkedPatch: DeclarativePatch | undefined;
    if (patch !== undefined) {
      checkedPatch = this.checkPatch(patch, baseRevision);
      candidate = applyPatchOperations(scenario, checkedPatch.operations);
    }
    const { definitionInterface, values, anchored } = this.describeScenario(candidate);
    const fingerprint = anchored ? this.fingerprint : interfaceFingerprint(definitionInterface);
    if (fingerprint.value !== this.fingerprint.value) {
      const change =
        describeDescriptorChange(this.proposal.interface.sensors, definitionInterface.sensors) ??
        'descriptors differ';
      throw new DefinitionFingerprintError(
        `the ${checkedPatch ? 'patched ' : ''}definition of "${this.environmentUid}" changes its definition interface (${change})`,
      );
    }
    definitionInterface.sensors.forEach((sensor, index) => {
      const value = values[index] as number;
      if (!contains(sensor.space, value)) {
        throw new DefinitionValidationError(
          `selector "${sensor.uid}" at "${sensor.pointer}": ${value} is not in ${describeSpace(sensor.space)}`,
        );
      }
    });
    const operationCount = checkedPatch?.operations.length ?? 0;
    return deepFreeze({
      environmentUid: this.environmentUid,
      definition: candidate,
      fingerprint,
      revision: operationCount === 0 ? baseRevision : this.revisionOf(candidate),
      provenance: { baseRevision, patchHash: checkedPatch?.hash ?? null, operationCount },
    });
  }

  /**
   * A stable sha256 over the canonical descriptors of `definitionInterface`.
   *
   * @example
   * ```ts
   * provider.interfaceFingerprint(provider.proposal.interface).value === provider.fingerprint.value; // true
   * ```
   */
  interfaceFingerprint(definitionInterface: DefinitionInterface): DescriptorFingerprint {
    return interfaceFingerprint(definitionInterface);
  }

  private checkPatch(raw: DeclarativePatch, baseRevision: string): DeclarativePatch {
    const patch = asDeclarativePatch(raw);
    if (patch.environmentUid !== this.environmentUid) {
      throw new DefinitionPatchError(
        `patch.environmentUid: the patch is for "${patch.environmentUid}", this provider is for "${this.environmentUid}"`,
      );
    }
    let expectedHash: string;
    try {
      expectedHash = patchHash(patch);
    } catch (error) {
      if (!(error instanceof CanonicalJsonError)) throw error;
      throw new DefinitionPatchError(`patch.operations: ${error.message}`, { cause: error });
    }
    if (patch.hash !== expectedHash) {
      throw new DefinitionPatchError(
        `patch.hash: ${patch.hash} does not match the patch content (${expectedHash}); the patch was changed after it was made`,
      );
    }
    if (patch.baseRevision !== baseRevision) {
      throw new DefinitionPatchError(
        `patch.baseRevision: the patch applies to revision ${patch.baseRevision}, but the definition of "${this.environmentUid}" is at ${baseRevision} (stale patch)`,
      );
    }
    return patch;
  }

  private describeScenario(scenario: JsonObject): {
    definitionInterface: DefinitionInterface;
    values: number[];
    anchored: boolean;
  } {
    const { discovery = defaultDiscoveryOptions, keyOrder, interface: proposed } = this.proposal;
    const leaves = discoverLeaves(this.environmentUid, scenario, discovery, keyOrder, {
      requireManifestLeaves: false,
    });
    const { pointers, aliases, values, manifestIndexes } = leaves;
    const uidPrefix = selectorUid(this.environmentUid, '');
    const sameStructure =
      pointers.length === proposed.sensors.length &&
      pointers.every((pointer, index) => {
        const sensor = proposed.sensors[index] as SensorDescriptor;
        const alias = aliases[index] as string;
        return (
          sensor.pointer === pointer &&
          sensor.uid.length === uidPrefix.length + alias.length &&
          sensor.uid.endsWith(alias) &&
          sensor.uid.startsWith(uidPrefix)
        );
      });
    // Same selectors at the same places: the proposal's interface, spaces and all.
    if (sameStructure)
      return { definitionInterface: proposed, values: [...values], anchored: true };
    const selectors = pointers.map((pointer, index) => {
      const uid = selectorUid(this.environmentUid, aliases[index] as string);
      const anchor = this.anchorByPointer.get(pointer);
      if (anchor !== undefined && anchor.uid === uid) {
        return { uid, pointer, space: anchor.space, normalisation: anchor.normalisation };
      }
      const value = values[index] as number;
      const entry = discovery.selectorManifest[manifestIndexes[index] as number];
      return {
        uid,
        pointer,
        space: entry?.space ?? boundsFromValue(value),
        normalisation: entry?.normalisation ?? normalisationFromValue(value),
      };
    });
    return {
      definitionInterface: interfaceFromSelectors(this.environmentUid, selectors),
      values: [...values],
      anchored: false,
    };
  }

  private scenarioOf(definition: DefinitionMap): JsonObject {
    if (!isPlainObject(definition)) {
      throw new DefinitionValidationError(
        `a definition must map environment UIDs to scenarios, e.g. { "${this.environmentUid}": { ... } }`,
      );
    }
    const scenario = Object.hasOwn(definition, this.environmentUid)
      ? definition[this.environmentUid]
      : undefined;
    if (scenario === undefined) {
      const present = Object.keys(definition);
      throw new DefinitionValidationError(
        `the definition has no scenario for "${this.environmentUid}" (it has ${present.length === 0 ? 'none' : present.map((uid) => `"${uid}"`).join(', ')})`,
      );
    }
    if (!isPlainObject(scenario)) {
      throw new DefinitionValidationError(
        `the scenario of "${this.environmentUid}" must be a mapping, got ${Array.isArray(scenario) ? 'a list' : typeof scenario}`,
      );
    }
    return Object.isFrozen(scenario) ? scenario : deepFreeze(structuredClone(scenario));
  }

  private revisionOf(scenario: JsonObject): string {
    let revision = this.revisions.get(scenario);
    if (revision === undefined) {
      revision = scenarioRevision(scenario);
      this.revisions.set(scenario, revision);
    }
    return revision;
  }

  private indexOf(uid: string, ErrorClass: new (message: string) => Error): number {
    const index = this.indexByUid.get(uid);
    if (index === undefined) {
      throw new ErrorClass(
        `${ErrorClass === DefinitionPatchError ? 'actuator' : 'selector'} "${uid}" is not in the definition interface of "${this.environmentUid}"`,
      );
    }
    return index;
  }

  private readValue(scenario: JsonObject, index: number): number {
    let current: JsonValue | undefined = scenario;
    for (const token of this.tokensByIndex[index] as string[]) {
      if (Array.isArray(current)) {
        current = isArrayIndexToken(token) ? current[Number(token)] : undefined;
      } else if (isPlainObject(current) && Object.hasOwn(current, token)) {
        current = current[token];
      } else {
        current = undefined;
      }
      if (current === undefined) break;
    }
    if (typeof current !== 'number' || !Number.isFinite(current)) {
      const actuator = this.proposal.interface.actuators[index] as SensorDescriptor;
      throw new DefinitionValidationError(
        `selector "${actuator.uid}": expected a finite number at "${actuator.pointer}", got ${current === undefined ? 'nothing' : JSON.stringify(current)}`,
      );
    }
    return current;
  }
}

/**
 * `new DefinitionProvider(proposal)`, for callers that prefer a factory.
 *
 * @example
 * ```ts
 * createDefinitionProvider(proposeDefinition('midas', { load: 2 })).vectorize({ midas: { load: 2 } });
 * // { uids: ['midas.definition.load'], values: [2] }
 * ```
 */
export function createDefinitionProvider(proposal: ProposedDefinition): DefinitionProvider {
  return new DefinitionProvider(proposal);
}
