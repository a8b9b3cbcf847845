// The outbound policy (src/http/outbound/policy.ts) on every way an address can be written:
// WHATWG URL reads decimal, octal and hex IPv4 and trailing dots, so the check sees the
// address that would be connected to. No socket is opened: literals need no lookup, and host
// names go to a fake resolver.
import { expect } from 'chai';
import fc from 'fast-check';
import { refusedRange } from '../../../src/http/outbound/addresses.ts';
import { resolveTarget, type Lookup } from '../../../src/http/outbound/policy.ts';
import { withoutCredentials } from '../../../src/http/outbound/credentials.ts';
import { loadConfig } from '../../../src/config.ts';
import { HttpError } from '../../../src/errors.ts';
import { ERR } from '../../../src/rdf/vocab.ts';

const config = loadConfig([], {}, { baseUrl: 'http://service.example.org' });
const noLookup: Lookup = () => Promise.reject(new Error('an IP literal needs no lookup'));

async function refusal(uri: string, lookup: Lookup = noLookup): Promise<HttpError | undefined> {
  try {
    await resolveTarget(config, uri, 'dataset_uri', lookup);
    return undefined;
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
}

describe('refusedRange', () => {
  const table: Array<[string, RegExp | undefined]> = [
    ['127.0.0.1', /loopback/], ['127.255.255.254', /loopback/], ['10.1.2.3', /private/], ['172.31.0.1', /private/],
    ['192.168.1.1', /private/], ['169.254.169.254', /link-local/], ['100.64.0.1', /CGNAT/], ['0.0.0.0', /this-network/],
    ['224.0.0.1', /multicast/], ['255.255.255.255', /broadcast/], ['::1', /loopback/], ['::', /unspecified/],
    ['fd12::1', /unique-local/], ['fe80::1', /link-local/], ['ff02::1', /multicast/], ['::ffff:10.0.0.1', /private/],
    ['::ffff:a9fe:a9fe', /link-local/], ['64:ff9b::7f00:1', /loopback/],
    ['8.8.8.8', undefined], ['172.32.0.1', undefined], ['100.128.0.1', undefined], ['2606:4700:4700::1111', undefined], ['::ffff:1.1.1.1', undefined],
  ];
  for (const [address, expected] of table) {
    it(`${address} → ${expected ?? 'allowed'}`, () => {
      const range = refusedRange(address);
      if (expected) expect(range).to.match(expected);
      else expect(range).to.equal(undefined);
    });
  }
});

/** [first octet, prefix bits] of ranges that are always refused. */
const REFUSED_V4: Array<[number[], number]> = [[[127], 8], [[10], 8], [[192, 168], 16], [[172, 16], 12], [[169, 254], 16], [[100, 64], 10], [[0], 8], [[224], 4], [[240], 4]];

const refusedV4 = fc.constantFrom(...REFUSED_V4).chain(([start, bits]) =>
  fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((host) => {
    const base = start.reduce((n, o, i) => n + o * 256 ** (3 - i), 0);
    return (base + host) >>> 0;
  }));

const publicV4 = fc.integer({ min: 0, max: 2 ** 32 - 1 }).filter((n) => refusedRange(dotted(n)) === undefined);

function dotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The ways a URL host can spell one IPv4 address (WHATWG URL §host parsing). */
const spelling = (n: number) => fc.constantFrom(
  () => dotted(n),
  () => String(n),
  () => '0x' + n.toString(16),
  () => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].map((o) => '0' + o.toString(8)).join('.'),
  () => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].map((o) => '0x' + o.toString(16)).join('.'),
  () => `${n >>> 24}.${(n >>> 16) & 255}.${n & 0xffff}`,
  () => `${n >>> 24}.${n & 0xffffff}`,
  () => dotted(n) + '.',
  () => `[::ffff:${dotted(n)}]`,
  () => `[::ffff:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}]`,
  () => `[0:0:0:0:0:FFFF:${dotted(n)}]`,
).map((f) => f());

const decoration = fc.record({
  scheme: fc.constantFrom('http', 'https', 'HTTP'),
  userinfo: fc.constantFrom('', 'alice@', 'alice:secret@', 'a%40b:c@'),
  port: fc.constantFrom('', ':80', ':6379', ':8080', ':443'),
  path: fc.constantFrom('/', '/dataset/1', '/x?subjectid=AQIC12345678', '/#frag'),
});

const uriOf = (host: string, d: { scheme: string; userinfo: string; port: string; path: string }) => `${d.scheme}://${d.userinfo}${host}${d.port}${d.path}`;

