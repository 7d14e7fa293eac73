import assert from 'node:assert/strict';
import dns from 'node:dns';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { assertPublicUrl, checkUrl, classifyAddress, isRefusedAddress, type LookupAll } from '../../../src/platform/network/ssrf-guard.js';
import { ValidationError } from '../../../src/platform/errors.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';

describe('isRefusedAddress', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    // IPv4-mapped and IPv4-embedding IPv6 forms are judged by their IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a00:5', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['[::1]', 'loopback'],
    ['not-an-ip', 'unparseable'],
    ['1.2.3', 'unparseable'],
  ];
  for (const [address, kind] of refused) {
    it(`refuses ${address} (${kind})`, () => {
      assert.equal(isRefusedAddress(address), true);
      assert.equal(classifyAddress(address), kind);
    });
  }

  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '169.253.0.1', '223.255.255.255', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'];
  for (const address of allowed) {
    it(`allows ${address}`, () => assert.equal(isRefusedAddress(address), false));
  }
});

describe('checkUrl', () => {
  const deny = { allowPrivate: false };

  it('refuses other schemes than http and https, even with allowPrivate', async () => {
    for (const url of ['ftp://example.com/file', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'gopher://example.com/']) {
      for (const allowPrivate of [false, true]) {
        const result = await checkUrl(url, { allowPrivate });
        assert.equal(result.ok, false, url);
        assert.ok(!result.ok && result.code === 'scheme' && /http or https/.test(result.reason), url);
      }
    }
    assert.deepEqual(await checkUrl('not a url', deny), { ok: false, code: 'invalid', reason: 'url is not a valid absolute URL.' });
  });

  it('refuses literal private addresses in any spelling, without DNS', async () => {
    const lookup: LookupAll = async () => assert.fail('no lookup for a literal address');
    const cases: Array<[string, RegExp]> = [
      ['http://127.0.0.1/', /loopback address \(127\.0\.0\.1\)/],
      ['http://2130706433/', /loopback address \(127\.0\.0\.1\)/],
      ['http://0x7f.1/', /loopback address \(127\.0\.0\.1\)/],
      ['http://169.254.169.254/latest/meta-data', /link-local address \(169\.254\.169\.254\)/],
      ['http://[::1]:8080/', /loopback address \(::1\)/],
      ['http://[::ffff:10.0.0.5]/', /private address \(::ffff:a00:5\)/],
      ['https://10.1.2.3/admin', /private address \(10\.1\.2\.3\)/],
      ['http://0.0.0.0/', /unspecified address/],
    ];
    for (const [url, reason] of cases) {
      const result = await checkUrl(url, { allowPrivate: false, lookup });
      assert.equal(result.ok, false, url);
      assert.ok(!result.ok && result.code === 'refused', url);
      assert.match(!result.ok ? result.reason : '', reason);
      assert.match(!result.ok ? result.reason : '', /Showreel only records public pages\.$/);
    }
    assert.deepEqual(await checkUrl('https://93.184.216.34/', { allowPrivate: false, lookup }), { ok: true, addresses: ['93.184.216.34'] });
  });

  it('refuses localhost and *.localhost by name', async () => {
    const lookup: LookupAll = async () => [{ address: '93.184.216.34', family: 4 }];
    for (const url of ['http://localhost/', 'http://LOCALHOST.:3000/', 'http://app.localhost/']) {
      const result = await checkUrl(url, { allowPrivate: false, lookup });
      assert.ok(!result.ok && /localhost/.test(result.reason), url);
    }
  });

  it('refuses a host when any of its addresses is refused', async () => {
    const records: Record<string, Array<{ address: string; family: number }>> = {
      'public.example': [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::248', family: 6 }],
      'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }],
      'metadata.example': [{ address: '169.254.169.254', family: 4 }],
      'v6.example': [{ address: 'fd00::5', family: 6 }],
    };
    const lookup: LookupAll = async (host) => records[host] ?? [];
    assert.deepEqual(await checkUrl('https://public.example/pricing', { allowPrivate: false, lookup }), {
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1::248'],
    });
    const mixed = await checkUrl('https://mixed.example/', { allowPrivate: false, lookup });
    // The reason says what kind of address, never which: a name's internal address would otherwise be readable by
    // anyone who can type a URL (a DNS oracle). The address is kept apart, for the server's log.
    assert.deepEqual(mixed, {
      ok: false,
      code: 'refused',
      reason: 'url resolves to a private address; Showreel only records public pages.',
      resolvedAddress: '10.0.0.5',
    });
    const metadata = await checkUrl('http://metadata.example/', { allowPrivate: false, lookup });
    assert.ok(!metadata.ok && metadata.reason === 'url resolves to a link-local address; Showreel only records public pages.');
    assert.equal(!metadata.ok && metadata.resolvedAddress, '169.254.169.254');
    const v6 = await checkUrl('http://v6.example/', { allowPrivate: false, lookup });
    assert.ok(!v6.ok && /private address;/.test(v6.reason) && !v6.reason.includes('fd00'));
  });

  it('still names a private address the user typed: it tells them nothing they did not know', async () => {
    const typed = await checkUrl('http://10.0.0.5/', { allowPrivate: false });
    assert.ok(!typed.ok && typed.reason === 'url points at a private address (10.0.0.5); Showreel only records public pages.');
  });

  it('reports a host that does not resolve, and a resolver that fails or hangs', async () => {
    const notFound = await checkUrl('https://nope.invalid/', { allowPrivate: false });
    assert.deepEqual(notFound, { ok: false, code: 'unresolved', reason: "url's host does not resolve (nope.invalid); check the address." });
    const failing: LookupAll = async () => {
      throw Object.assign(new Error('temporary failure'), { code: 'EAI_AGAIN' });
    };
    const temporary = await checkUrl('https://flaky.example/', { allowPrivate: false, lookup: failing });
    assert.ok(!temporary.ok && temporary.code === 'unresolved' && /EAI_AGAIN/.test(temporary.reason));
    const hanging: LookupAll = () => new Promise(() => undefined);
    const slow = await checkUrl('https://slow.example/', { allowPrivate: false, lookup: hanging, lookupTimeoutMs: 50 });
    assert.ok(!slow.ok && slow.code === 'unresolved');
  });

  it('checks nothing but the scheme with allowPrivate, and never resolves', async () => {
    const lookup: LookupAll = async () => assert.fail('allowPrivate must not resolve');
    for (const url of ['http://127.0.0.1:3000/', 'http://localhost/', 'https://acme.example', 'http://169.254.169.254/']) {
      assert.deepEqual(await checkUrl(url, { allowPrivate: true, lookup }), { ok: true, addresses: [] });
    }
  });

  it('assertPublicUrl throws a ValidationError with the reason', async () => {
    await assert.rejects(assertPublicUrl('http://10.0.0.5/', { allowPrivate: false }), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.status, 400);
      assert.equal(error.message, 'url points at a private address (10.0.0.5); Showreel only records public pages.');
      return true;
    });
    assert.deepEqual(await assertPublicUrl('http://8.8.8.8/', { allowPrivate: false }), ['8.8.8.8']);
  });
});

