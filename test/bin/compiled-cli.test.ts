import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs module of the bin folder, without types
import { compiledCli } from '../../bin/compiled-cli.mjs';

const compile = compiledCli as (root: string) => Promise<string | null>;

/**
 * The `showreel` command runs compiled when it can: a project whose sources are a main module that finds a file next
 * to itself (as the migrations and static files are found) and loads a part of itself only when used.
 */
describe('the compiled showreel command', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'showreel-compiled-'));
    await mkdir(path.join(root, 'src', 'cli'), { recursive: true });
    await writeSources('one');
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function writeSources(version: string): Promise<void> {
    await writeFile(
      path.join(root, 'src', 'cli', 'main.ts'),
      `const here: string = import.meta.dirname;
       const url: string = import.meta.url;
       const { part } = await import('./part.js');
       (globalThis as Record<string, unknown>).compiled = { here, url, part: part() };\n`,
    );
    await writeFile(path.join(root, 'src', 'cli', 'part.ts'), `export const part = (): string => '${version}';\n`);
  }

  async function run(): Promise<{ entry: string; seen: { here: string; url: string; part: string } }> {
    const entry = await compile(root);
    assert.ok(entry, 'compiled');
    await import(`${entry}?run=${Math.random()}`);
    return { entry, seen: (globalThis as unknown as { compiled: { here: string; url: string; part: string } }).compiled };
  }

  it('is one module in node_modules/.cache that still finds files next to each source', async () => {
    const { entry, seen } = await run();
    assert.ok(fileURLToPath(entry).startsWith(path.join(root, 'node_modules', '.cache', 'showreel', 'cli-')), entry);
    assert.equal(seen.here, path.join(root, 'src', 'cli'));
    assert.equal(fileURLToPath(seen.url), path.join(root, 'src', 'cli', 'main.ts'));
    assert.equal(seen.part, 'one');
  });

  it('is used again while the sources are unchanged, and built again once one changes', async () => {
    const first = await compile(root);
    assert.equal(await compile(root), first);
    await writeSources('two');
    const { entry, seen } = await run();
    assert.notEqual(entry, first);
    assert.equal(seen.part, 'two');
    // the copy before is kept for the hour a command that started on it may still run
    assert.equal((await readdir(path.join(root, 'node_modules', '.cache', 'showreel'))).length, 2);
  });

  it('is not had when the sources do not compile, so the command runs them through tsx', async () => {
    await writeFile(path.join(root, 'src', 'cli', 'part.ts'), 'export const part = ( => ;\n');
    assert.equal(await compile(root), null);
  });
});
