import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import { simulationControllerMachine } from '../../src/machines/simulationController.js';
import type { ControllerInput } from '../../src/machines/simulationControllerTypes.js';

/**
 * A model-based test of the controller's chart, driven through XState's pure
 * `transition` API (no actors run): each command is what an invoked actor or
 * the termination child would report, and a plain reference model, written
 * from the description, says where the controller must be.
 */

type Stage =
  | 'idle'
  | 'metaTurn'
  | 'closingWorld'
  | 'settingUp'
  | 'running'
  | 'handingOff'
  | 'evaluating'
  | 'checkpointing'
  | 'awaitingFlow'
  | 'paused'
  | 'restarting'
  | 'stopped'
  | 'cancelled'
  | 'failed';

interface Model {
  stage: Stage;
  episodes: number;
  checkpoints: number;
  reason: string | null;
  /** Start requests handled, the meta loop's internal ones included. */
  startRequests: number;
}

interface Setup {
  readonly episodes: number | null;
  readonly evaluateEvery: number | null;
  readonly termination: boolean;
  /** The meta profile, and with it the repeated meta loop's period (`null`: one-shot). */
  readonly meta?: boolean;
  readonly metaEvery?: number | null;
}

/** The loop reruns the meta turn at a barrier after every `metaEvery` training episodes. */
function metaDecisionDue(setup: Setup, model: Model): boolean {
  const every = setup.metaEvery ?? null;
  return setup.meta === true && every !== null && model.episodes % every === 0;
}

const decided = {
  status: 'done',
  environmentUid: 'env',
  override: { env: { scenario: { size: 2 } } },
  candidate: null,
  decision: null,
  agentInterface: null,
  failedStep: null,
  error: null,
};

type Snapshot = SnapshotFrom<typeof simulationControllerMachine>;

interface Real {
  snapshot: Snapshot;
}

const finalStages: readonly Stage[] = ['stopped', 'cancelled', 'failed'];

function stageOf(snapshot: Snapshot): Stage {
  const value = snapshot.value;
  if (typeof value === 'string') return value as Stage;
  const inner = (value as { simulating: unknown }).simulating;
  if (typeof inner === 'string') return inner as Stage;
  const barrier = (inner as { episodeBarrier: string }).episodeBarrier;
  const names: Record<string, Stage> = {
    handingOffReturn: 'handingOff',
    evaluating: 'evaluating',
    checkpointing: 'checkpointing',
    awaitingEpisodeFlow: 'awaitingFlow',
    paused: 'paused',
  };
  return names[barrier] ?? (barrier as Stage);
}

function send(real: Real, event: Record<string, unknown>): void {
  const [next] = transition(simulationControllerMachine, real.snapshot, event as never);
  real.snapshot = next;
}

function evaluationDue(setup: Setup, model: Model): boolean {
  return setup.evaluateEvery !== null && model.episodes % setup.evaluateEvery === 0;
}

function capReached(setup: Setup, model: Model): boolean {
  return setup.episodes !== null && model.episodes >= setup.episodes;
}

/** Where the chart goes once an episode's barrier work needs no more input. */
function afterBarrierWork(setup: Setup, model: Model): void {
  if (setup.termination) {
    model.stage = 'awaitingFlow';
  } else if (capReached(setup, model)) {
    model.stage = 'stopped';
    model.reason = 'max_episodes';
  } else {
    model.stage = 'paused';
  }
}

class Command implements fc.Command<Model, Real> {
  constructor(
    private readonly label: string,
    private readonly applies: (model: Model) => boolean,
    private readonly event: Record<string, unknown>,
    private readonly step: (model: Model) => void,
  ) {}

  check(model: Readonly<Model>): boolean {
    return this.applies(model as Model);
  }

  run(model: Model, real: Real): void {
    send(real, this.event);
    this.step(model);
    expect(stageOf(real.snapshot)).toBe(model.stage);
    expect(real.snapshot.context.episodes).toBe(model.episodes);
    expect(real.snapshot.context.checkpoints).toBe(model.checkpoints);
    expect(real.snapshot.context.reason).toBe(model.reason);
    expect(real.snapshot.context.startRequests).toBe(model.startRequests);
    expect(real.snapshot.status).toBe(finalStages.includes(model.stage) ? 'done' : 'active');
    if (real.snapshot.status === 'done') {
      expect(real.snapshot.output?.episodes).toBe(model.episodes);
    }
  }

