import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { initChem, parseStructure } from '../../../src/chem/index.ts';
import { fingerprintsOf, initFingerprints } from '../../../src/chem/fingerprints.ts';
import { parseInThread } from '../../../src/chem/parsePool.ts';
import { HttpError } from '../../../src/errors.ts';
import { ERR } from '../../../src/rdf/vocab.ts';
import { sharedData } from '../../helpers/data.ts';

// Identities are PubChem's (alanine CID 5950), not our own output.
const ALANINE = { smiles: 'C[C@H](N)C(=O)O', inchi: 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1', inchiKey: 'QNAYBMKLOCPYGJ-REOHCLBHSA-N', formula: 'C3H7NO2' };

describe('chem: structures of requests parsed in the parser pool', () => {
  before(() => Promise.all([initChem(['inchi']), initFingerprints()]));

  it('answers what parseStructure answers in this thread, for SMILES, InChI and an SD file, fingerprints included', async () => {
    const alanine = await parseInThread('OC(=O)[C@@H](N)C', 'smiles', { molfile: 'withCoordinates', fingerprints: true });
    expect(alanine).to.include(ALANINE);
    expect(alanine.molfile).to.equal('');
    const expected = fingerprintsOf(ALANINE.smiles);
    expect([...alanine.fingerprints!.morgan]).to.deep.equal([...expected.morgan]);
    expect([...alanine.fingerprints!.pattern]).to.deep.equal([...expected.pattern]);
    expect(await parseInThread(ALANINE.inchi, 'inchi')).to.include(ALANINE);
    const sdf = readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8');
    expect(await parseInThread(sdf, 'sdf')).to.deep.equal(parseStructure(sdf, 'sdf'));
  });

  it('a refused structure keeps its 400, error code and message across the threads', async () => {
    const refused = await parseInThread('C(C)(C)(C)(C)C', 'smiles').then(() => undefined, (e: unknown) => e);
    expect(refused).to.be.instanceOf(HttpError);
    expect((refused as HttpError).status).to.equal(400);
    expect((refused as HttpError).code.value).to.equal(ERR.InvalidStructure.value);
    expect((refused as HttpError).message).to.match(/^SMILES: /);
    expect((await parseInThread('CCO', 'smiles')).inchiKey).to.equal('LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
  });

  it('many at once: each answer is its own structure', async () => {
    const smiles = [...new Set(readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split(/\r?\n/).slice(1, 300).map((l) => l.split(',')[0]!).filter(Boolean))];
    const answers = await Promise.allSettled(smiles.map((s) => parseInThread(s, 'smiles')));
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
});
