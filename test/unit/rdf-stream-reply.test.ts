// rdfStreamReply answers every RDF syntax through the edge (send), streaming where it can.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { handle } from '../../src/http/send.ts';
import { rdfStreamReply } from '../../src/http/streamReply.ts';
import { syntaxOf, RDF_MEDIA_TYPES } from '../../src/rdf/formats.ts';
import { parseRdf } from '../../src/rdf/parse.ts';
import type { SubjectGroup } from '../../src/rdf/stream.ts';
import { DC, OT, RDF } from '../../src/rdf/vocab.ts';

const { quad, namedNode: nn, literal } = DataFactory;

function* rows(n: number): Generator<SubjectGroup> {
  for (let i = 0; i < n; i++) {
    const s = nn(`http://e.org/dataset/1/row/${i}`);
    yield { subject: s, triples: [quad(s, RDF.type, OT.DataEntry), quad(s, DC.title, literal(`row ${i} <&>`))] };
  }
}

describe('rdfStreamReply through send()', () => {
  let server: Server;
  let url: string;
  before(async () => {
    const app = new Koa();
    app.use(handle(() => rdfStreamReply(() => rows(2000))));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => server.close());

  for (const type of RDF_MEDIA_TYPES) {
    it(`${type}: all 4000 triples`, async () => {
      const res = await fetch(url, { headers: { Accept: type } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(new RegExp('^' + type.replace('+', '\\+')));
      const quads = await parseRdf(await res.text(), syntaxOf(type)!, url);
      expect(quads).to.have.length(4000);
    });
  }

  it('RDF/XML (the default) is sent chunked, not as one buffered body', async () => {
    const res = await fetch(url);
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    expect(res.headers.get('transfer-encoding')).to.equal('chunked');
    expect(res.headers.get('content-length')).to.equal(null);
    await res.text();
  });
});
