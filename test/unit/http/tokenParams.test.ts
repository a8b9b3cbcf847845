// withoutTokens as a table: token parameters and user-info go, everything else stays as written.
import { expect } from 'chai';
import { withoutTokens } from '../../../src/http/outbound/credentials.ts';

describe('withoutTokens', () => {
  const rows: Array<[string, string]> = [
    ['http://x.org/dataset?subjectid=XYZ', 'http://x.org/dataset'],
    ['http://x.org/dataset?page=1&SubjectId=XYZ&pagesize=2&subjectid=ABC', 'http://x.org/dataset?page=1&pagesize=2'],
    ['http://x.org/a?tokenid=1&token=2&password=3&passwd=4&pwd=5&api_key=6&apikey=7&access_token=8&q=c1ccccc1', 'http://x.org/a?q=c1ccccc1'],
    ['http://alice:secret@x.org/a?q=1', 'http://x.org/a?q=1'],
    // Untouched when there is nothing to remove: the query as the client wrote it.
    ['http://x.org/feature?sameas=a%26b&q=C(=O)O', 'http://x.org/feature?sameas=a%26b&q=C(=O)O'],
    ['http://x.org/a?subjectidx=1&my_token=2', 'http://x.org/a?subjectidx=1&my_token=2'],
  ];
  for (const [url, expected] of rows) it(`${url} → ${expected}`, () => expect(withoutTokens(url).href).to.equal(expected));
});
