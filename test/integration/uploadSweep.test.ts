// Saved upload bodies do not outlive their tasks: a body saved just before a kill (no task
// recorded) or belonging to a cancelled upload is removed at the next start, while the body
// of an upload task still waiting to run is kept.
import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startApp, tempDir } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { EmbeddedStore } from '../../src/store/embedded/embeddedStore.ts';
import { taskQuads } from '../../src/tasks/tasks.ts';
import { sweepUploads } from '../../src/datasets/uploadSweep.ts';
import { UPLOAD_JOB } from '../../src/datasets/datasetUploadJob.ts';

const uploadsOf = (dataDir: string) => (existsSync(path.join(dataDir, 'uploads')) ? readdirSync(path.join(dataDir, 'uploads')) : []);

describe('upload bodies left by kills and cancels', function () {
  this.timeout(120_000);

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
    const store = await EmbeddedStore.open(path.join(dataDir, 'store'));
    try {
      const base = { creator: 'http://x.test/dataset/3', date: new Date(), title: 'upload', percentageCompleted: 0, resultUris: [], kind: UPLOAD_JOB, idempotent: true };
      await store.replaceGraph('http://x.test/task/1', taskQuads({ ...base, uri: 'http://x.test/task/1', status: 'Queued', params: JSON.stringify({ file: kept }) }));
      // A cancelled task's body is not needed any more (Cancelled is final).
      await store.replaceGraph('http://x.test/task/2', taskQuads({ ...base, uri: 'http://x.test/task/2', status: 'Cancelled', params: JSON.stringify({ file: path.join(dir, '4-1700000000000.csv') }) }));
      expect(await sweepUploads(store, dataDir, UPLOAD_JOB)).to.deep.equal(['4-1700000000000.csv']);
      expect(readdirSync(dir)).to.deep.equal(['3-1700000000000.csv']);
    } finally {
      await store.close();
    }
  });

  it('leaves no body of a cancelled large upload after a restart', async () => {
    const dataDir = tempDir();
    // Over 64 KiB, so the body is saved and the upload runs as a task.
    const rows = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split('\n').slice(0, 2500).join('\n') + '\n';
    let app = await startApp({}, dataDir);
    let task: string;
    try {
      const res = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: rows });
      expect(res.status).to.equal(202);
      task = (await res.text()).trim();
      // A remote store holds the body in a graph, and the job's thread copies it to the data
      // directory as it starts: that copy is what the restart must sweep, so it is waited for.
      for (const end = Date.now() + 10_000; uploadsOf(dataDir).length === 0 && Date.now() < end;) await new Promise((r) => setTimeout(r, 5));
      const cancel = await fetch(task, { method: 'DELETE', headers: { Accept: 'text/uri-list' } });
      expect(cancel.status).to.be.oneOf([200, 204]);
      expect(uploadsOf(dataDir)).to.have.length(1);
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
});
