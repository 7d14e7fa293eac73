import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * `npm ci` on a machine whose Node is older than 22 printed 25 lines of "Unsupported engine" for packages that run on
 * the Node 22 the install brings (issue 57). With the project's .npmrc an install says only errors. Shown on a
 * scratch project with the same .npmrc and a local dependency that asks for a Node nobody has, so no registry is
 * reached and the result holds whatever Node runs the test.
 */
describe('an install in this project prints no engine warnings', () => {
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-npmrc-'));
    await fs.mkdir(path.join(dir, 'needs-future-node'));
    await fs.mkdir(path.join(dir, 'app'));
    await fs.writeFile(path.join(dir, 'needs-future-node', 'package.json'), JSON.stringify({ name: 'needs-future-node', version: '1.0.0', engines: { node: '>=99' } }));
    await fs.writeFile(path.join(dir, 'app', 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { 'needs-future-node': 'file:../needs-future-node' } }));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  const install = async (extra: string[]) => {
    // `npm test` hands its own settings (this project's .npmrc among them) to children as npm_config_*: not to this one.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
    const { stdout, stderr } = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...extra], { cwd: path.join(dir, 'app'), env, timeout: 60_000 });
    return stdout + stderr;
  };

  it('says nothing of engines with the project’s .npmrc, and still installs', async () => {
    // Without it, npm warns (the test can fail).
    assert.match(await install([]), /EBADENGINE|Unsupported engine/);
    await fs.copyFile(path.join(root, '.npmrc'), path.join(dir, 'app', '.npmrc'));
    await fs.rm(path.join(dir, 'app', 'node_modules'), { recursive: true, force: true });
    const output = await install([]);
    assert.doesNotMatch(output, /EBADENGINE|Unsupported engine|npm warn/);
    await fs.access(path.join(dir, 'app', 'node_modules', 'needs-future-node', 'package.json'));
    assert.match(await install(['--loglevel=warn']), /up to date|added/, 'a user who wants the warnings can still ask for them');
  });
});
