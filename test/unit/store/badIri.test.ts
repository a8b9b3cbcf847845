// A write carrying an IRI that Oxigraph refuses (SPEC §2.1 shows dataset URIs with
// feature_uris[] in their query) must fail alone: never reach the journal, never break
// later writes, never stop a restart.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { DataFactory } from 'n3';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { checkIri, isValidIri } from '../../../src/store/binder.ts';
import { DC } from '../../../src/rdf/vocab.ts';
import { tempDir } from '../../helpers/app.ts';

const { quad, namedNode, literal } = DataFactory;
const BAD = 'http://example.org/dataset/1?feature_uris[]=http://example.org/feature/2';

describe('store: IRIs the store would refuse', () => {
  it('the binder rejects them with a hint, as the store does', () => {
    expect(isValidIri(BAD)).to.equal(false);
    expect(isValidIri('http://example.org/dataset/1?feature_uris%5B%5D=http://example.org/feature/2')).to.equal(true);
    expect(() => checkIri(BAD, 'dataset_uri')).to.throw(/not a valid absolute IRI/).with.property('details').that.match(/%5B/);
  });

  it('a refused write fails alone; later writes and a restart work', async () => {
    const dir = tempDir();
    try {
      let store = await TripleStore.open(dir);
      const good = 'http://example.org/good';
      let failed: unknown;
      try {
        await store.replaceGraph('http://example.org/bad', [quad(namedNode(BAD), DC.title, literal('x'))]);
      } catch (e) {
        failed = e;
      }
      expect(failed, 'the bad write is refused').to.be.instanceOf(Error);
      await store.replaceGraph(good, [quad(namedNode(good), DC.title, literal('kept'))]);
      await store.close();
      store = await TripleStore.open(dir);
      expect((await store.graph(good)).map((q) => q.object.value)).to.deep.equal(['kept']);
      expect(await store.hasGraph('http://example.org/bad')).to.equal(false);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