  toString(): string {
    return this.label;
  }
}

/** The model of a controller that has not started. */
function initialModel(): Model {
  return { stage: 'idle', episodes: 0, checkpoints: 0, reason: null, startRequests: 0 };
}

/** A command whose event is always the same: `fc.constant` of it. */
function fixed(...parts: ConstructorParameters<typeof Command>): fc.Arbitrary<Command> {
  return fc.constant(new Command(...parts));
}

/** Commands that move the phase on; `endingCommands` end it (failures, a stop, a cancel). */
function progressCommands(setup: Setup): fc.Arbitrary<Command>[] {
  const at = (stage: Stage) => (model: Model) => model.stage === stage;
  return [
    fixed('start', at('idle'), { type: 'start' }, (m) => {
      m.stage = setup.meta === true ? 'metaTurn' : 'settingUp';
      m.startRequests += 1;
    }),
    fixed(
      'meta turn decided',
      at('metaTurn'),
      { type: 'xstate.done.actor.metaTurn', output: decided },
      (m) => (m.stage = 'settingUp'),
    ),
    fixed('world closed', at('closingWorld'), { type: 'xstate.done.actor.closeWorld' }, (m) => {
      m.stage = 'metaTurn';
      m.startRequests += 1;
    }),
    fixed(
      'world ready',
      at('settingUp'),
      { type: 'xstate.done.actor.setUpWorld' },
      (m) => (m.stage = 'running'),
    ),
    fc.boolean().map(
      (environmentDone) =>
        new Command(
          `episode done (environmentDone ${environmentDone})`,
          at('running'),
          {
            type: 'xstate.done.actor.runEpisode',
            output: { steps: 3, returnsByAgent: { agent: -1 }, environmentDone },
          },
          (m) => {
            m.stage = 'handingOff';
            m.episodes += 1;
          },
        ),
    ),
    fixed('return handed off', at('handingOff'), { type: 'xstate.done.actor.endEpisode' }, (m) => {
      if (setup.evaluateEvery !== null && evaluationDue(setup, m)) m.stage = 'evaluating';
      else afterBarrierWork(setup, m);
    }),
    fixed(
      'evaluation done',
      at('evaluating'),
      {
        type: 'xstate.done.actor.runEvaluation',
        output: {
          summary: {
            ordinal: 0,
            episode: 1,
            mode: 'train',
            evaluation: true,
            steps: 3,
            returnsByAgent: { agent: -1 },
            environmentDone: false,
          },
          outcomes: [{ agentName: 'agent', evaluationId: 'e', evaluationEpisode: 0, metrics: {} }],
        },
      },
      (m) => {
        m.checkpoints += 1;
        if (setup.termination) m.stage = 'checkpointing';
        else afterBarrierWork(setup, m);
      },
    ),
    fc.constantFrom('CONTINUE', 'RESTART').map(
      (control) =>
        new Command(
          `flow ${control}`,
          (m) => m.stage === 'checkpointing' || m.stage === 'awaitingFlow',
          { type: 'termination.flow', control, reason: null },
          (m) => {
            m.stage = m.stage === 'checkpointing' ? 'awaitingFlow' : 'paused';
          },
        ),
    ),
    fixed('continue', at('paused'), { type: 'continue' }, (m) => {
      m.stage = metaDecisionDue(setup, m) ? 'closingWorld' : 'restarting';
    }),
    fixed(
      'world reset',
      at('restarting'),
      { type: 'xstate.done.actor.resetWorld' },
      (m) => (m.stage = 'running'),
    ),
  ];
}

