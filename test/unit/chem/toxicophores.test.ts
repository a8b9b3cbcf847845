// The toxicophore bits of a model's vectors (chem/toxicophores.ts through morgan.ts)
// against RDKit's Python (Debian python3-rdkit, another build driven through its own API)
// matching the same SMARTS over every third kazius structure: the same structures hold
// each alert, and each alert holds some of them (a pattern that matches nothing would
// agree vacuously).
import { expect } from 'chai';
import { morganFingerprints } from '../../../src/chem/morgan.ts';
import { TOXICOPHORES } from '../../../src/chem/toxicophores.ts';
import { csvTable } from '../../helpers/csvTable.ts';
import { rdkitSubstructureHits } from '../../helpers/rdkitPython.ts';

describe('mutagenicity toxicophores against RDKit Python', function () {
  this.timeout(60_000);

  it('match the kazius structures RDKit Python matches, alert by alert', async () => {
    const smiles = csvTable('kazius.csv').smiles.filter((_, i) => i % 3 === 0);
    expect(smiles.length).to.be.greaterThan(1300);
    const bits = 64;
    const rows = await morganFingerprints(smiles, { radius: 2, bits, toxicophores: true });
    const judge = rdkitSubstructureHits(smiles, TOXICOPHORES.map((t) => ['smarts', t.smarts]));
    TOXICOPHORES.forEach((t, j) => {
      const ours = rows.flatMap((r, i) => (r![bits + j] === 1 ? [i] : []));
      expect(ours, t.name).to.deep.equal(judge[j]);
      expect(ours.length, `${t.name} matches some kazius structure`).to.be.greaterThan(0);
    });
    expect(rows[0]!.length).to.equal(bits + TOXICOPHORES.length);
  });
});
