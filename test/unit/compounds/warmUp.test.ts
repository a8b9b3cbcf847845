// The storing warm-up (src/compounds/warmUp.ts) runs the path of a real compound write (its
// quads, the journal record's N-Triples with their IRI checks, the store's bulk load) into a
// scratch store at every `npm start`.
import { expect } from 'chai';
import { warmCompoundWrites } from '../../../src/compounds/warmUp.ts';

describe('compounds: the storing warm-up', () => {
  it('writes its made-up compounds through the checks of a real write', async () => {
    await warmCompoundWrites('http://localhost:8080', 2, 10);
    // The same checks refuse what a real write would: a base URI that is no IRI.
    let error: unknown;
    await warmCompoundWrites('http://local host:8080', 1, 1).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error).with.property('message').that.matches(/invalid graph IRI/);
  });
});
