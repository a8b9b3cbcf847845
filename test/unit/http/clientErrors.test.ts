// Which status a parser refusal gets (src/http/clientErrors.ts), as a table.
import { expect } from 'chai';
import { statusOf } from '../../../src/http/clientErrors.ts';

const LIMIT = 100;
const overflow = (raw?: string) => Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW', rawPacket: raw === undefined ? undefined : Buffer.from(raw, 'latin1') });

describe('statusOf a parser refusal', () => {
  const rows: Array<[string, Error, number]> = [
    ['a request line with no end within the limit', overflow(`GET /?${'a'.repeat(200)}`), 414],
    ['a request line of another method', overflow(`M-SEARCH /${'a'.repeat(200)}`), 414],
    ['a request line that ends past the limit', overflow(`GET /?${'a'.repeat(150)} HTTP/1.1\r\nHost: x\r\n`), 414],
    ['a short request line and long headers', overflow(`GET / HTTP/1.1\r\nX-Big: ${'b'.repeat(200)}`), 431],
    ['a piece that does not show the request line', overflow('a'.repeat(200)), 431],
    ['no bytes known', overflow(), 431],
    ['a request too slow', Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), 408],
    ['any other parse error', Object.assign(new Error('Invalid header'), { code: 'HPE_INVALID_HEADER_TOKEN' }), 400],
  ];
  for (const [what, err, status] of rows) {
    it(`${what} → ${status}`, () => expect(statusOf(err, LIMIT)).to.equal(status));
  }
});
