import { deepFreeze, isPlainObject, type JsonObject } from '../shared/json.js';
import { interfaceFromSelectors } from './definitionInterface.js';
import { parseDiscoveryOptions } from './discoveryOptions.js';
import { SelectorDiscoveryError } from './errors.js';
import { parsePointer } from './pointer.js';
import { type DeriveSelectorsOptions, selectorsFromOptions } from './selectors.js';
import type { ProposedDefinition } from './types.js';

/** Options of `proposeDefinition`. */
export interface ProposeDefinitionOptions extends DeriveSelectorsOptions {
  /** Where the scenario lives inside the environment's `params`; default `/scenario`. */
  readonly scenarioPointer?: string;
}

/**
 * What an environment's `proposeDefinition()` returns, config-only: its
 * scenario (a frozen copy), the selectors, the ordered interface and the
 * validated discovery options. An empty scenario, or a `definition` block
 * that narrows everything away, gives a proposal with an empty interface.
 *
 * @example
 * ```ts
 * const params = { scenario: { load: 2 }, definition: { include: ['^load$'] } };
 * const proposal = proposeDefinition('midas', params.scenario, { definition: params.definition });
 * proposal.interface.sensors.map((sensor) => sensor.uid); // ['midas.definition.load']
 * proposal.scenarioPointer; // '/scenario'
 * ```
 */
export function proposeDefinition(
  environmentUid: string,
  scenario: JsonObject,
  options: ProposeDefinitionOptions = {},
): ProposedDefinition {
  const scenarioPointer = options.scenarioPointer ?? '/scenario';
  if (parsePointer(scenarioPointer).length === 0) {
    throw new SelectorDiscoveryError(
      'scenarioPointer must point inside the environment params, not at their root',
    );
  }
  if (!isPlainObject(scenario)) {
    throw new SelectorDiscoveryError(
      `the scenario at "${scenarioPointer}" of "${environmentUid}" must be a mapping`,
    );
  }
  const discovery = parseDiscoveryOptions(options.definition);
  const keyOrder = options.keyOrder ?? {};
  const frozenScenario = Object.isFrozen(scenario)
    ? scenario
    : deepFreeze(structuredClone(scenario));
  const selectors = selectorsFromOptions(environmentUid, frozenScenario, discovery, keyOrder);
  return deepFreeze({
    environmentUid,
    scenarioPointer,
    scenario: frozenScenario,
    keyOrder: structuredClone(keyOrder),
    selectors,
    interface: interfaceFromSelectors(environmentUid, selectors),
    discovery,
  });
}
