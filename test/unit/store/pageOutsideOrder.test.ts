// pageOutsideOrder (src/store/sparql/quirks.ts): a list's page is taken outside its ORDER BY,
// which Virtuoso refuses past its row cap; the rows and their order stay those of the query.
import { expect } from 'chai';
import sparqljs from 'sparqljs';
import { pageOutsideOrder } from '../../../src/store/sparql/quirks.ts';

const norm = (q: string) => new sparqljs.Generator().stringify(new sparqljs.Parser().parse(q));

describe('pageOutsideOrder', () => {
  it('moves LIMIT and OFFSET out of an ordered SELECT', () => {
    const query = 'PREFIX ot: <http://www.opentox.org/api/1.1#>\nSELECT ?d WHERE { GRAPH ?d { ?d a ot:Dataset } } ORDER BY STRLEN(STR(?d)) ?d LIMIT 11 OFFSET 2147483647';
    expect(norm(pageOutsideOrder(query))).to.equal(norm('PREFIX ot: <http://www.opentox.org/api/1.1#>\nSELECT ?d WHERE { { SELECT ?d WHERE { GRAPH ?d { ?d a ot:Dataset } } ORDER BY STRLEN(STR(?d)) ?d } } LIMIT 11 OFFSET 2147483647'));
  });

  it('keeps a projected expression as its variable outside', () => {
    const query = 'SELECT ?s (STR(?s) AS ?t) WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 5';
    expect(norm(pageOutsideOrder(query))).to.equal(norm('SELECT ?s ?t WHERE { { SELECT ?s (STR(?s) AS ?t) WHERE { ?s ?p ?o } ORDER BY ?s } } LIMIT 5'));
  });

  const unchanged = [
    'SELECT ?s WHERE { ?s ?p ?o } LIMIT 5',
    'SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s',
    'SELECT * WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 5',
    'ASK { ?s ?p ?o }',
  ];
  for (const query of unchanged) it(`leaves ${query} as it is`, () => expect(pageOutsideOrder(query)).to.equal(query));
});
