// RDF output speed: streaming RDF/XML, N-Triples and Turtle of a dataset-shaped graph (one
// subject per row, five triples each, in chunks of 500 rows as GET /dataset/{id} streams them),
// against N3.js writing the same triples as one N-Triples string.
import { performance } from 'node:perf_hooks';
import { DataFactory, Writer } from 'n3';
import type { BenchModule, BenchRow } from './types.ts';
import type * as RDF from '@rdfjs/types';
import { rdfTextStream } from '../src/rdf/stream.ts';
import { parseRdf } from '../src/rdf/parse.ts';
import { OT, RDF as RDFNS, XSD } from '../src/rdf/vocab.ts';

const { quad, namedNode: nn, literal } = DataFactory;
const ROWS = 20_000;
const ROWS_PER_CHUNK = 500;

function* rows(): Generator<RDF.Quad[]> {
  let chunk: RDF.Quad[] = [];
  for (let i = 0; i < ROWS; i++) {
    const s = nn(`http://localhost:8080/dataset/1/entry/${i}`);
    chunk.push(
      quad(s, RDFNS.type, OT.DataEntry),
      quad(s, OT.compound, nn(`http://localhost:8080/compound/${i}`)),
      quad(s, OT.value, literal(String(i * 0.5), XSD.double)),
      quad(s, OT.feature, nn(`http://localhost:8080/feature/${i % 7}`)),
      quad(s, OT.message, literal(`row ${i} with "quotes" & <markup>`)),
    );
    if ((i + 1) % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

async function time(fn: () => Promise<number>): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const bytes = await fn();
  return { ms: performance.now() - t0, bytes };
}

async function drain(gen: AsyncGenerator<string>): Promise<number> {
  let n = 0;
  for await (const chunk of gen) n += chunk.length;
  return n;
}

const rate = (triples: number, ms: number) => `${Math.round(triples / (ms / 1000)).toLocaleString('en')} triples/s`;

const bench: BenchModule = {
  title: 'RDF serialisation and parsing (100k triples, 20k subjects)',
  run: async (): Promise<BenchRow[]> => {
    const triples = ROWS * 5;
    const all = [...rows()].flat();
    const base = await time(async () => new Writer({ format: 'N-Triples' }).quadsToString(all).length);
    const out: BenchRow[] = [];
    const cases: Array<[string, () => Promise<number>]> = [
      ['rdfTextStream RDF/XML', () => drain(rdfTextStream(rows(), 'rdfxml'))],
      ['rdfTextStream N-Triples', () => drain(rdfTextStream(rows(), 'ntriples'))],
      ['rdfTextStream Turtle', () => drain(rdfTextStream(rows(), 'turtle'))],
    ];
    for (const [name, fn] of cases) {
      const r = await time(fn);
      out.push({ bench: name, figure: rate(triples, r.ms), baseline: `${rate(triples, base.ms)} (N3.js N-Triples string)`, ratio: (base.ms / r.ms).toFixed(2) });
    }
    let xml = '';
    for await (const c of rdfTextStream(rows(), 'rdfxml')) xml += c;
    const nt = new Writer({ format: 'N-Triples' }).quadsToString(all);
    const px = await time(async () => (await parseRdf(xml, 'rdfxml', 'http://localhost/')).length);
    const pn = await time(async () => (await parseRdf(nt, 'ntriples', 'http://localhost/')).length);
    out.push({ bench: 'parseRdf RDF/XML', figure: rate(triples, px.ms), baseline: `${rate(triples, pn.ms)} (parseRdf N-Triples)`, ratio: (pn.ms / px.ms).toFixed(2) });
    return out;
  },
};

export default bench;
