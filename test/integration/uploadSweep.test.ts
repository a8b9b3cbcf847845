// Saved upload bodies do not outlive their tasks: a cancelled upload's body (a file, or a
// graph of a remote store) and its unfinished dataset go at once; a body saved just before a
// kill (no task recorded) or left by a cancel the process did not live to finish is removed
// at the next start, while the body of an upload task still waiting to run is kept.
import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startApp, tempDir } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { TripleStore } from '../../src/store/embedded/store.ts';
import { taskQuads } from '../../src/tasks/tasks.ts';
import { STORE_BODY_AGE_MS, sweepUploads } from '../../src/datasets/uploadSweep.ts';
import { UPLOAD_JOB } from '../../src/datasets/datasetUploadJob.ts';
import { readTask } from '../../src/tasks/tasks.ts';
import { graphOf, sharedFilesUnder, writeShared } from '../../src/tasks/sharedFiles.ts';
import { remoteStore } from '../helpers/engines.ts';
import { until } from '../helpers/until.ts';

const uploadsOf = (dataDir: string) => (existsSync(path.join(dataDir, 'uploads')) ? readdirSync(path.join(dataDir, 'uploads')) : []);

/** Over 64 KiB, so the body is saved and the upload runs as a task. */
const largeCsv = () => readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split('\n').slice(0, 2500).join('\n') + '\n';

