import { expect } from 'chai';
import { algorithmById } from '../../../src/algorithms/catalogue.ts';
import { withDefaults } from '../../../src/algorithms/params.ts';
import { runAlgorithm, type RunInWorker, type WorkerRunInput, workerRunner } from '../../../src/algorithms/worker.ts';
import type { FeaturesResult } from '../../../src/algorithms/types.ts';
import { csvTable } from '../../helpers/csvTable.ts';

describe('algorithms in worker threads', () => {
  // The worker entry called in process: what matters here is how runs are split and joined.
  const calls: WorkerRunInput[] = [];
  const inProcess: RunInWorker = async <T>(_m: URL | string, _fn: string, input: unknown) => {
    calls.push(input as WorkerRunInput);
    return (await runAlgorithm(input as WorkerRunInput)) as T;
  };

  it('splits a per-row algorithm into chunks and joins their rows in order', async () => {
    const table = csvTable('EPAFHM.csv', 240);
    const def = algorithmById('smarts')!;
    const params = withDefaults(def.params, { smarts: ['c', '[OX2H]'] });
    calls.length = 0;
    const split = (await workerRunner(inProcess, 2)(def, { table, params, algorithmUri: 'x' })) as FeaturesResult;
    expect(calls.length).to.be.greaterThan(1);
    expect(calls.every((c) => c.table.values.every((r) => r.length === 0))).to.equal(true);
    const whole = (await def.run({ table, params, algorithmUri: 'x' })) as FeaturesResult;
    expect(split.values).to.deep.equal(whole.values);
  });

  it('runs any other algorithm whole in one call', async () => {
    const table = csvTable('hamster_carcinogenicity.csv');
    const def = algorithmById('fs-variance')!;
    calls.length = 0;
    await workerRunner(inProcess, 2)(def, { table, params: withDefaults(def.params, {}), algorithmUri: 'x' });
    expect(calls).to.have.length(1);
  });
});
