import { expect } from 'chai';
import { Readable } from 'node:stream';
import { searchReply } from '../../../src/search/results.ts';
import type { Hit } from '../../../src/search/engine.ts';

const query = { mode: 'similarity', smiles: 'CCO', threshold: 0.5 } as const;
const hitsOf = (n: number): Hit[] => Array.from({ length: n }, (_, i) => ({ uri: `http://x/compound/${i + 1}`, similarity: 1 - i / (2 * n) }));

async function text(body: unknown): Promise<string> {
  if (typeof body === 'string') return body;
  expect(body).to.be.instanceOf(Readable);
  let out = '';
  for await (const chunk of body as Readable) out += String(chunk);
  return out;
}

describe('search result bodies', () => {
  // One chunk is 1,024 lines: pages on both sides of it, and a page of several chunks.
  for (const n of [0, 3, 1024, 1025, 2500]) {
    it(`${n} hits: a line each in uri-list and CSV, in hit order, ${n > 1024 ? 'streamed' : 'as one string'}`, async () => {
      const hits = hitsOf(n);
      const reply = searchReply({ query, hits, resultUri: 'http://x/compound?similarity=CCO', similarityFeature: 'http://x/feature/similarity' });
      const variant = (type: string) => reply.variants.find((v) => v.type === type)!;
      const uriList = await variant('text/uri-list').produce();
      expect(typeof uriList === 'string').to.equal(n <= 1024);
      expect(await text(uriList)).to.equal(hits.map((h) => h.uri + '\r\n').join(''));
      const csv = await text(await variant('text/csv').produce());
      expect(csv).to.equal('compound,similarity\r\n' + hits.map((h) => `${h.uri},${h.similarity!.toFixed(4)}\r\n`).join(''));
    });
  }
});
