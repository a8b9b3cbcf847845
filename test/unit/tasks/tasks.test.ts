import { expect } from 'chai';
import { errorIriOf, publicQuads, recordFromQuads, taskQuads, type TaskRecord } from '../../../src/tasks/tasks.ts';
import { taskStatusCode } from '../../../src/tasks/taskReply.ts';
import { isTaskId, uuidv7 } from '../../../src/tasks/ids.ts';
import { Throttle } from '../../../src/tasks/throttle.ts';
import { ERR, JOB } from '../../../src/rdf/vocab.ts';

const BASE = 'http://example.org/otx';
const base: TaskRecord = {
  uri: `${BASE}/task/0190c1a2-1111-7222-8333-444455556666`, creator: `${BASE}/algorithm/a`, status: 'Running',
  date: new Date('2026-01-02T03:04:05.000Z'), title: 'Build a model', percentageCompleted: 42.5, resultUris: [],
  kind: 'build', params: '{"k":3}', owner: 'alice', idempotent: true,
};
const error = { status: 400, code: ERR.InvalidParameter.value, actor: `${BASE}/algorithm/a`, message: 'k out of range', details: 'k ≤ 2', causes: [] };

describe('task records as triples', () => {
  const cases: Array<[string, TaskRecord]> = [
    ['Running', base],
    ['Completed with two results', { ...base, status: 'Completed', percentageCompleted: 100, resultUris: [`${BASE}/model/1`, `${BASE}/dataset/2`], ended: new Date('2026-01-02T04:00:00.000Z') }],
    ['Error with its report', { ...base, status: 'Error', description: 'k out of range', error, ended: new Date('2026-01-02T04:00:00.000Z') }],
  ];
  for (const [name, record] of cases) {
    it(`reads back what it writes: ${name}`, () => {
      const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
      expect(plain(recordFromQuads(record.uri, taskQuads(record)))).to.deep.equal(plain(record));
    });
  }

  it('writes ot:resultURI only when Completed (SPEC §2.4)', () => {
    const quads = taskQuads({ ...base, resultUris: ['http://example.org/x'] });
    expect(quads.some((q) => q.predicate.value.endsWith('resultURI'))).to.equal(false);
  });

  it('embeds the error report under {task}#error', () => {
    const quads = taskQuads({ ...base, status: 'Error', error });
    expect(quads.filter((q) => q.subject.value === errorIriOf(base.uri)).length).to.be.greaterThan(3);
  });

  it('publicQuads drops the engine\'s private fields only', () => {
    const quads = taskQuads(base);
    const pub = publicQuads(quads);
    expect(pub.some((q) => q.predicate.value.startsWith(JOB.ns))).to.equal(false);
    expect(quads.length - pub.length).to.equal(4); // kind, params, idempotent, owner
  });

  it('an empty graph is no task', () => {
    expect(recordFromQuads(base.uri, [])).to.equal(undefined);
  });
});

describe('task status codes (SPEC §4.3, §7.1)', () => {
  const table: Array<[Partial<TaskRecord>, number]> = [
    [{ status: 'Queued' }, 202],
    [{ status: 'Running' }, 202],
    [{ status: 'Completed', resultUris: ['http://example.org/model/1'] }, 200],
    [{ status: 'Completed', resultUris: [`${BASE}/task/0190c1a2-1111-7222-8333-444455550000`] }, 201],
    [{ status: 'Completed', resultUris: [`${BASE}/task/x`, `${BASE}/model/1`] }, 200],
    [{ status: 'Cancelled' }, 503],
    [{ status: 'Error', error }, 400],
    [{ status: 'Error' }, 500],
  ];
  for (const [fields, status] of table) {
    it(`${fields.status} ${fields.resultUris?.join(' ') ?? ''} → ${status}`, () => {
      expect(taskStatusCode({ ...base, ...fields }, BASE)).to.equal(status);
    });
  }
});

describe('task ids and progress throttle', () => {
  it('mints well-formed ids that sort by time', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(isTaskId(a) && isTaskId(b)).to.equal(true);
    expect(a < b).to.equal(true);
    expect(isTaskId('42')).to.equal(false);
    expect(isTaskId(a.toUpperCase())).to.equal(false);
  });

  it('ids minted in the same millisecond still sort in the order they were made', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 500 }, () => uuidv7(now));
    expect([...ids].sort()).to.deep.equal(ids);
    expect(ids.every(isTaskId)).to.equal(true);
  });

  it('flushes at most once per interval, and the last request is never lost', async () => {
    let flushes = 0;
    const t = new Throttle(100, () => flushes++);
    for (let i = 0; i < 50; i++) t.request();
    await new Promise((r) => setTimeout(r, 20));
    expect(flushes).to.equal(1);
    t.request();
    await new Promise((r) => setTimeout(r, 40));
    expect(flushes).to.equal(1);
    await new Promise((r) => setTimeout(r, 120));
    expect(flushes).to.equal(2);
    t.request();
    t.stop();
    await new Promise((r) => setTimeout(r, 150));
    expect(flushes).to.equal(2);
  });
});
