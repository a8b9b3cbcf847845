import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SearchEngine } from '../../../src/search/engine.ts';
import { UNKNOWN_PATTERN } from '../../../src/search/index.ts';
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
    await engine.fillPatternsNow();
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

  it('substructure: nitro groups, restricted to some compounds, limited', async () => {
    const all = await engine.substructure('smarts', '[N+](=O)[O-]');
    expect(all.length).to.be.greaterThan(3);
    const expected = smiles.map((s, i) => (/\[N\+\]\(\[O-\]\)=O|\[N\+\]\(=O\)\[O-\]|\[O-\]\[N\+\]\(=O\)/.test(s) ? uri(i) : '')).filter(Boolean);
    expect(all.map((h) => h.uri)).to.include.members(expected);
    const within = [all[0]!.uri, uri(0)];
    expect(await engine.substructure('smarts', '[N+](=O)[O-]', { within })).to.deep.equal([{ uri: all[0]!.uri }]);
    expect(await engine.substructure('smarts', '[N+](=O)[O-]', { limit: 2 })).to.deep.equal(all.slice(0, 2));
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
    expect([...third.index.uris].filter(Boolean).sort()).to.deep.equal(['u:2', 'u:4']);
    await third.close();
  });
});

describe('search: compounds stored without fingerprints (POST /compound)', () => {
  const smiles = hamsterSmiles();
  const uri = (i: number) => `http://x/compound/${i}`;
  const entryOf = (engine: SearchEngine, u: string) => engine.index.entry(engine.index.slotOf(u)!)!;
  /**
   * Runs `body` while the first 20 compounds' fingerprints are being computed: the matcher
   * process takes a second to start, so a turn of the event loop after the fill began, the
   * batch is in flight.
   */
  async function withBatchInFlight(body: (engine: SearchEngine, fill: Promise<void>) => Promise<void>): Promise<void> {
    const engine = await SearchEngine.open({ timeoutMs: 30_000, workers: 1 });
    try {
      smiles.slice(0, 20).forEach((s, i) => engine.indexCompound(uri(i), s));
      const fill = engine.fillPatternsNow();
      await new Promise((r) => setImmediate(r));
      expect(engine.unindexedCount).to.equal(20);
      await body(engine, fill);
    } finally {
      await engine.close();
    }
  }

  it('are found by the first search, and get the fingerprints their SMILES has', async () => {
    const engine = await SearchEngine.open({ dataDir: tempDir(), timeoutMs: 30_000, workers: 1 });
    try {
      smiles.forEach((s, i) => engine.indexCompound(uri(i), s));
      // Nothing computed on the caller's turn: more than a search computes itself.
      expect(engine.index.size).to.equal(0);
      expect(engine.unindexedCount).to.equal(smiles.length);
      expect(smiles.length).to.be.greaterThan(64);
      expect((await engine.similar('C(C)=O', 1)).map((h) => h.uri)).to.deep.equal([uri(0)]);
      expect(engine.unindexedCount).to.equal(0);
      // The search waited for all but the patterns: those are computed once searches pause.
      expect(engine.patternsPending).to.equal(smiles.length);
      expect([...entryOf(engine, uri(3)).pattern]).to.deep.equal([...UNKNOWN_PATTERN]);
      expect((await engine.substructure('smarts', '[CX3H1](=O)')).map((h) => h.uri)).to.include(uri(0));
      await engine.fillPatternsNow();
      expect(engine.patternsPending).to.equal(0);
      smiles.forEach((s, i) => {
        // Computed in the matcher process; compared with the same computed here.
        const here = fingerprintsOf(s);
        const entry = entryOf(engine, uri(i));
        expect(entry.canonicalSmiles, s).to.equal(here.canonicalSmiles);
        expect([...entry.morgan], s).to.deep.equal([...here.morgan]);
        expect([...entry.pattern], s).to.deep.equal([...here.pattern]);
      });
      expect((await engine.similar(smiles[3]!, 1))[0]).to.deep.equal({ uri: uri(3), similarity: 1 });
    } finally {
      await engine.close();
    }
  });

  it('an exact search finds them by the identity their parse gave, without waiting for any fingerprint', async () => {
    await initChem(['smiles']);
    // As POST /compound stores them: the parse's canonical SMILES and InChIKey.
    const parsed = smilesOf('kazius.csv').slice(0, 300).map((s) => parseStructure(s, 'smiles', { molfile: 'withCoordinates' }));
    const engine = await SearchEngine.open({ timeoutMs: 30_000, workers: 1 });
    try {
      // The first ten get their fingerprints; the rest wait (more than a search computes itself).
      parsed.slice(0, 10).forEach((p, i) => engine.indexCompound(uri(i), p.smiles, p.inchiKey));
      await engine.fillPatternsNow();
      parsed.slice(10).forEach((p, i) => engine.indexCompound(uri(i + 10), p.smiles, p.inchiKey));
      // Stored twice (as two uploads of one structure in two forms can): both, in storage order.
      engine.indexCompound(uri(300), parsed[250]!.smiles, parsed[250]!.inchiKey);
      engine.indexCompound(uri(301), parsed[5]!.smiles, parsed[5]!.inchiKey);
      const waiting = engine.unindexedCount;
      expect(waiting).to.equal(292);
      const answers = async () => ({
        smiles: await engine.exact(smilesOf('kazius.csv')[250]!),
        inchi: await engine.exact(parsed[120]!.inchi),
        inchiKey: await engine.exact(parsed[199]!.inchiKey),
        indexed: await engine.exact(parsed[5]!.smiles),
        within: await engine.exact(parsed[250]!.smiles, { within: [uri(300)] }),
        none: await engine.exact('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCO'),
      });
      const before = await answers();
      expect(before).to.deep.equal({
        smiles: [uri(250), uri(300)], inchi: [uri(120)], inchiKey: [uri(199)], indexed: [uri(5), uri(301)], within: [uri(300)], none: [],
      });
      // Nothing was computed to answer them.
      expect(engine.unindexedCount).to.equal(waiting);
      // Once every fingerprint is computed, the index gives the same answers.
      await engine.fillPatternsNow();
      expect(engine.unindexedCount).to.equal(0);
      expect(await answers()).to.deep.equal(before);
    } finally {
      await engine.close();
    }
  });

  it('after a burst, the matcher and the event loop share the work, and each compound gets the fingerprints of its SMILES', async () => {
    const kazius = smilesOf('kazius.csv').slice(0, 1200);
    const engine = await SearchEngine.open({ timeoutMs: 30_000, workers: 1 });
    try {
      kazius.forEach((s, i) => engine.indexCompound(uri(i), s));
      expect(engine.unindexedCount).to.equal(kazius.length);
      const hits = await engine.similar(kazius[700]!, 1);
      expect(hits.map((h) => h.uri)).to.include(uri(700));
      expect(engine.unindexedCount).to.equal(0);
      expect(engine.index.size).to.equal(kazius.length);
      kazius.forEach((s, i) => expect([...entryOf(engine, uri(i)).morgan], s).to.deep.equal([...fingerprintsOf(s).morgan]));
    } finally {
      await engine.close();
    }
  });

  it('a compound removed or stored again while its fingerprints are computed keeps none of that answer', () => withBatchInFlight(async (engine, fill) => {
    engine.removeCompound(uri(5));
    engine.indexCompound(uri(6), 'CCN');
    await fill;
    expect(engine.index.has('http://x/compound/5')).to.equal(false);
    expect(entryOf(engine, uri(6)).canonicalSmiles).to.equal('CCN');
    expect(await engine.exact(smiles[6]!)).to.not.include(uri(6));
    expect(await engine.exact('NCC')).to.deep.equal([uri(6)]);
    expect(engine.index.size).to.equal(19);
  }));

  it('when the matcher dies mid-batch, the batch waits again (but for a compound removed meanwhile) and a new matcher computes it', () => withBatchInFlight(async (engine, fill) => {
    engine.removeCompound(uri(5));
    // The matcher: this process's child running substructWorker.ts.
    const matchers = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'substructWorker'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
    expect(matchers).to.have.length(1);
    process.kill(Number(matchers[0]), 'SIGKILL');
    // fillPatternsNow tries again, in a new matcher process.
    await fill;
    expect(engine.unindexedCount).to.equal(0);
    expect(await engine.exact(smiles[7]!)).to.include(uri(7));
    expect(engine.index.size).to.equal(19);
    expect(engine.index.has('http://x/compound/5')).to.equal(false);
  }));

  it('a few are computed by the search itself (all but the pattern), and a closed engine has written them to its file', async () => {
    const dataDir = tempDir();
    const first = await SearchEngine.open({ dataDir, timeoutMs: 30_000, workers: 1 });
    // No pattern fill of its own before the close: on a loaded machine the search's matcher
    // took longer to start than the quiet that lets one begin, and the fill left nothing.
    first.holdFills();
    first.indexCompound('u:1', 'CCO');
    expect(await first.substructure('smarts', '[OX2H]')).to.deep.equal([{ uri: 'u:1' }]);
    expect(first.patternsPending).to.equal(1);
    first.indexCompound('u:2', 'c1ccccc1O');
    await first.close();
    const second = await SearchEngine.open({ dataDir, timeoutMs: 30_000, workers: 1 });
    try {
      // u:2 got everything on close; u:1's pattern, left by the search, is computed after the start.
      expect(second.patternsPending).to.equal(1);
      expect(second.index.uris.filter(Boolean)).to.deep.equal(['u:1', 'u:2']);
      await second.fillPatternsNow();
      expect(second.patternsPending).to.equal(0);
      expect([...second.index.entry(second.index.slotOf('u:1')!)!.pattern]).to.deep.equal([...fingerprintsOf('CCO').pattern]);
    } finally {
      await second.close();
    }
  });
});

