import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { SearchEngine } from '../../../src/search/engine.ts';
import { HttpError } from '../../../src/errors.ts';
import { sharedData } from '../../helpers/data.ts';
import { tempDir } from '../../helpers/app.ts';
import { initChem, parseStructure } from '../../../src/chem/index.ts';
import { fingerprintsOf } from '../../../src/chem/fingerprints.ts';

const C60 = 'c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3c8c4c4c9c5c1c1c6c2c3c41';

/** The SMILES column (the first) of a CSV of the shared test data. */
function smilesOf(file: string): string[] {
  return readFileSync(sharedData('opentox-test', file), 'utf8').split(/\r?\n/).slice(1).map((l) => l.split(',')[0]!).filter(Boolean);
}

const hamsterSmiles = () => smilesOf('hamster_carcinogenicity.csv');

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<HttpError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e as HttpError;
  }
  throw new Error('expected a rejection');
}

describe('search engine', () => {
  let engine: SearchEngine;
  const smiles = hamsterSmiles();
  const uri = (i: number) => `http://x/compound/${i}`;

  before(async () => {
    engine = await SearchEngine.open({ timeoutMs: 30_000, workers: 1 });
    smiles.forEach((s, i) => engine.indexCompound(uri(i), s));
  });
  after(async () => { await engine.close(); });

  it('indexes the data set', () => {
    expect(smiles.length).to.be.greaterThan(50);
    expect(engine.index.size).to.be.greaterThan(smiles.length - 3);
  });

  it('finds a stored molecule by another SMILES of it', async () => {
    expect(await engine.exact('O=CC')).to.deep.equal([uri(0)]);
    expect(await engine.exact('C(C)=O')).to.deep.equal([uri(0)]);
    expect(await engine.exact('CCC=O')).to.deep.equal([]);
  });

  it('similarity 1.0 finds the molecule itself, ordered hits are >= threshold', async () => {
    const hits = await engine.similar(smiles[3]!, 0.3);
    expect(hits[0]).to.deep.equal({ uri: uri(3), similarity: 1 });
    for (let i = 1; i < hits.length; i++) {
      expect(hits[i]!.similarity).to.be.at.least(0.3);
      expect(hits[i]!.similarity).to.be.at.most(hits[i - 1]!.similarity!);
    }
    expect(await engine.similar(smiles[3]!, 0.3, { limit: 2 })).to.deep.equal(hits.slice(0, 2));
  });

  it('a repeated similarity query answers as the first (its fingerprint kept), an unreadable one fails each time', async () => {
    const first = await engine.similar(smiles[5]!, 0.4);
    expect(first[0]).to.deep.equal({ uri: uri(5), similarity: 1 });
    expect(await engine.similar(smiles[5]!, 0.4)).to.deep.equal(first);
    // Another query right after is not answered from the one before.
    expect((await engine.similar(smiles[3]!, 0.4))[0]).to.deep.equal({ uri: uri(3), similarity: 1 });
    for (let i = 0; i < 2; i++) expect((await rejection(() => engine.similar('C(C)(C)(C)(C)C', 0.5))).status).to.equal(400);
  });

  it('substructure: nitro groups, restricted to some compounds, limited', async () => {
    const all = await engine.substructure('smarts', '[N+](=O)[O-]');
    expect(all.length).to.be.greaterThan(3);
    const expected = smiles.map((s, i) => (/\[N\+\]\(\[O-\]\)=O|\[N\+\]\(=O\)\[O-\]|\[O-\]\[N\+\]\(=O\)/.test(s) ? uri(i) : '')).filter(Boolean);
    expect(all.map((h) => h.uri)).to.include.members(expected);
    const within = [all[0]!.uri, uri(0)];
    expect(await engine.substructure('smarts', '[N+](=O)[O-]', { within })).to.deep.equal([{ uri: all[0]!.uri }]);
    expect(await engine.substructure('smarts', '[N+](=O)[O-]', { limit: 2 })).to.deep.equal(all.slice(0, 2));
  });

  it('substructure pages go on from the last one, and a write starts the search again', async () => {
    const all = await engine.substructure('smarts', 'c[N+](=O)[O-]');
    expect(all.length).to.be.greaterThan(4);
    const pages = [];
    for (let offset = 0; offset < all.length; offset += 3) pages.push(...(await engine.substructure('smarts', 'c[N+](=O)[O-]', { offset, limit: offset + 3 })));
    expect(pages).to.deep.equal(all);
    // Pages of one search asked for at once answer in turn, each its own hits.
    const [a, b] = await Promise.all([engine.substructure('smarts', 'c[N+](=O)[O-]', { limit: 2 }), engine.substructure('smarts', 'c[N+](=O)[O-]', { offset: 2, limit: 4 })]);
    expect([...a, ...b]).to.deep.equal(all.slice(0, 4));
    engine.indexCompound('http://x/compound/new', 'O=[N+]([O-])c1ccccc1Br');
    try {
      expect(await engine.substructure('smarts', 'c[N+](=O)[O-]', { offset: all.length })).to.deep.equal([{ uri: 'http://x/compound/new' }]);
    } finally {
      engine.removeCompound('http://x/compound/new');
    }
    expect(await engine.substructure('smarts', 'c[N+](=O)[O-]')).to.deep.equal(all);
  });

  it('two matchers keeping a few parsed molecules find what one parsing each finds, search after search', async () => {
    const keeping = await SearchEngine.open({ timeoutMs: 30_000, workers: 2, moleculeCache: 20 });
    try {
      smiles.forEach((s, i) => keeping.indexCompound(uri(i), s));
      for (const round of [1, 2]) {
        for (const [kind, q] of [['smarts', '[N+](=O)[O-]'], ['smiles', 'c1ccccc1'], ['smarts', 'C(=O)[OH]']] as const) {
          expect(await keeping.substructure(kind, q), `${q}, round ${round}`).to.deep.equal(await engine.substructure(kind, q));
        }
      }
    } finally {
      await keeping.close();
    }
  });

  it('a SMILES substructure query matches aromatic rings however they were drawn', async () => {
    const benzene = await engine.substructure('smiles', 'C1=CC=CC=C1');
    expect(benzene.map((h) => h.uri)).to.include(uri(1));
  });

  it('stops a search whose client has gone', async () => {
    const controller = new AbortController();
    controller.abort();
    const e = await rejection(engine.substructure('smarts', 'C', { signal: controller.signal }));
    expect(e.message).to.match(/client disconnected/);
  });

  const bad: Array<[string, () => unknown, RegExp]> = [
    ['unclosed branch in SMILES', () => engine.exact('C1CC(C'), /position 6|position 5/],
    ['pentavalent carbon', () => engine.similar('C(C)(C)(C)(C)C', 0.5), /valence/],
    ['unterminated SMARTS atom', () => engine.substructure('smarts', '[C;X4'), /SMARTS.*position 5/],
    ['SMARTS given as SMILES', () => engine.substructure('smiles', '[#6]~[!#1]'), /invalid SMILES/],
  ];
  for (const [name, run, message] of bad) {
    it(`400 for ${name}`, async () => {
      const e = await rejection(run as () => Promise<unknown>);
      expect(e).to.be.instanceOf(HttpError);
      expect(e.status).to.equal(400);
      expect(e.message).to.match(message);
    });
  }

  it('a pathological SMARTS is stopped with 503 and the next search still works', async () => {
    const small = await SearchEngine.open({ timeoutMs: 3000, workers: 1 });
    try {
      small.indexCompound('http://x/c60', C60);
      small.indexCompound('http://x/1', 'CC=O');
      const e = await rejection(small.substructure('smarts', '*' + '~*'.repeat(24) + '~[!#6]'));
      expect(e.status).to.equal(503);
      expect(e.message).to.match(/time limit of 3000 ms/);
      expect(await small.substructure('smarts', 'C=O')).to.deep.equal([{ uri: 'http://x/1' }]);
    } finally {
      await small.close();
    }
  });
});

