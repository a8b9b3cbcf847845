import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { rdkitSubstructureHits, type JudgeKind } from '../helpers/rdkitPython.ts';
import { readFileSync } from 'node:fs';
import { sharedData } from '../helpers/data.ts';

// Substructure search with charged atoms, judged by RDKit's Python: a SMILES query matches
// as RDKit matches a molecule, by element and written charge, without the radicals its
// sanitiser gives under-valent bracket atoms of a fragment; uncharged queries keep the hits
// of RDKit's plain SMILES query. Every page is followed, from a page of two.
const STRUCTURES = [
  'O=[N+]([O-])c1ccccc1', // nitrobenzene
  'CC[N+](=O)[O-]', // nitroethane
  'C[N+](=O)[O-]', // nitromethane
  'c1ccccc1',
  'CCO',
  'CC(=O)[O-].[Na+]', // sodium acetate
  'C[N+](C)(C)C', // tetramethylammonium
  'CC(=O)O',
  'OC(=O)c1ccccc1',
];
const CHARGED = ['[N+](=O)[O-]', '[N+]', '[O-]', 'C[N+]', '[Na+]', 'O=[N+][O-]'];
const UNCHARGED = ['c1ccccc1', 'C1=CC=CC=C1', 'C(=O)O', 'CCO'];
const NITRO = [0, 1, 2];

describe('substructure search with charged atoms', () => {
  let app: TestApp;
  const uris: string[] = [];
  /** Every hit of a search, following rel="next" from a small first page, as structure indexes. */
  const hits = async (param: string, text: string): Promise<number[]> => {
    const found: string[] = [];
    let next: string | undefined = `${app.url}/compound?${param}=${encodeURIComponent(text)}&pagesize=2`;
    for (let pages = 0; next; pages++) {
      expect(pages, 'pages followed').to.be.below(20);
      const res: Response = await fetch(next, { headers: { Accept: 'text/uri-list' } });
      expect(res.status, `${param}=${text}`).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
      found.push(...(await res.text()).split('\r\n').filter(Boolean));
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    return found.map((u) => {
      expect(uris, `hit ${u}`).to.include(u);
      return uris.indexOf(u);
    }).sort((a, b) => a - b);
  };

  before(async function () {
    this.timeout(60_000);
    app = await startApp();
    for (const smiles of STRUCTURES) {
      const res = await fetch(`${app.url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: smiles });
      expect(res.status, smiles).to.equal(200);
      uris.push((await res.text()).trim());
    }
    expect(new Set(uris).size).to.equal(STRUCTURES.length);
  });
  after(async () => { await app.close(); });

  const queries = [...CHARGED, ...UNCHARGED];
  let judged: Map<string, number[]>;
  before(function () {
    this.timeout(60_000);
    const asked: Array<[JudgeKind, string]> = queries.flatMap((q) => [['smiles', q], ['smiles-sanitised', q], ['smarts', q]] as Array<[JudgeKind, string]>);
    const answers = rdkitSubstructureHits(STRUCTURES, asked);
    judged = new Map(asked.map(([kind, q], i) => [`${kind} ${q}`, answers[i]!]));
  });

  for (const q of CHARGED) {
    it(`substructure=${q} and smarts=${q} each find what RDKit finds`, async () => {
      const expected = judged.get(`smiles ${q}`)!;
      expect(expected, 'the judge finds something').to.not.be.empty;
      expect(await hits('substructure', q)).to.deep.equal(expected);
      expect(await hits('smarts', q)).to.deep.equal(judged.get(`smarts ${q}`));
    });
  }

  it('a nitro group written as SMILES finds every nitro compound, and only those', async () => {
    expect(await hits('substructure', '[N+](=O)[O-]')).to.deep.equal(NITRO);
    expect(await hits('substructure', 'O=[N+][O-]')).to.deep.equal(NITRO);
    expect(await hits('smarts', '[N+](=O)[O-]')).to.deep.equal(NITRO);
    // An atom of a SMILES query is not compared by aromaticity (RDKit): the C of C[N+] may be aromatic.
    expect(await hits('substructure', 'C[N+]')).to.deep.equal([...NITRO, 6]);
    expect(await hits('substructure', '[O-]')).to.deep.equal([...NITRO, 5]);
  });

  for (const q of UNCHARGED) {
    it(`substructure=${q} keeps the hits RDKit's plain SMILES query finds`, async () => {
      const expected = judged.get(`smiles-sanitised ${q}`)!;
      expect(expected).to.not.be.empty;
      expect(judged.get(`smiles ${q}`)).to.deep.equal(expected);
      expect(await hits('substructure', q)).to.deep.equal(expected);
    });
  }

  it('uncharged SMARTS queries find what RDKit finds', async () => {
    for (const q of ['c1ccccc1', 'C(=O)O', 'C(=O)[OH]']) expect(await hits('smarts', q), q).to.deep.equal(rdkitSubstructureHits(STRUCTURES, [['smarts', q]])[0]);
  });
});

describe('substructure search over 200 kazius structures, page after page, against RDKit', () => {
  const STRUCTURES = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split(/\r?\n/).slice(1, 201).map((l) => l.split(',')[0]!);
  const QUERIES: Array<[string, JudgeKind, string]> = [
    ['substructure', 'smiles', 'c1ccccc1'],
    ['smarts', 'smarts', 'C(=O)[OH]'],
    ['substructure', 'smiles', '[N+](=O)[O-]'],
    ['smarts', 'smarts', '[N+](=O)[O-]'],
  ];
  let app: TestApp;
  let judged: number[][];
  const uri = (i: number) => `${app.url}/compound/${i + 1}`;

  before(async function () {
    this.timeout(60_000);
    app = await startApp();
    STRUCTURES.forEach((s, i) => app.deps.search.indexCompound(uri(i), s));
    judged = rdkitSubstructureHits(STRUCTURES, QUERIES.map(([, kind, text]) => [kind, text]));
  });
  after(async () => { await app.close(); });

  QUERIES.forEach(([param, , text], q) => {
    it(`${param}=${text}: the pages of 9 together are RDKit's hits, each once, in storage order`, async () => {
      const found: string[] = [];
      let next: string | undefined = `${app.url}/compound?${param}=${encodeURIComponent(text)}&pagesize=9`;
      let pages = 0;
      for (; next; pages++) {
        const res: Response = await fetch(next, { headers: { Accept: 'text/uri-list' } });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
        const page = (await res.text()).split('\r\n').filter(Boolean);
        expect(page.length, `page ${pages}`).to.be.at.most(9);
        found.push(...page);
        next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      }
      const expected = judged[q]!;
      expect(expected.length, 'the judge finds something').to.be.greaterThan(2);
      expect(pages).to.equal(Math.ceil(expected.length / 9));
      expect(found).to.deep.equal(expected.map(uri));
    });
  });
});
