import { describe, expect, it } from 'vitest';
import { buildFeeder, type LineSpec } from '../../../src/builtins/grid/feeder.js';
import { createPowerFlowResult, solveLinDistFlow } from '../../../src/builtins/grid/linDistFlow.js';

const line = (from: number, to: number, rOhm: number, xOhm: number): LineSpec => ({
  from,
  to,
  rOhm,
  xOhm,
  maxMva: 10,
});

/** The exact receiving-end voltage of one line: the root of the DistFlow quartic. */
function exactTwoBusVm(kv: number, rOhm: number, xOhm: number, mw: number, mvar: number): number {
  const a = kv * kv - 2 * (rOhm * mw + xOhm * mvar);
  const b = (rOhm * rOhm + xOhm * xOhm) * (mw * mw + mvar * mvar);
  return Math.sqrt((a + Math.sqrt(a * a - 4 * b)) / 2) / kv;
}

/** An exact AC power flow by complex backward-forward sweep, in pu of 1 MVA and `kv`. */
function exactSweep(
  parent: Int32Array,
  rOhm: Float64Array,
  xOhm: Float64Array,
  loadMw: Float64Array,
  loadMvar: Float64Array,
  kv: number,
): number[] {
  const size = parent.length;
  const zBase = kv * kv;
  const vRe = new Float64Array(size).fill(1);
  const vIm = new Float64Array(size);
  for (let iteration = 0; iteration < 200; iteration++) {
    const jRe = new Float64Array(size);
    const jIm = new Float64Array(size);
    for (let bus = 0; bus < size; bus++) {
      // I = conj(S / V) = conj(S) * V / |V|^2
      const norm = vRe[bus]! ** 2 + vIm[bus]! ** 2;
      jRe[bus] = (loadMw[bus]! * vRe[bus]! + loadMvar[bus]! * vIm[bus]!) / norm;
      jIm[bus] = (loadMw[bus]! * vIm[bus]! - loadMvar[bus]! * vRe[bus]!) / norm;
    }
    for (let bus = size - 1; bus > 0; bus--) {
      jRe[parent[bus]!] = jRe[parent[bus]!]! + jRe[bus]!;
      jIm[parent[bus]!] = jIm[parent[bus]!]! + jIm[bus]!;
    }
    for (let bus = 1; bus < size; bus++) {
      const r = rOhm[bus]! / zBase;
      const x = xOhm[bus]! / zBase;
      vRe[bus] = vRe[parent[bus]!]! - (r * jRe[bus]! - x * jIm[bus]!);
      vIm[bus] = vIm[parent[bus]!]! - (r * jIm[bus]! + x * jRe[bus]!);
    }
  }
  return Array.from(vRe, (re, bus) => Math.hypot(re, vIm[bus]!));
}

describe('solveLinDistFlow', () => {
  it('matches the exact two-bus solution up to the neglected second-order term', () => {
    const feeder = buildFeeder([line(0, 1, 1, 0.6)], 0);
    const result = createPowerFlowResult(feeder);
    const errors = [4, 2].map((mw) => {
      solveLinDistFlow(feeder, Float64Array.of(0, mw), Float64Array.of(0, mw / 3), 20, 1, result);
      const linear = Math.sqrt(1 - (2 * (1 * mw + 0.6 * (mw / 3))) / 400);
      expect(result.vmPu[1]).toBeCloseTo(linear, 12);
      return Math.abs(result.vmPu[1]! - exactTwoBusVm(20, 1, 0.6, mw, mw / 3));
    });
    expect(errors[0]).toBeLessThan(1e-4);
    // The neglected term is quadratic in the load: halving the load quarters the error.
    expect(errors[0]! / errors[1]!).toBeCloseTo(4, 0);
  });

  it('is within 0.001 pu of an exact AC power flow on a branched feeder with loads and PV', () => {
    const feeder = buildFeeder(
      [line(0, 1, 0.8, 0.5), line(1, 2, 1.2, 0.7), line(2, 3, 1, 0.6), line(1, 4, 0.9, 0.9)],
      0,
    );
    const loadMw = Float64Array.of(0, 0.8, 1.1, -2.5, 0.6);
    const loadMvar = Float64Array.of(0, 0.25, 0.35, 0.4, 0.2);
    const result = createPowerFlowResult(feeder);
    solveLinDistFlow(feeder, loadMw, loadMvar, 20, 1.02, result);
    const exact = exactSweep(feeder.parent, feeder.rOhm, feeder.xOhm, loadMw, loadMvar, 20);
    // The sweep above has its slack at 1 pu; LinDistFlow's voltage drop in v is linear.
    const shifted = createPowerFlowResult(feeder);
    solveLinDistFlow(feeder, loadMw, loadMvar, 20, 1, shifted);
    for (let bus = 0; bus < exact.length; bus++) {
      expect(Math.abs(shifted.vmPu[bus]! - exact[bus]!)).toBeLessThan(1e-3);
    }
    // The PV bus (net export) rises above its parent, the load buses fall below theirs.
    expect(result.vmPu[3]!).toBeGreaterThan(result.vmPu[2]!);
    expect(result.vmPu[2]!).toBeLessThan(result.vmPu[1]!);
    expect(result.vmPu[0]).toBeCloseTo(1.02, 12);
  });

  it('sums the flows of each subtree into its upstream line', () => {
    const feeder = buildFeeder([line(0, 1, 1, 1), line(1, 2, 1, 1), line(1, 3, 1, 1)], 0);
    const result = createPowerFlowResult(feeder);
    solveLinDistFlow(
      feeder,
      Float64Array.of(0, 1, 2, 3),
      Float64Array.of(0, 0.1, 0.2, 0.3),
      20,
      1,
      result,
    );
    expect(result.flowMw[feeder.indexOfBus.get(1)!]).toBeCloseTo(6, 12);
    expect(result.flowMvar[feeder.indexOfBus.get(1)!]).toBeCloseTo(0.6, 12);
    expect(result.flowMw[feeder.indexOfBus.get(3)!]).toBeCloseTo(3, 12);
  });
});
