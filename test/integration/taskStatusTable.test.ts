import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { defineTestJobs } from '../helpers/testJobs.ts';
import { turtle, uriList, waitForStatus } from '../helpers/tasks.ts';
import { OT } from '../../src/rdf/vocab.ts';
import type { TaskStatus } from '../../src/tasks/api.ts';

type State = 'Queued' | 'Running' | 'Completed' | 'Resumed' | 'Cancelled' | 'Error' | 'Error400';

// SPEC §4.3 "Accessing a task" and §7.1: the status of GET /task/{id} per state, and what
// a uri-list client reads: 'self' (the task), 'result' (the job's result), 'next' (the task
// that resumes the job).
const STATES: Array<[State, number, 'self' | 'result' | 'next', TaskStatus]> = [
  ['Queued', 202, 'self', 'Queued'],
  ['Running', 202, 'self', 'Running'],
  ['Completed', 200, 'result', 'Completed'],
  ['Resumed', 201, 'next', 'Completed'],
  ['Cancelled', 503, 'self', 'Cancelled'],
  ['Error', 500, 'self', 'Error'],
  ['Error400', 400, 'self', 'Error'],
];
// Accept → the media type served; image/png cannot be served, so RDF/XML (SPEC §1 rule 5).
const ACCEPTS: Array<[string, string]> = [
  ['text/uri-list', 'text/uri-list'],
  ['application/rdf+xml', 'application/rdf+xml'],
  ['', 'application/rdf+xml'],
  ['image/png', 'application/rdf+xml'],
  ['text/turtle', 'text/turtle'],
];

describe('GET /task/{id}: status per state × Accept (SPEC §4.3)', () => {
  let app: TestApp;
  const uris = {} as Record<State, string>;
  let next = '';

  before(async () => {
    app = await startApp({ taskConcurrency: 1 });
    const tasks = app.deps.tasks;
    defineTestJobs(tasks);
    const submit = async (kind: string, params: object) => (await tasks.submit(kind, params, { title: kind, creator: `${app.url}/algorithm/x` })).uri;
    uris.Completed = await submit('test-noop', { result: 'http://example.org/model/1' });
    uris.Error = await submit('test-fail', {});
    uris.Error400 = await submit('test-fail', { status: 400 });
    uris.Resumed = await submit('test-resume', { ms: 60_000 });
    next = (await waitForStatus(tasks, uris.Resumed, ['Completed'])).resultUris[0]!;
    await waitForStatus(tasks, next, ['Running']);
    await tasks.cancel(next);
    uris.Cancelled = await submit('test-slow', { ms: 60_000 });
    await tasks.cancel(uris.Cancelled);
    uris.Running = await submit('test-slow', { ms: 60_000 });
    uris.Queued = await submit('test-noop', {});
    await waitForStatus(tasks, uris.Running, ['Running']);
  });
  after(async () => {
    await app.deps.tasks.cancel(uris.Queued);
    await app.deps.tasks.cancel(uris.Running);
    await app.close();
  });

  for (const [state, status, listed, hasStatus] of STATES) {
    for (const [accept, type] of ACCEPTS) {
      it(`${state} with Accept "${accept}" → ${status} ${type}`, async () => {
        const res = await fetch(uris[state], { headers: accept ? { Accept: accept } : {} });
        expect(res.status).to.equal(status);
        expect(res.headers.get('content-type')).to.match(new RegExp('^' + type.replace('+', '\\+')));
        const body = await res.text();
        if (type === 'text/uri-list') {
          const expected = { self: uris[state], result: 'http://example.org/model/1', next }[listed];
          expect(uriList(body)).to.deep.equal([expected]);
        } else if (type === 'application/rdf+xml') {
          expect(body).to.contain(`rdf:about="${uris[state]}"`).and.to.contain(`<ot:hasStatus>${hasStatus}</ot:hasStatus>`);
          if (listed !== 'self') expect(body).to.contain('ot:resultURI');
          else expect(body).not.to.contain('ot:resultURI');
        } else {
          expect(turtle(body).value(uris[state], OT.hasStatus)).to.equal(hasStatus);
        }
      });
    }
  }
});
