#!/usr/bin/env node
// The `showreel` command. Runs the TypeScript sources through tsx, on Node.js 22 or newer: when the node that
// started us is older, re-run under the Node 22 that the `node` npm dependency installs into node_modules/.bin.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  const bundled = path.join(root, 'node_modules', '.bin', 'node');
  if (!existsSync(bundled)) {
    console.error(`Showreel needs Node.js 22 or newer (this is ${process.version}); run "npm ci" to install it locally.`);
    process.exit(1);
  }
  const result = spawnSync(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'src', 'cli', 'main.ts'));