describe('upload bodies left by kills and cancels', function () {
  this.timeout(120_000);

  for (const when of ['waits', 'runs'] as const) {
    it(`removes the body and the unfinished dataset of a large upload cancelled while it ${when}, without a restart`, async () => {
      const dataDir = tempDir();
      // One job at a time: a first upload keeps the second waiting. Answered at once (202).
      const app = await startApp({ taskConcurrency: 1, syncWindowMs: 0 }, dataDir);
      try {
        const post = async () => {
          const res = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: largeCsv() });
          expect(res.status).to.equal(202);
          return (await res.text()).trim();
        };
        const first = await post();
        const task = when === 'waits' ? await post() : first;
        const uri = task.replace(app.url, app.deps.config.baseUrl);
        const params = JSON.parse((await readTask(app.deps.store, uri))!.record.params) as { file: string; dataset: string };
        const remote = app.deps.store.kind === 'sparql';
        const held = async () => ({
          files: uploadsOf(dataDir).filter((n) => params.file.endsWith(n)).length,
          graph: await app.deps.store.hasGraph(graphOf(params.file)),
          dataset: await app.deps.store.hasGraph(params.dataset),
        });
        // The body is in the store (remote; the job copies it to a file as it starts) or a
        // file (embedded), and the new dataset's id is reserved.
        const before = await held();
        expect(before.graph).to.equal(remote);
        expect(before.dataset).to.equal(true);
        if (!remote) expect(before.files).to.equal(1);
        if (when === 'runs') await until('the job to start', async () => (await app.deps.tasks.get(uri))?.status === 'Running');
        else expect((await app.deps.tasks.get(uri))?.status).to.equal('Queued');
        const cancel = await fetch(task, { method: 'DELETE', headers: { Accept: 'text/uri-list' } });
        expect(cancel.status).to.equal(200);
        // A waiting job's holdings go with the cancel; a running one's once its job stops.
        await until('the body and the dataset to go', async () => Object.values(await held()).every((v) => !v), 10_000);
        expect((await app.deps.tasks.get(uri))?.status).to.equal('Cancelled');
        expect((await fetch(params.dataset.replace(app.deps.config.baseUrl, app.url), { headers: { Accept: 'text/uri-list' } })).status).to.equal(404);
        if (when === 'waits') {
          expect((await app.deps.tasks.settled(first.replace(app.url, app.deps.config.baseUrl), 60_000))?.status).to.equal('Completed');
        }
      } finally {
        await app.close();
      }
    });
  }

  it('removes at start-up a saved body that no task refers to', async () => {
    const dataDir = tempDir();
    mkdirSync(path.join(dataDir, 'uploads'));
    writeFileSync(path.join(dataDir, 'uploads', '7-1700000000000.csv'), 'SMILES\nCCO\n');
    const app = await startApp({}, dataDir);
    try {
      expect(uploadsOf(dataDir)).to.deep.equal([]);
    } finally {
      await app.close();
    }
  });

  it('keeps the body of an unfinished upload task and removes the others', async () => {
    const dataDir = tempDir();
    const dir = path.join(dataDir, 'uploads');
    mkdirSync(dir);
    const kept = path.join(dir, '3-1700000000000.csv');
    writeFileSync(kept, 'SMILES\nCCO\n');
    writeFileSync(path.join(dir, '4-1700000000000.csv'), 'SMILES\nCCN\n');
    const store = await TripleStore.open(path.join(dataDir, 'store'));
    try {
      const base = { creator: 'http://x.test/dataset/3', date: new Date(), title: 'upload', percentageCompleted: 0, resultUris: [], kind: UPLOAD_JOB, idempotent: true };
      await store.replaceGraph('http://x.test/task/1', taskQuads({ ...base, uri: 'http://x.test/task/1', status: 'Queued', params: JSON.stringify({ file: kept }) }));
      // A cancelled task's body is not needed any more (Cancelled is final).
      await store.replaceGraph('http://x.test/task/2', taskQuads({ ...base, uri: 'http://x.test/task/2', status: 'Cancelled', params: JSON.stringify({ file: path.join(dir, '4-1700000000000.csv') }) }));
      expect(await sweepUploads({ store, config: { dataDir } }, UPLOAD_JOB)).to.deep.equal(['4-1700000000000.csv']);
      expect(readdirSync(dir)).to.deep.equal(['3-1700000000000.csv']);
    } finally {
      await store.close();
    }
  });

  it('leaves no body of a cancelled large upload after a restart', async () => {
    const dataDir = tempDir();
    const rows = largeCsv();
    let app = await startApp({}, dataDir);
    let task: string;
    try {
      const res = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: rows });
      expect(res.status).to.equal(202);
      task = (await res.text()).trim();
      // A remote store holds the body in a graph, and the job's thread copies it to the data
      // directory as it starts: the cancel comes once that copy is there too.
      await until('the body\'s local copy', () => uploadsOf(dataDir).length > 0, 10_000, { everyMs: 5 });
      const cancel = await fetch(task, { method: 'DELETE', headers: { Accept: 'text/uri-list' } });
      expect(cancel.status).to.be.oneOf([200, 204]);
    } finally {
      await app.close({ keepData: true });
    }
    app = await startApp({ baseUrl: app.url }, dataDir);
    try {
      const res = await fetch(task.replace(app.url, app.origin), { headers: { Accept: 'text/turtle' } });
      expect(await res.text()).to.contain('Cancelled');
      expect(uploadsOf(dataDir)).to.deep.equal([]);
    } finally {
      await app.close();
    }
  });

  // Only a remote store keeps bodies as graphs; the embedded mode's files are swept above.
  (remoteStore ? it : it.skip)('removes at start-up the body graphs of a remote store that no unfinished task needs, once an hour old', async () => {
    const dataDir = tempDir();
    const old = Date.now() - STORE_BODY_AGE_MS - 60_000;
    const orphan = `uploads/7-${old}.csv`;
    const recent = `uploads/8-${Date.now()}.csv`;
    const needed = `uploads/9-${old}.csv`;
    const mine = [orphan, recent, needed];
    let app = await startApp({}, dataDir);
    try {
      // A kill while a body was saved, or between a cancel and its removal, leaves such graphs.
      for (const f of mine) await writeShared(app.deps, f, 'SMILES\nCCO\n');
      const uri = `${app.deps.config.baseUrl}/task/0190c1a2-1111-7222-8333-444455556677`;
      const record = { uri, creator: `${app.deps.config.baseUrl}/dataset/9`, date: new Date(), title: 'upload', percentageCompleted: 0, resultUris: [], kind: UPLOAD_JOB, idempotent: true };
      await app.deps.store.replaceGraph(uri, taskQuads({ ...record, status: 'Queued', params: JSON.stringify({ file: needed }) }));
      expect((await sharedFilesUnder(app.deps, 'uploads')).filter((f) => mine.includes(f)).sort()).to.deep.equal([...mine].sort());
    } finally {
      await app.close({ keepData: true });
    }
    app = await startApp({ baseUrl: app.url }, dataDir);
    try {
      // Read from the start's log: the Queued task's job runs once the sweep is over, and
      // removes its body when it ends.
      const swept = app.logged.filter((l) => l.msg === 'removed upload bodies no unfinished task refers to').flatMap((l) => l.files as string[]);
      expect(swept.filter((f) => mine.includes(f))).to.deep.equal([orphan]);
      expect(await app.deps.store.hasGraph(graphOf(orphan))).to.equal(false);
      expect(await app.deps.store.hasGraph(graphOf(recent))).to.equal(true);
    } finally {
      await app.close();
    }
  });
});