function endingCommands(): fc.Arbitrary<Command>[] {
  const at = (stage: Stage) => (model: Model) => model.stage === stage;
  return [
    fixed(
      'meta turn failed its checks',
      at('metaTurn'),
      {
        type: 'xstate.done.actor.metaTurn',
        output: {
          ...decided,
          status: 'failed',
          override: null,
          failedStep: 'validatingCandidate',
          error: {
            name: 'DefinitionValidationError',
            code: 'DEFINITION_VALIDATION',
            message: 'out of bounds',
          },
        },
      },
      (m) => {
        m.stage = 'failed';
        m.reason = 'failed';
      },
    ),
    fc.constantFrom('success', 'plateau', 'max_episodes').map(
      (reason) =>
        new Command(
          `flow STOP_PHASE ${reason}`,
          (m) => m.stage === 'checkpointing' || m.stage === 'awaitingFlow',
          { type: 'termination.flow', control: 'STOP_PHASE', reason },
          (m) => {
            m.stage = 'stopped';
            m.reason = reason;
          },
        ),
    ),
    fixed(
      'episode failed',
      at('running'),
      { type: 'xstate.error.actor.runEpisode', error: new Error('environment crashed') },
      (m) => {
        m.stage = 'failed';
        m.reason = 'failed';
      },
    ),
    fixed(
      'cancel',
      (m) => !finalStages.includes(m.stage),
      { type: 'cancel' },
      (m) => {
        m.stage = 'cancelled';
        m.reason = 'cancelled';
      },
    ),
  ];
}

function commands(setup: Setup): fc.Arbitrary<Command>[] {
  return [...progressCommands(setup), ...endingCommands()];
}

const setups: fc.Arbitrary<Setup> = fc.record({
  episodes: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  evaluateEvery: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  termination: fc.boolean(),
});

function inputOf(setup: Setup): ControllerInput {
  return {
    phase: {
      name: 'train',
      index: 0,
      mode: 'train',
      episodes: setup.episodes,
      evaluateEvery: setup.evaluateEvery,
      maxSteps: 3,
    },
    script:
      setup.meta === true
        ? {
            profile: 'meta',
            metaAgent: 'designer',
            operatingAgent: 'agent',
            definitionEnvironment: 'env',
            loopAgents: ['agent'],
            metaEvery: setup.metaEvery ?? null,
          }
        : {
            profile: 'generic',
            metaAgent: null,
            operatingAgent: null,
            definitionEnvironment: null,
            loopAgents: ['agent'],
          },
    environmentConfigurations: { env: {} },
    termination: setup.termination
      ? {
          agents: {
            agent: {
              success: {
                metric: 'objective',
                threshold: 1,
                direction: 'greater_equal',
                consecutive: 1,
                min_evaluations: 1,
              },
            },
          },
        }
      : null,
    pauseAtBarrier: true,
  };
}

describe('simulation controller chart (model-based)', () => {
  it('follows the reference model for any sequence of actor reports, flows, continues and cancels', () => {
    fc.assert(
      fc.property(
        setups.chain((setup) =>
          fc.tuple(
            fc.constant(setup),
            fc.commands(commands(setup), { maxCommands: 200, size: 'max' }),
          ),
        ),
        ([setup, sequence]) => {
          // a cap-free phase needs evaluation rules, as the runner enforces
          fc.pre(setup.episodes !== null || setup.termination);
          const [snapshot] = initialTransition(simulationControllerMachine, inputOf(setup));
          fc.modelRun(() => ({ model: initialModel(), real: { snapshot } }), sequence);
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
  });

  it('follows the reference model in the meta profile: the loop goes from a due barrier back into the meta turn, and only there', () => {
    const metaSetups: fc.Arbitrary<Setup> = fc.record({
      episodes: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
      evaluateEvery: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
      termination: fc.boolean(),
      meta: fc.constant(true),
      metaEvery: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    });
    const seen = { loops: 0 };
    fc.assert(
      fc.property(
        metaSetups.chain((setup) =>
          fc.tuple(
            fc.constant(setup),
            // a phase moves on far more often than it ends, so that sequences reach the loop
            fc.commands(
              [
                fc.oneof(
                  { weight: 30, arbitrary: fc.oneof(...progressCommands(setup)) },
                  { weight: 1, arbitrary: fc.oneof(...endingCommands()) },
                ),
              ],
              { maxCommands: 200, size: 'max' },
            ),
          ),
        ),
        ([setup, sequence]) => {
          fc.pre(setup.episodes !== null || setup.termination);
          const [snapshot] = initialTransition(simulationControllerMachine, inputOf(setup));
          const real = { snapshot };
          fc.modelRun(() => ({ model: initialModel(), real }), sequence);
          if (real.snapshot.context.startRequests > 1) seen.loops += 1;
        },
      ),
      { numRuns: 300, seed: 1515 },
    );
    // the property covers the loop only if sequences really went round it
    expect(seen.loops).toBeGreaterThan(20);
  });
});