describe('project URLs with SHOWREEL_ALLOW_PRIVATE_URLS off', () => {
  let app: TestApp;
  let alice: TestUser;

  before(async () => {
    app = await startTestApp({ SHOWREEL_ALLOW_PRIVATE_URLS: '0' });
    alice = await app.createUser();
  });
  after(() => app.stop());

  const privateUrls: Array<[string, RegExp]> = [
    ['http://127.0.0.1/', /loopback address \(127\.0\.0\.1\)/],
    ['http://169.254.169.254/latest/meta-data', /link-local address \(169\.254\.169\.254\)/],
    ['http://[::1]/', /loopback address \(::1\)/],
    ['http://localhost:3000/', /localhost/],
    ['http://192.168.0.10/', /private address/],
  ];

  it('refuses a private URL at creation with a 400 and creates nothing', async () => {
    for (const [url, reason] of privateUrls) {
      const response = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Internal', url } });
      assert.equal(response.status, 400, url);
      assert.match(response.body.error, reason);
      assert.match(response.body.error, /Showreel only records public pages/);
    }
    const listed = await app.api('/api/v1/projects', { key: alice.key });
    assert.deepEqual(listed.body.projects, []);
  });

  it('refuses a host name that resolves to a private address without saying which address', async () => {
    // This machine's own name resolves to one of its own addresses (loopback or a private network) on any Linux
    // host or container (/etc/hosts); that is the internal DNS answer a stranger must not read back. The same
    // decision with a resolver of the test's own is checked above (checkUrl); this is the answer over HTTP.
    const name = os.hostname();
    const addresses = (await dns.promises.lookup(name, { all: true }).catch(() => [])).map((r) => r.address);
    assert.ok(addresses.length > 0, `this machine's name (${name}) should resolve, as it does in /etc/hosts of any Linux host or container`);
    const url = `http://${name}:8080/admin`;
    const created = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Internal by name', url } });
    assert.equal(created.status, 400, created.text);
    assert.match(created.body.error, /^url resolves to an? [a-z -]+ address; Showreel only records public pages\.$/);
    for (const address of addresses) assert.ok(!created.text.includes(address), `${address} is not in ${created.text}`);
    const project = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Public', url: 'http://93.184.216.34/' } });
    const updated = await app.api(`/api/v1/projects/${project.body.id}`, { key: alice.key, method: 'PATCH', body: { url } });
    assert.equal(updated.status, 400);
    for (const address of addresses) assert.ok(!updated.text.includes(address));
  });

  it('accepts a host that does not resolve yet: the recorder checks again before every recording', async () => {
    const response = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Not live yet', url: 'https://acme.invalid/' } });
    assert.equal(response.status, 201);
    await assert.rejects(assertPublicUrl('https://acme.invalid/', { allowPrivate: false }), /url's host does not resolve \(acme\.invalid\)/);
  });

  it('accepts a public address and refuses an update to a private one, keeping the old URL', async () => {
    const created = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Public', url: 'http://93.184.216.34/' } });
    assert.equal(created.status, 201);
    for (const [url, reason] of privateUrls) {
      const updated = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key, method: 'PATCH', body: { url } });
      assert.equal(updated.status, 400, url);
      assert.match(updated.body.error, reason);
    }
    const renamed = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key, method: 'PATCH', body: { name: 'Renamed' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.url, 'http://93.184.216.34/');
  });
});
