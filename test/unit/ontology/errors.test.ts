// ontology/errors.ttl defines every ERR code of src/rdf/vocab.ts as an owl:Class in one
// hierarchy under ErrorCode, with an HTTP status and a description (SPEC §7.2 rules 4-5), and
// every HttpError subclass answers the status its code declares.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { parseRdf } from '../../../src/rdf/parse.ts';
import { ERR, OWL, RDF as RDFNS, RDFS } from '../../../src/rdf/vocab.ts';
import { ONTOLOGY_DIR } from '../../../src/ontology/ontology.ts';
import * as errors from '../../../src/errors.ts';

const STATUS = ERR.term('httpStatus').value;
const codes = Object.entries(ERR).filter(([, v]) => typeof v === 'object' && 'termType' in v).map(([k]) => k);

describe('ontology/errors.ttl', () => {
  let quads: RDF.Quad[];
  const objects = (s: string, p: string) => quads.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object.value);
  before(async () => {
    quads = await parseRdf(readFileSync(path.join(ONTOLOGY_DIR, 'errors.ttl'), 'utf8'), 'turtle', 'http://example.org/');
  });

  for (const code of codes) {
    it(`defines ${code} as a class with a status and a description, under ErrorCode`, () => {
      const iri = ERR.ns + code;
      expect(objects(iri, RDFNS.type.value)).to.include(OWL.Class.value);
      expect(objects(iri, RDFS.comment.value)).to.have.length(1);
      if (code === 'ErrorCode') return;
      const [status] = objects(iri, STATUS);
      expect(Number(status), 'status').to.be.within(400, 599);
      // Walk up to the root: one parent each, no cycles, statuses in the same class (4xx/5xx).
      const seen = new Set<string>();
      let at = iri;
      while (at !== ERR.ErrorCode.value) {
        expect(seen.has(at), `cycle at ${at}`).to.equal(false);
        seen.add(at);
        const parents = objects(at, RDFS.subClassOf.value);
        expect(parents, `parent of ${at}`).to.have.length(1);
        at = parents[0]!;
        const parentStatus = objects(at, STATUS)[0];
        if (parentStatus) expect(Math.floor(Number(parentStatus) / 100)).to.equal(Math.floor(Number(status) / 100));
      }
    });
  }

  it('nests NotAFeatureRepresentation ⊂ ImproperRDFRepresentation ⊂ BadRDFContent ⊂ BadRequest (§7.2 rule 4)', () => {
    expect(objects(ERR.NotAFeatureRepresentation.value, RDFS.subClassOf.value)).to.deep.equal([ERR.ImproperRDFRepresentation.value]);
    expect(objects(ERR.ImproperRDFRepresentation.value, RDFS.subClassOf.value)).to.deep.equal([ERR.BadRDFContent.value]);
    expect(objects(ERR.BadRDFContent.value, RDFS.subClassOf.value)).to.deep.equal([ERR.BadRequest.value]);
    expect(objects(ERR.PredictionFeatureNotInDataset.value, STATUS)).to.deep.equal(['400']);
  });

  const samples: Array<[string, errors.HttpError]> = [
    ['BadRequest', new errors.BadRequest('x')],
    ['Unauthorized', new errors.Unauthorized('x')],
    ['Forbidden', new errors.Forbidden('x')],
    ['NotFound', new errors.NotFound('x')],
    ['MethodNotAllowed', new errors.MethodNotAllowed('PATCH', ['GET'])],
    ['NotAcceptable', new errors.NotAcceptable('x')],
    ['Conflict', new errors.Conflict('x')],
    ['PayloadTooLarge', new errors.PayloadTooLarge(10)],
    ['UnsupportedMediaType', new errors.UnsupportedMediaType('a/b', ['c/d'])],
    ['TooManyRequests', new errors.TooManyRequests('x', { 'Retry-After': '1' })],
    ['InternalError', new errors.InternalError('x')],
    ['BadGateway', new errors.BadGateway('x', [])],
    ['ServiceUnavailable', new errors.ServiceUnavailable('x')],
    ['GatewayTimeout', new errors.GatewayTimeout('x')],
    ['InsufficientStorage', new errors.InsufficientStorage('x')],
  ];
  it('covers every HttpError subclass exported by src/errors.ts', () => {
    const exported = Object.entries(errors).filter(([, v]) => typeof v === 'function' && v.prototype instanceof errors.HttpError).map(([k]) => k);
    expect(samples.map(([n]) => n)).to.have.members(exported);
  });
  for (const [name, err] of samples) {
    it(`${name} answers the status of its code ${err.code.value.replace(ERR.ns, '')}`, () => {
      expect(objects(err.code.value, STATUS)).to.deep.equal([String(err.status)]);
    });
  }
});