describe('search: pattern fingerprints computed after the post', () => {
  const nitro = /\[N\+\]\(\[O-\]\)=O|\[N\+\]\(=O\)\[O-\]|\[O-\]\[N\+\]\(=O\)/;
  const smiles = hamsterSmiles().slice(0, 80);
  const uri = (i: number) => `http://x/compound/${i}`;
  /** As an upload's parse threads give them: the Morgan fingerprint and pickle from the parse, no pattern. */
  const posted = (s: string) => parseStructure(s, 'smiles', { fingerprints: 'withoutPattern' });
  const patternAt = (engine: SearchEngine, u: string) => [...engine.index.entry(engine.index.slotOf(u)!)!.pattern];
  /** Waits (20 s at most) until every pattern is filled, then checks the first `n` against those of their SMILES. */
  async function filled(engine: SearchEngine, n: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (engine.patternsPending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(engine.patternsPending).to.equal(0);
    smiles.slice(0, n).forEach((s, i) => expect(patternAt(engine, uri(i))).to.deep.equal([...fingerprintsOf(posted(s).smiles).pattern]));
  }

  before(() => initChem(['smiles']));

  it('a compound without its screen is still found by every substructure search, then gets the pattern of its SMILES', async () => {
    const dataDir = tempDir();
    const engine = await SearchEngine.open({ dataDir, timeoutMs: 30_000, workers: 1 });
    try {
      const parsed = smiles.map(posted);
      parsed.forEach((p, i) => engine.indexCompound(uri(i), p.smiles, p.inchiKey, p.fingerprints));
      expect(engine.patternsPending).to.equal(smiles.length);
      // Before the patterns: the screen passes everything and the matcher decides.
      const expected = parsed.map((p, i) => (nitro.test(p.smiles) ? uri(i) : '')).filter(Boolean);
      expect(expected.length).to.be.greaterThan(2);
      const before = (await engine.substructure('smarts', '[N+](=O)[O-]')).map((h) => h.uri);
      expect(before).to.include.members(expected);
      expect(await engine.substructure('smiles', 'C1CCCCCCCCCCCCCCCCCC1')).to.deep.equal([]);
      await engine.fillPatternsNow();
      expect(engine.patternsPending).to.equal(0);
      // Computed in the matcher process from the pickle; compared with the pattern of the
      // canonical SMILES parsed again here, as a query's screen is made.
      parsed.forEach((p, i) => expect(patternAt(engine, uri(i)), p.smiles).to.deep.equal([...fingerprintsOf(p.smiles).pattern]));
      expect((await engine.substructure('smarts', '[N+](=O)[O-]')).map((h) => h.uri)).to.deep.equal(before);
    } finally {
      await engine.close();
    }
    // The patterns are in the file: a restart has them, in the same storage order.
    const again = await SearchEngine.open({ dataDir, timeoutMs: 30_000, workers: 1 });
    try {
      expect(again.patternsPending).to.equal(0);
      expect(again.index.uris.filter(Boolean)).to.deep.equal(smiles.map((_s, i) => uri(i)));
      smiles.forEach((s, i) => expect(patternAt(again, uri(i))).to.deep.equal([...fingerprintsOf(posted(s).smiles).pattern]));
    } finally {
      await again.close();
    }
  });

  it('an upload holds the fills back while it stores its compounds; they run once it is done', async () => {
    const engine = await SearchEngine.open({ dataDir: tempDir(), timeoutMs: 30_000, workers: 1 });
    try {
      const release = engine.holdFills();
      smiles.slice(0, 5).forEach((s, i) => {
        const p = posted(s);
        engine.indexCompound(uri(i), p.smiles, p.inchiKey, p.fingerprints);
      });
      // Three times the pause after which posted compounds get their patterns.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(engine.patternsPending, 'held').to.equal(5);
      release();
      release(); // a second call changes nothing
      await filled(engine, 5);
    } finally {
      await engine.close();
    }
  });

  it('computes them by itself once posts pause, and after a restart those it had not', async () => {
    const dataDir = tempDir();
    const first = await SearchEngine.open({ dataDir, timeoutMs: 30_000, workers: 1 });
    smiles.slice(0, 5).forEach((s, i) => {
      const p = posted(s);
      first.indexCompound(uri(i), p.smiles, p.inchiKey, p.fingerprints);
    });
    // Stopped before posts paused: the file holds the compounds without their patterns.
    await first.close();
    const second = await SearchEngine.open({ dataDir, timeoutMs: 30_000, workers: 1 });
    try {
      expect(second.patternsPending).to.equal(5);
      const p = posted(smiles[5]!);
      second.indexCompound(uri(5), p.smiles, p.inchiKey, p.fingerprints);
      await filled(second, 6);
    } finally {
      await second.close();
    }
  });
});
