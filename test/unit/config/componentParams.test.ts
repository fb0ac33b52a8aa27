import { describe, expect, it } from 'vitest';
import {
  BrainParamsError,
  builtinComponents,
  ConstantBrain,
  CrossEntropyBrain,
  DefaultMuscle,
  GridEnvironment,
  GridObjective,
  GridScenarioError,
  MetaBanditBrain,
  RandomBrain,
  SumObjective,
} from '../../../src/builtins/index.js';
import { componentParamsIssues, paramsSchemaOf } from '../../../src/config/componentParams.js';
import type { ComponentRef } from '../../../src/config/runSpec.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';

const ref = (name: string, params: JsonObject): ComponentRef => ({
  name,
  params,
  yamlPath: 'schedule[0].train.agents[0].brain',
});

const classes = {
  'arena:GridEnvironment': GridEnvironment,
  'arena:RandomBrain': RandomBrain,
  'arena:ConstantBrain': ConstantBrain,
  'arena:CrossEntropyBrain': CrossEntropyBrain,
  'arena:MetaBanditBrain': MetaBanditBrain,
  'arena:DefaultMuscle': DefaultMuscle,
  'arena:SumObjective': SumObjective,
  'arena:GridObjective': GridObjective,
} as const;

describe('built-in params schemas', () => {
  it.each(Object.entries(classes))('%s: its factory carries the class schema', (name, Class) => {
    expect(paramsSchemaOf(builtinComponents.get(name))).toBe(Class.paramsSchema);
  });

  it.each([
    ['arena:CrossEntropyBrain', { populaton: 6 }],
    ['arena:CrossEntropyBrain', { population: 'six' }],
    ['arena:CrossEntropyBrain', { population: 1 }],
    ['arena:MetaBanditBrain', { factors: [] }],
    ['arena:ConstantBrain', { default: 'x' }],
    ['arena:RandomBrain', { seed: 1 }],
  ] as const)('%s: the constructor rejects %j, which the schema rejects', (name, params) => {
    const Class = classes[name];
    expect(Class.paramsSchema.safeParse(params).success).toBe(false);
    const init = { name: 'a', params: params as JsonObject, seed: 1, logger: silentLogger() };
    expect(() => new Class(init)).toThrowError(BrainParamsError);
  });

  it('GridObjective rejects an unknown weight, as its schema does', () => {
    const params = { weights: { pv_enrgy: 1 } };
    expect(GridObjective.paramsSchema.safeParse(params).success).toBe(false);
    expect(() => new GridObjective({ params })).toThrowError(BrainParamsError);
  });

  it('GridEnvironment reads its definition block with the same schema', () => {
    const params = { definition: { include: ['^('] } };
    const issues = GridEnvironment.paramsSchema.safeParse(params).error?.issues ?? [];
    expect(issues.map((issue) => issue.path)).toEqual([['definition', 'include', 0]]);
    const environment = new GridEnvironment({
      uid: 'midas',
      params,
      keyOrder: {},
      seed: 1,
      logger: silentLogger(),
    });
    expect(() => environment.proposeDefinition()).toThrowError(GridScenarioError);
    expect(() => environment.proposeDefinition()).toThrowError(/definition\/include\/0/);
  });

  it('accepts the params of every shipped example component', () => {
    expect(CrossEntropyBrain.paramsSchema.safeParse({ population: 6 }).success).toBe(true);
    expect(GridObjective.paramsSchema.safeParse({ weights: { pv_energy: 1 } }).success).toBe(true);
    expect(
      MetaBanditBrain.paramsSchema.safeParse({ factors: [1, 2, 3, 4, 5], epsilon: 0 }).success,
    ).toBe(true);
  });
});

describe('componentParamsIssues', () => {
  it('names every bad param under the component, with the key a typo meant', async () => {
    const issues = await componentParamsIssues(
      ref('arena:CrossEntropyBrain', { populaton: 6, elite_fraction: 2 }),
      builtinComponents.get('arena:CrossEntropyBrain'),
    );
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        'schedule[0].train.agents[0].brain.params.elite_fraction',
        'Too big: expected number to be <=1',
      ],
      [
        'schedule[0].train.agents[0].brain.params.populaton',
        'unknown key; did you mean "population"? (expected one of: population, elite_fraction, initial_std, min_std)',
      ],
    ]);
  });

  it('says what a wrong type got', async () => {
    const issues = await componentParamsIssues(
      ref('arena:CrossEntropyBrain', { population: 'six' }),
      CrossEntropyBrain,
    );
    expect(issues.map((issue) => issue.message)).toEqual(['expected number, got string "six"']);
  });

  it('finds nothing to say about good params or a component without a schema', async () => {
    const good = ref('arena:CrossEntropyBrain', { population: 6 });
    expect(await componentParamsIssues(good, CrossEntropyBrain)).toEqual([]);
    expect(await componentParamsIssues(ref('./x.js:X', { anything: 1 }), class X {})).toEqual([]);
  });

  it('reads any Standard Schema a user module declares, even an async one', async () => {
    const component = {
      paramsSchema: {
        '~standard': {
          version: 1,
          vendor: 'hand-written',
          validate: async (value: unknown) =>
            (value as { rate?: unknown }).rate === undefined
              ? { issues: [{ message: 'rate is required', path: [{ key: 'rate' }] }] }
              : { value },
        },
      },
    };
    const issues = await componentParamsIssues(ref('./brain.js:Brain', {}), component);
    expect(issues).toEqual([
      {
        path: 'schedule[0].train.agents[0].brain.params.rate',
        message: 'rate is required',
        location: null,
      },
    ]);
  });

  it('says so when paramsSchema is not a schema', async () => {
    const issues = await componentParamsIssues(ref('./brain.js:Brain', {}), {
      paramsSchema: { rate: 'number' },
    });
    expect(issues[0]?.message).toMatch(/has a paramsSchema that is not a schema/);
  });
});
