import type { Rng } from '../../domain/shared/random.js';
import { createPowerFlowResult, type PowerFlowResult, solveLinDistFlow } from './linDistFlow.js';
import { profileAt, pvProfile } from './profiles.js';
import type { GridModel } from './scenario.js';

/** The physical outcome of one interval, in the units of the grid rewards. */
export interface IntervalOutcome {
  /** Sum over buses of the distance outside the voltage band, pu. */
  voltageViolationPu: number;
  /** Sum over lines of the loading above 100 %, as a fraction of the rating. */
  lineOverload: number;
  /** PV energy curtailed during the interval, MWh. */
  curtailedMwh: number;
  /** PV energy fed in during the interval, MWh. */
  pvFedMwh: number;
}

/**
 * The mutable state of one grid: time, this interval's seeded profile noise,
 * the PV set points, and the power flow. Every array is allocated once, so
 * stepping allocates nothing.
 */
export class GridWorld {
  readonly model: GridModel;
  readonly powerFlow: PowerFlowResult;
  /** Seconds since the start of the episode. */
  time = 0;
  /** Available PV power per unit at `time`, MW. */
  readonly availableMw: Float64Array;
  /** Curtailed fraction (0..1) per PV unit. */
  readonly curtailment: Float64Array;
  /** Reactive power injected per PV unit, MVAr (negative absorbs). */
  readonly reactiveMvar: Float64Array;
  /** Active power per load in this interval (profile and noise applied), MW. */
  private readonly loadMw: Float64Array;
  private readonly netLoadMw: Float64Array;
  private readonly netLoadMvar: Float64Array;
  private readonly loadTanPhi: number;

  constructor(model: GridModel) {
    this.model = model;
    const buses = model.feeder.busIds.length;
    this.powerFlow = createPowerFlowResult(model.feeder);
    this.availableMw = new Float64Array(model.pvUnits.length);
    this.curtailment = new Float64Array(model.pvUnits.length);
    this.reactiveMvar = new Float64Array(model.pvUnits.length);
    this.loadMw = new Float64Array(model.loads.length);
    this.netLoadMw = new Float64Array(buses);
    this.netLoadMvar = new Float64Array(buses);
    const powerFactor = model.loadPowerFactor;
    this.loadTanPhi = Math.sqrt(1 - powerFactor * powerFactor) / powerFactor;
  }

  /** Back to time 0 with no curtailment and no reactive power; draws this interval's noise. */
  begin(rng: Rng): void {
    this.time = 0;
    this.curtailment.fill(0);
    this.reactiveMvar.fill(0);
    this.drawConditions(rng);
    this.solve();
  }

  /** Whether the episode has reached `end`. */
  get finished(): boolean {
    return this.time >= this.model.end;
  }

  /** Solve the power flow for `time` with the current set points. */
  solve(): void {
    const { model, netLoadMw, netLoadMvar } = this;
    netLoadMw.fill(0);
    netLoadMvar.fill(0);
    for (let index = 0; index < model.loads.length; index++) {
      const load = model.loads[index]!;
      const mw = this.loadMw[index]!;
      netLoadMw[load.bus] = netLoadMw[load.bus]! + mw;
      netLoadMvar[load.bus] = netLoadMvar[load.bus]! + mw * this.loadTanPhi;
    }
    for (let index = 0; index < model.pvUnits.length; index++) {
      const bus = model.pvUnits[index]!.bus;
      const fedMw = this.availableMw[index]! * (1 - this.curtailment[index]!);
      netLoadMw[bus] = netLoadMw[bus]! - fedMw;
      netLoadMvar[bus] = netLoadMvar[bus]! - this.reactiveMvar[index]!;
    }
    solveLinDistFlow(
      model.feeder,
      netLoadMw,
      netLoadMvar,
      model.nominalKv,
      model.slackVmPu,
      this.powerFlow,
    );
  }

  /** Loading of the upstream line of tree bus `bus`, as a fraction of its rating. */
  lineLoading(bus: number): number {
    const { flowMw, flowMvar } = this.powerFlow;
    const mw = flowMw[bus]!;
    const mvar = flowMvar[bus]!;
    return Math.sqrt(mw * mw + mvar * mvar) / this.model.feeder.maxMva[bus]!;
  }

  /** The outcome of the current interval under the current set points (call after `solve`). */
  outcome(): IntervalOutcome {
    const { model, powerFlow } = this;
    const [low, high] = model.voltageBand;
    let voltageViolationPu = 0;
    for (let bus = 1; bus < powerFlow.vmPu.length; bus++) {
      const vm = powerFlow.vmPu[bus]!;
      voltageViolationPu += Math.max(0, vm - high) + Math.max(0, low - vm);
    }
    let lineOverload = 0;
    for (let bus = 1; bus < powerFlow.vmPu.length; bus++) {
      lineOverload += Math.max(0, this.lineLoading(bus) - 1);
    }
    const hours = model.stepSize / 3600;
    let curtailedMwh = 0;
    let pvFedMwh = 0;
    for (let index = 0; index < this.availableMw.length; index++) {
      const available = this.availableMw[index]!;
      curtailedMwh += available * this.curtailment[index]! * hours;
      pvFedMwh += available * (1 - this.curtailment[index]!) * hours;
    }
    return { voltageViolationPu, lineOverload, curtailedMwh, pvFedMwh };
  }

  /** Move to the next interval: advance time and draw its noise (set points are held). */
  advance(rng: Rng): void {
    this.time += this.model.stepSize;
    this.drawConditions(rng);
    this.solve();
  }

  private drawConditions(rng: Rng): void {
    const { model } = this;
    const std = model.noiseStd;
    for (let index = 0; index < this.loadMw.length; index++) {
      const load = model.loads[index]!;
      const noise = Math.max(0, 1 + std * rng.normal());
      this.loadMw[index] = load.peakMw * profileAt(load.profile, this.time) * noise;
    }
    const shape = profileAt(pvProfile(), this.time);
    for (let index = 0; index < this.availableMw.length; index++) {
      const noise = Math.max(0, 1 + std * rng.normal());
      const peak = model.pvUnits[index]!.peakMw;
      this.availableMw[index] = Math.min(peak, peak * shape * noise);
    }
  }
}
