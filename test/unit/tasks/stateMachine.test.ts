import { expect } from 'chai';
import type { TaskStatus } from '../../../src/tasks/api.ts';
import { STATUSES, isFinal, parseStatus, transition, type TaskEvent } from '../../../src/tasks/stateMachine.ts';

const EVENTS: TaskEvent[] = ['start', 'complete', 'fail', 'cancel', 'requeue'];

// SPEC §3, as a table: every (state, event) pair and where it leads (undefined = refused).
const TABLE: Array<[TaskStatus, TaskEvent, TaskStatus | undefined]> = [
  ['Queued', 'start', 'Running'],
  ['Queued', 'complete', undefined],
  ['Queued', 'fail', undefined],
  ['Queued', 'cancel', 'Cancelled'],
  ['Queued', 'requeue', undefined],
  ['Running', 'start', undefined],
  ['Running', 'complete', 'Completed'],
  ['Running', 'fail', 'Error'],
  ['Running', 'cancel', 'Cancelled'],
  ['Running', 'requeue', 'Queued'],
  ...(['Completed', 'Cancelled', 'Error'] as TaskStatus[]).flatMap((s) => EVENTS.map((e) => [s, e, undefined] as [TaskStatus, TaskEvent, undefined])),
];

describe('task state machine (SPEC §3)', () => {
  it('the table covers every state and event', () => {
    expect(TABLE).to.have.length(STATUSES.length * EVENTS.length);
  });
  for (const [from, event, to] of TABLE) {
    it(`${from} --${event}--> ${to ?? 'refused'}`, () => {
      expect(transition(from, event)).to.equal(to);
    });
  }
  it('final states are exactly Completed, Cancelled and Error', () => {
    expect(STATUSES.filter(isFinal)).to.deep.equal(['Completed', 'Cancelled', 'Error']);
  });
  it('parses status names case-insensitively and refuses others', () => {
    expect(parseStatus('running')).to.equal('Running');
    expect(parseStatus(' Queued ')).to.equal('Queued');
    expect(parseStatus('Rejected')).to.equal(undefined);
    expect(parseStatus('')).to.equal(undefined);
  });
});
