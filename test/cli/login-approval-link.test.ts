import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliLauncher } from '../helpers/cli.js';

/**
 * `showreel login` opens the approval page in a browser, but the link comes from the server's answer: the CLI opens
 * it only when it is http(s) on the service's own origin. A stand-in service answers the device code with links of
 * its choosing; a browser stand-in ($BROWSER, which xdg-open uses) writes down what it was asked to open.
 */
describe('the approval link of showreel login', () => {
  let service: http.Server;
  let serviceUrl = '';
  let work = '';
  let link = '';
  const { run } = cliLauncher({ cwd: () => work, configHome: () => path.join(work, 'config'), serviceUrl: () => serviceUrl });

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-login-link-'));
    service = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/device/code') {
        res.end(JSON.stringify({ device_code: 'd'.repeat(40), user_code: 'BCDF-GHJK', verification_uri: `${serviceUrl}/app/device`, verification_uri_complete: link, expires_in: 60, interval: 1 }));
      } else {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: 'access_denied' }));
      }
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    await fs.writeFile(path.join(work, 'browser.sh'), `#!/bin/sh\necho "$1" >> "${path.join(work, 'opened.txt')}"\n`, { mode: 0o755 });
  });
  after(async () => {
    service.close();
    await fs.rm(work, { recursive: true, force: true });
  });

  /** A desktop session with a browser: what openBrowser needs to try. */
  const withBrowser = () => ({ SHOWREEL_NO_BROWSER: '', CI: '', SSH_CONNECTION: '', DISPLAY: ':0', BROWSER: path.join(work, 'browser.sh'), XDG_CURRENT_DESKTOP: '' });
  const opened = async () => (await fs.readFile(path.join(work, 'opened.txt'), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);

  for (const hostile of ['file:///etc/passwd', 'https://evil.example/app/device?user_code=BCDF-GHJK', 'javascript:alert(1)', 'http://127.0.0.1:1/app/device']) {
    it(`does not open ${hostile}, and says so`, async () => {
      link = hostile;
      const result = await run(['login'], withBrowser());
      assert.notEqual(result.code, 0, 'the stand-in denies the login');
      assert.match(result.stderr, /Warning: the service answered an approval link that is not on http:\/\/127\.0\.0\.1:\d+ .*; it was not opened\./);
      assert.match(result.stderr, /Approve this computer at http:\/\/127\.0\.0\.1:\d+\/app\/device with the code above/);
      assert.doesNotMatch(result.stderr, /opened in your browser/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(await opened(), []);
    });
  }

  it('opens a link on the service’s own origin', async () => {
    link = `${serviceUrl}/app/device?user_code=BCDF-GHJK`;
    const result = await run(['login'], withBrowser());
    assert.match(result.stderr, /\(opened in your browser\)/);
    assert.doesNotMatch(result.stderr, /Warning/);
    // xdg-open hands the link to $BROWSER a moment after the CLI has moved on.
    for (let i = 0; i < 30 && (await opened()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await opened(), [link]);
  });
});
