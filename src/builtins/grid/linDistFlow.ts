import type { Feeder } from './feeder.js';

/** Preallocated results of one power flow, indexed by tree index (see `Feeder`). */
export interface PowerFlowResult {
  /** Voltage magnitude per bus, in pu. */
  readonly vmPu: Float64Array;
  /** Active power into bus `k` through its upstream line, MW (index 0 unused). */
  readonly flowMw: Float64Array;
  /** Reactive power into bus `k` through its upstream line, MVAr (index 0 unused). */
  readonly flowMvar: Float64Array;
}

/**
 * Allocate the result arrays for `feeder` once; `solveLinDistFlow` reuses them.
 *
 * @example
 * ```ts
 * const result = createPowerFlowResult(feeder); // result.vmPu.length === feeder.busIds.length
 * ```
 */
export function createPowerFlowResult(feeder: Feeder): PowerFlowResult {
  const size = feeder.busIds.length;
  return {
    vmPu: new Float64Array(size),
    flowMw: new Float64Array(size),
    flowMvar: new Float64Array(size),
  };
}

/**
 * LinDistFlow (Baran and Wu's DistFlow without the loss terms) on a radial
 * feeder, in O(buses) with no allocation.
 *
 * With `p_k`, `q_k` the net load at bus `k` (MW, MVAr; generation negative),
 * `P_k`, `Q_k` the flow into `k` through its upstream line from parent `i`,
 * line impedance `r_k + j x_k` (ohm) and `v = |V|^2`:
 *
 * ```text
 * P_k = p_k + sum of P_c over the children c of k          (backward sweep)
 * Q_k = q_k + sum of Q_c over the children c of k
 * v_k = v_i - 2 (r_k P_k + x_k Q_k) / V_nom^2              (forward sweep)
 * ```
 *
 * `MW * ohm = kV^2`, so dividing by `V_nom^2` in kV^2 gives pu. The exact
 * DistFlow adds `(r^2 + x^2)(P^2 + Q^2) / v_i` to the voltage equation and
 * the losses to the flows; both are second order in the load.
 *
 * @example
 * ```ts
 * // Two buses at 20 kV, 1 + 0.6j ohm, 2 MW + 1 MVAr load:
 * solveLinDistFlow(feeder, Float64Array.of(0, 2), Float64Array.of(0, 1), 20, 1, result);
 * result.vmPu[1]; // sqrt(1 - 2 * (1 * 2 + 0.6 * 1) / 400) = 0.99348...
 * ```
 */
export function solveLinDistFlow(
  feeder: Feeder,
  netLoadMw: Float64Array,
  netLoadMvar: Float64Array,
  nominalKv: number,
  slackVmPu: number,
  result: PowerFlowResult,
): void {
  const { parent, rOhm, xOhm } = feeder;
  const { vmPu, flowMw, flowMvar } = result;
  const size = parent.length;
  for (let bus = 0; bus < size; bus++) {
    flowMw[bus] = netLoadMw[bus]!;
    flowMvar[bus] = netLoadMvar[bus]!;
  }
  for (let bus = size - 1; bus > 0; bus--) {
    const up = parent[bus]!;
    flowMw[up] = flowMw[up]! + flowMw[bus]!;
    flowMvar[up] = flowMvar[up]! + flowMvar[bus]!;
  }
  const baseKv2 = nominalKv * nominalKv;
  // vmPu holds v = |V|^2 during the forward sweep, then its square root.
  vmPu[0] = slackVmPu * slackVmPu;
  for (let bus = 1; bus < size; bus++) {
    const drop = (2 * (rOhm[bus]! * flowMw[bus]! + xOhm[bus]! * flowMvar[bus]!)) / baseKv2;
    vmPu[bus] = vmPu[parent[bus]!]! - drop;
  }
  for (let bus = 0; bus < size; bus++) vmPu[bus] = Math.sqrt(Math.max(vmPu[bus]!, 0));
}
