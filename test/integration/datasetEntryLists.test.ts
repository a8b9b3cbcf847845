// A dataset's entry list is read once and kept until a write touches the dataset: jobs and
// downloads that follow each other on one dataset do not read it again, and none of them
// sees a list older than the last write. Only the embedded store keeps lists: processes
// sharing a remote store hear of each other's writes late, so there every read asks it.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines, uploadDataset } from '../helpers/datasets.ts';
import { OT } from '../../src/rdf/vocab.ts';

const CSV = 'text/csv';

describe('dataset entry lists, kept between reads', function () {
  this.timeout(120_000);
  let app: TestApp;
  /** Reads of a whole entry list (ot:dataEntry links of one dataset) the store answered. */
  let listReads = 0;
  /** Reads of the list expected for `reads` downloads in a row, none written between. */
  const readsFor = (reads: number) => (app.deps.store.kind === 'embedded' ? 1 : reads);

  before(async () => {
    app = await startApp();
    const store = app.deps.store;
    const match = store.match.bind(store);
    // Counts, and passes on to the real store, every read of a dataset's entry links.
    store.match = (s, p, o, g) => {
      if (s !== null && p?.equals(OT.dataEntry) && o === null) listReads++;
      return match(s, p, o, g);
    };
  });
  after(async () => { await app.close(); });

  const csvRows = async (dataset: string) => (await lines(dataset, CSV)).length - 1;

  it('reads the list once for several downloads, and again after rows are added or the dataset is deleted', async () => {
    const created = await uploadDataset(app, 'SMILES,LC50\nCCO,1.5\nCCN,2.5\nCCC,3.5\n', CSV);
    expect(created.status).to.equal(200);
    const dataset = created.body;

    const before = listReads;
    expect(await csvRows(dataset)).to.equal(3);
    expect(await lines(dataset)).to.have.length(3);
    expect(await csvRows(dataset)).to.equal(3);
    expect(listReads - before, 'one read of the list for three downloads').to.equal(readsFor(3));

    // PUT adds rows (SPEC §2.3): the next download reads the new list and has them all.
    const added = await uploadDataset(app, 'SMILES,LC50\nCCCC,4.5\nCCCCC,5.5\n', CSV, dataset, 'PUT');
    expect(added.status).to.equal(200);
    expect(await csvRows(dataset)).to.equal(5);
    expect(listReads - before).to.equal(readsFor(3) + 1);

    const gone = await fetch(dataset, { method: 'DELETE' });
    expect(gone.status).to.equal(200);
    const res = await fetch(dataset, { headers: { Accept: CSV } });
    expect(res.status).to.equal(404);
  });

  it('keeps one list per dataset: a write to one dataset leaves the other\'s list in place', async () => {
    const a = (await uploadDataset(app, 'SMILES,x\nCCO,1\n', CSV)).body;
    const b = (await uploadDataset(app, 'SMILES,x\nCCN,2\nCCC,3\n', CSV)).body;
    expect(await csvRows(a)).to.equal(1);
    expect(await csvRows(b)).to.equal(2);
    const before = listReads;
    await uploadDataset(app, 'SMILES,x\nCCCC,4\n', CSV, a, 'PUT');
    expect(await csvRows(a)).to.equal(2);
    expect(await csvRows(b)).to.equal(2);
    expect(listReads - before, 'only the written dataset\'s list is read again').to.equal(readsFor(2));
  });
});
