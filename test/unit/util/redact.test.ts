import { expect } from 'chai';
import { redact, redactReport } from '../../../src/util/redact.ts';

describe('redact (error reports never echo secrets)', () => {
  const table: Array<[string, string]> = [
    ['GET /task/1?subjectid=abc%23def', 'GET /task/1?subjectid=***'],
    ['tokenid=AQIC5wM2#AAJ=', 'tokenid=***'],
    ['token.id=secret123', 'token.id=***'],
    ['password=hunter2&username=alice', 'password=***&username=alice'],
    ['{"password": "hunter2"}', '{"password": "***"}'],
    ['Authorization: Bearer abc.def', 'Authorization: Bearer ***'],
    ['cannot read https://alice:s3cret@example.org/dataset/1', 'cannot read https://***@example.org/dataset/1'],
    ['cannot read ftp://token@example.org/', 'cannot read ftp://***@example.org/'],
    ['remote said AQIC5wM2LY4SfczJ#AAJTSQ== is bad', 'remote said *** is bad'],
    ['the token is unknown, expired or logged out', 'the token is unknown, expired or logged out'],
    ['wrong user name or password', 'wrong user name or password'],
    ['see http://example.org/a@b', 'see http://example.org/a@b'],
  ];
  for (const [input, output] of table) {
    it(JSON.stringify(input), () => expect(redact(input)).to.equal(output));
  }

  it('redacts causes of a report too', () => {
    const report = redactReport({ status: 502, code: 'x:y', message: 'remote failed', causes: [{ status: 400, code: 'x:z', message: 'bad subjectid=AQICxyz12345', causes: [] }] });
    expect(report.causes[0]!.message).to.equal('bad subjectid=***');
  });
});