describe('search index file', () => {
  it('restarts from the file and reconciles with the stored compounds', async () => {
    const dataDir = tempDir();
    const first = await SearchEngine.open({ dataDir, timeoutMs: 1000, workers: 1 });
    first.indexCompound('u:1', 'CCO');
    first.indexCompound('u:2', 'c1ccccc1O');
    first.indexCompound('u:3', 'CC(=O)O');
    first.removeCompound('u:3');
    await first.close();
    const second = await SearchEngine.open({ dataDir, timeoutMs: 1000, workers: 1 });
    expect(second.index.size).to.equal(2);
    expect(await second.exact('OCC')).to.deep.equal(['u:1']);
    const computed = second.reconcile([{ uri: 'u:2', smiles: 'Oc1ccccc1' }, { uri: 'u:4', smiles: 'CCN' }]);
    expect(computed).to.equal(1);
    expect(await second.exact('OCC')).to.deep.equal([]);
    expect(await second.exact('NCC')).to.deep.equal(['u:4']);
    await second.close();
    const third = await SearchEngine.open({ dataDir, timeoutMs: 1000, workers: 1 });
    expect([...third.index.keys()].sort()).to.deep.equal(['u:2', 'u:4']);
    await third.close();
  });
});

describe('search: fingerprints computed when a compound is stored', () => {
  const uri = (i: number) => `http://x/compound/${i}`;
  const entryOf = (engine: SearchEngine, u: string) => engine.index.entry(engine.index.slotOf(u)!)!;

  it('a compound is in the index once stored, with the fingerprints of its SMILES, whether its parse gave them or not', async () => {
    await initChem(['smiles']);
    const kazius = smilesOf('kazius.csv').slice(0, 200);
    const engine = await SearchEngine.open({ timeoutMs: 30_000, workers: 1 });
    try {
      kazius.forEach((s, i) => {
        let parsed;
        try {
          parsed = parseStructure(s, 'smiles', { fingerprints: true });
        } catch {
          return;
        }
        // Half as POST /compound and uploads store them (fingerprints from the parse), half from the SMILES alone.
        engine.indexCompound(uri(i), parsed.smiles, parsed.inchiKey, i % 2 === 0 ? parsed.fingerprints : undefined);
        const here = fingerprintsOf(s);
        const entry = entryOf(engine, uri(i));
        expect(entry.canonicalSmiles, s).to.equal(here.canonicalSmiles);
        expect([...entry.morgan], s).to.deep.equal([...here.morgan]);
        expect([...entry.pattern], s).to.deep.equal([...here.pattern]);
      });
      expect(engine.index.size).to.be.greaterThan(190);
      // Searched at once, no catching up: the last one stored is found by every kind of search.
      const last = kazius.length - 1;
      expect(await engine.exact(kazius[last]!)).to.include(uri(last));
      expect((await engine.similar(kazius[last]!, 1)).map((h) => h.uri)).to.include(uri(last));
      expect((await engine.substructure('smiles', kazius[last]!)).map((h) => h.uri)).to.include(uri(last));
    } finally {
      await engine.close();
    }
  });

  it('a compound stored again replaces its entry; one removed is found by nothing', async () => {
    const engine = await SearchEngine.open({ timeoutMs: 30_000, workers: 1 });
    try {
      engine.indexCompound(uri(1), 'CCO');
      engine.indexCompound(uri(2), 'CCN');
      engine.indexCompound(uri(1), 'CCCl');
      engine.removeCompound(uri(2));
      expect(await engine.exact('OCC')).to.deep.equal([]);
      expect(await engine.exact('ClCC')).to.deep.equal([uri(1)]);
      expect(await engine.exact('NCC')).to.deep.equal([]);
      expect(await engine.substructure('smarts', '[Cl]')).to.deep.equal([{ uri: uri(1) }]);
      expect(engine.index.size).to.equal(1);
    } finally {
      await engine.close();
    }
  });
});