describe('resolveTarget (fuzzed)', () => {
  it('refuses every loopback, private, link-local and reserved IPv4 address however it is written', async () => {
    await fc.assert(fc.asyncProperty(refusedV4.chain((n) => fc.tuple(fc.constant(n), spelling(n), decoration)), async ([n, host, d]) => {
      const uri = uriOf(host, d);
      const err = await refusal(uri);
      expect(err?.status, uri).to.equal(400);
      expect(err!.code.value).to.equal(ERR.RemoteURIRefused.value);
      expect(err!.message).to.contain(dotted(n));
      expect(err!.message).not.to.match(/secret|AQIC12345678/);
    }), { numRuns: 500 });
  });

  it('connects public IPv4 addresses, however written, at the address WHATWG URL reads', async () => {
    await fc.assert(fc.asyncProperty(publicV4.chain((n) => fc.tuple(fc.constant(n), spelling(n), decoration)), async ([n, host, d]) => {
      const target = await resolveTarget(config, uriOf(host, d), 'dataset_uri', noLookup);
      expect(target.address.replace(/^::ffff:/, '')).to.be.oneOf([dotted(n), `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`]);
    }), { numRuns: 300 });
  });

  it('refuses a host name when any of its addresses is refused (a rebinding name gets one lookup)', async () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}(\.[a-z]{2,5}){1,2}\.?$/);
    await fc.assert(fc.asyncProperty(name, refusedV4, fc.array(publicV4, { maxLength: 3 }), decoration, async (host, bad, good, d) => {
      let lookups = 0;
      const lookup: Lookup = async () => {
        lookups++;
        return [...good.map((g) => ({ address: dotted(g), family: 4 })), { address: dotted(bad), family: 4 }];
      };
      const err = await refusal(uriOf(host, d), lookup);
      expect(err?.code.value).to.equal(ERR.RemoteURIRefused.value);
      expect(lookups).to.equal(1);
    }), { numRuns: 200 });
  });

  it('refuses IPv6 loopback, unique-local, link-local, multicast and unspecified addresses', async () => {
    const v6 = fc.tuple(fc.constantFrom('fc', 'fd', 'fe8', 'fe9', 'fea', 'feb', 'ff0', 'ff1'), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 5 }))
      .map(([p, groups]) => `[${p.padEnd(4, '0')}::${groups.map((g) => g.toString(16)).join(':')}]`);
    await fc.assert(fc.asyncProperty(fc.oneof(v6, fc.constantFrom('[::1]', '[::]', '[0:0:0:0:0:0:0:1]', '[::ffff:7f00:1]')), decoration, async (host, d) => {
      expect((await refusal(uriOf(host, d)))?.code.value, host).to.equal(ERR.RemoteURIRefused.value);
    }), { numRuns: 300 });
  });

  it('an origin the operator lists is called whatever its address; the own origin too', async () => {
    const listed = loadConfig([], {}, { baseUrl: 'http://127.0.0.1:8080', remoteOrigins: ['http://127.0.0.1:9000'] });
    expect((await resolveTarget(listed, 'http://127.0.0.1:9000/x', 'dataset_uri', noLookup)).address).to.equal('127.0.0.1');
    expect((await resolveTarget(listed, 'http://2130706433:9000/x', 'dataset_uri', noLookup)).address).to.equal('127.0.0.1');
    expect((await resolveTarget(listed, 'http://127.0.0.1:8080/dataset/1', 'dataset_uri', noLookup)).address).to.equal('127.0.0.1');
    // Another port of the same host is another origin.
    const err = await resolveTarget(listed, 'http://127.0.0.1:9001/x', 'dataset_uri', noLookup).catch((e: HttpError) => e);
    expect((err as HttpError).code.value).to.equal(ERR.RemoteURIRefused.value);
  });

  it('refuses schemes other than http and https', async () => {
    for (const uri of ['ftp://8.8.8.8/', 'file:///etc/passwd', 'gopher://8.8.8.8:70/', 'data:text/plain,x', 'javascript:alert(1)']) {
      expect((await refusal(uri))?.status, uri).to.equal(400);
    }
  });
});

describe('withoutCredentials', () => {
  const table: Array<[string, string]> = [
    ['http://a:b@h.org/x?subjectid=AQIC5&feature_uris[]=http://f/1', 'http://h.org/x?feature_uris[]=http://f/1'],
    ['http://h.org/x?tokenid=1&b=2', 'http://h.org/x?b=2'],
    ['http://h.org/x?SubjectID=1', 'http://h.org/x'],
    ['http://h.org/x?a=1#f', 'http://h.org/x?a=1#f'],
    ['http://u@h.org:8/x', 'http://h.org:8/x'],
  ];
  for (const [uri, expected] of table) it(`${uri} → ${expected}`, () => expect(withoutCredentials(uri)).to.equal(expected));
});
