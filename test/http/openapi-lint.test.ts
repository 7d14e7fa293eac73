import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../helpers/app.js';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

describe('the served OpenAPI document, linted as a client would', () => {
  let app: TestApp;
  let work: string;

  before(async () => {
    // A deployment's address: with the default PUBLIC_URL (http://localhost:PORT) redocly rightly warns that the
    // one server points at localhost, which is a fact about a development instance, not about the document.
    app = await startTestApp({ PUBLIC_URL: 'https://showreel.test' });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-openapi-lint-'));
  });
  after(async () => {
    await app.stop();
    await fs.rm(work, { recursive: true, force: true });
  });

  it('has no error and no warning under redocly lint with the recommended-strict rules (examples checked against their schemas)', async () => {
    const response = await app.api('/api/v1/openapi.json');
    assert.equal(response.status, 200);
    const file = path.join(work, 'openapi.json');
    await fs.writeFile(file, response.text);

    // The CLI itself (what `npx @redocly/cli lint` runs), offline: no telemetry, no update check.
    const { stdout } = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--extends=recommended-strict', '--format=json'], {
      cwd: work,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      // redocly exits 1 when it finds errors; its report is still on stdout.
      if (error.stdout) return { stdout: error.stdout };
      throw error;
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    assert.deepEqual({ errors: report.totals.errors, warnings: report.totals.warnings, problems }, { errors: 0, warnings: 0, problems: [] });
  });

  it('lets a client use one base URL: the site, with every API path under /api/v1', async () => {
    const document = (await app.api('/api/v1/openapi.json')).body;
    assert.deepEqual(document.servers, [{ url: 'https://showreel.test', description: 'This service (PUBLIC_URL)' }]);
    assert.ok(document.info.license.name);
    // Operations that need no credential say so, the sign-in and device-login ones included.
    for (const [route, method] of [['/api/v1/device/code', 'post'], ['/api/v1/device/token', 'post'], ['/api/v1/auth/sign-in', 'post'], ['/share/{id}', 'get'], ['/oembed', 'get']] as const) {
      assert.deepEqual(document.paths[route][method].security, [], `${method} ${route}`);
    }
    assert.ok(document.paths['/api/v1/usage'].get.security.length > 0);
  });
});
