// The toolkits' warm-up set (src/chem/warmUp.ts) runs in every job thread at every start:
// a structure in it that failed would fail that warm-up, and one that repeated another
// would warm nothing new.
import { expect } from 'chai';
import { initChem, parseStructure, warmUpToolkits, WARM_UP_STRUCTURES } from '../../../src/chem/index.ts';
import { obabelInchiKey } from '../../helpers/obabel.ts';

describe('chem: the toolkits\' warm-up set', function () {
  this.timeout(60_000);
  before(() => initChem());

  it('parses every structure to a distinct identity, with the InChIKey Open Babel gives', () => {
    const keys = WARM_UP_STRUCTURES.map((smiles) => {
      const parsed = parseStructure(smiles, 'smiles', { molfile: 'withCoordinates', fingerprints: 'withoutPattern' });
      expect(parsed.inchiKey, smiles).to.equal(obabelInchiKey(smiles, 'smi'));
      return parsed.inchiKey;
    });
    expect(new Set(keys).size).to.equal(WARM_UP_STRUCTURES.length);
  });

  it('runs its rounds with the options of the work to come', () => {
    expect(() => warmUpToolkits({ molfile: 'withCoordinates', fingerprints: 'withoutPattern' }, 1)).not.to.throw();
    expect(() => warmUpToolkits({}, 1)).not.to.throw();
  });
});
