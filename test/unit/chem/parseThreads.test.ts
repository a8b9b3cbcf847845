import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { initChem, parseStructure } from '../../../src/chem/index.ts';
import { START_RATE, StructureParser } from '../../../src/chem/parseThreads.ts';
import { HttpError } from '../../../src/errors.ts';
import { ERR } from '../../../src/rdf/vocab.ts';
import { sharedData } from '../../helpers/data.ts';

// Identities are PubChem's (alanine CID 5950), not our own output.
const ALANINE = { smiles: 'C[C@H](N)C(=O)O', inchi: 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1', inchiKey: 'QNAYBMKLOCPYGJ-REOHCLBHSA-N', formula: 'C3H7NO2' };

describe('chem: structures parsed in the parser threads', () => {
  const parser = new StructureParser(2);
  before(() => Promise.all([initChem(['inchi']), parser.warm()]));

  it('answers what parseStructure answers in this thread, for SMILES, InChI and an SD file', async () => {
    const alanine = await parser.parse('OC(=O)[C@@H](N)C', 'smiles', { molfile: 'withCoordinates', fingerprints: 'withoutPattern' });
    expect(alanine).to.include(ALANINE);
    expect(alanine.molfile).to.equal('');
    expect(alanine.fingerprints?.pattern).to.equal(undefined);
    expect([...alanine.fingerprints!.morgan]).to.deep.equal([...parseStructure('OC(=O)[C@@H](N)C', 'smiles', { fingerprints: true }).fingerprints!.morgan]);
    expect(await parser.parse(ALANINE.inchi, 'inchi')).to.include(ALANINE);
    const sdf = readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8');
    expect(await parser.parse(sdf, 'sdf')).to.deep.equal(parseStructure(sdf, 'sdf'));
  });

  it('a refused structure keeps its 400, error code and message across the threads', async () => {
    const refused = await parser.parse('C(C)(C)(C)(C)C', 'smiles').then(() => undefined, (e: unknown) => e);
    expect(refused).to.be.instanceOf(HttpError);
    expect((refused as HttpError).status).to.equal(400);
    expect((refused as HttpError).code.value).to.equal(ERR.InvalidStructure.value);
    expect((refused as HttpError).message).to.match(/^SMILES: /);
    // The thread goes on: the next structure is parsed.
    expect((await parser.parse('CCO', 'smiles')).inchiKey).to.equal('LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
  });

  it('many at once: each answer is its own structure, sent in batches', async () => {
    const smiles = [...new Set(readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split(/\r?\n/).slice(1, 400).map((l) => l.split(',')[0]!).filter(Boolean))];
    const before = parser.batches;
    const answeredBefore = parser.answeredByThread;
    const answers = await Promise.allSettled(smiles.map((s) => parser.parse(s, 'smiles')));
    expect(parser.batches - before).to.be.lessThan(smiles.length / 4);
    // Each thread is sent its share of what waits: neither parses most of it.
    const shares = parser.answeredByThread.map((n, i) => n - answeredBefore[i]!);
    expect(shares).to.have.length(2);
    for (const n of shares) expect(n, `shares ${shares.join(', ')}`).to.be.greaterThan(smiles.length / 3);
    answers.forEach((a, i) => {
      let expected;
      try {
        expected = parseStructure(smiles[i]!, 'smiles');
      } catch (e) {
        expect(a.status, smiles[i]).to.equal('rejected');
        expect((a as PromiseRejectedResult).reason.message).to.equal((e as Error).message);
        return;
      }
      expect(a.status, smiles[i]).to.equal('fulfilled');
      expect((a as PromiseFulfilledResult<unknown>).value).to.deep.equal(expected);
    });
  });

  it('answers each structure as soon as it is parsed, not with the rest of its batch', async () => {
    const one = new StructureParser(1);
    await one.warm();
    // 400 carbons in a chain: a structure that takes the toolkit a tenth of a second or more.
    const slow = 'C'.repeat(400);
    // One structure goes alone and one is sent ahead of its answer; the next two wait, then go
    // together as one batch once the first is answered.
    const first = [one.parse('CCO', 'smiles'), one.parse('CCN', 'smiles')];
    const sent = one.batches;
    const at = { fast: 0, slow: 0 };
    const fast = one.parse('Oc1ccccc1', 'smiles').then(() => { at.fast = performance.now(); });
    const long = one.parse(slow, 'smiles').then(() => { at.slow = performance.now(); });
    await Promise.all([...first, fast, long]);
    expect(one.batches - sent).to.equal(1);
    const t = performance.now();
    parseStructure(slow, 'smiles');
    const slowMs = performance.now() - t;
    expect(at.slow - at.fast, `the slow structure alone took ${slowMs.toFixed(0)} ms here`).to.be.greaterThan(slowMs / 2);
  });

  it('starts a thread once structures come fast, parses on the event loop until it is ready, and stops it when idle', async () => {
    const lazy = new StructureParser(1, 300);
    // One at a time: parsed here, no thread.
    expect(await lazy.parse('OC(=O)[C@@H](N)C', 'smiles')).to.include(ALANINE);
    expect(lazy.threadCount).to.equal(0);
    // START_RATE within a second starts one; they are answered here while it loads.
    const fast = await Promise.all(Array.from({ length: START_RATE }, () => lazy.parse('OC(=O)[C@@H](N)C', 'smiles')));
    fast.forEach((p) => expect(p).to.include(ALANINE));
    expect(lazy.threadCount).to.equal(1);
    expect(lazy.batches).to.equal(1); // the thread's warm-up only
    await lazy.warm();
    expect(await lazy.parse('OC(=O)[C@@H](N)C', 'smiles')).to.include(ALANINE);
    expect(lazy.batches).to.equal(2);
    const deadline = Date.now() + 5000;
    while (lazy.threadCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(lazy.threadCount).to.equal(0);
    expect((await lazy.parse('CCO', 'smiles')).inchiKey).to.equal('LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
    expect(lazy.threadCount).to.equal(0);
  });

  it('a thread killed in the middle of a batch loses none of its structures, nor does the one started in its place, killed while loading', async () => {
    const fragile = new StructureParser(1);
    await fragile.warm();
    const threads = (fragile as unknown as { threads: Array<{ worker: Worker }> }).threads;
    // The first, a chain of 200 carbons, takes a thread about 0.1 s: it is killed before it
    // has answered anything, so the ones that wait are still waiting then. (With a quick
    // first structure, its answer could arrive before the kill and the thread be sent the
    // rest, leaving none to wait for a new thread.)
    const smiles = ['C'.repeat(200), 'C(C)(C)(C)(C)C', 'c1ccccc1O', 'CCO', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O', 'OC(=O)[C@@H](N)C'];
    const answers = Promise.allSettled(smiles.map((s) => fragile.parse(s, 'smiles')));
    // The warm-up, then the first structure alone and the second sent ahead of its answer;
    // the other four wait for the thread.
    expect(fragile.batches).to.equal(3);
    // What an out-of-memory thread or a crash in a toolkit does: the thread ends unanswered.
    const first = threads[0]!.worker;
    await first.terminate();
    // Another was started for the four that wait; it is killed before its toolkits load.
    while (threads[0]?.worker === first) await new Promise((r) => setTimeout(r, 5));
    expect(fragile.threadCount).to.equal(1);
    await threads[0]!.worker.terminate();
    const settled = await answers;
    settled.forEach((a, i) => {
      if (i === 1) {
        // Pentavalent carbon: refused for itself, as in any thread.
        expect(a.status).to.equal('rejected');
        expect(((a as PromiseRejectedResult).reason as HttpError).status).to.equal(400);
        return;
      }
      expect(a.status, smiles[i]).to.equal('fulfilled');
      expect((a as PromiseFulfilledResult<unknown>).value).to.deep.equal(parseStructure(smiles[i]!, 'smiles'));
    });
    expect((settled[5] as PromiseFulfilledResult<object>).value).to.include(ALANINE);
    // Nothing restarts the threads over and over: the next start is the parser's usual one.
    expect(fragile.threadCount).to.equal(0);
    await fragile.warm();
    expect((await fragile.parse('CCO', 'smiles')).inchiKey).to.equal('LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
  });
});
