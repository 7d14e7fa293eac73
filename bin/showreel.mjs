#!/usr/bin/env node
// The `showreel` command. Runs the TypeScript sources through tsx, on Node.js 22 or newer: when the node that
// started us is older, re-run under the Node 22 that the `node` npm dependency installs into node_modules/.bin.
import { spawn } from 'node:child_process';
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
  const child = spawn(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // A signal sent to this process alone (kill, a process manager, make, a container's stop) must reach the real
  // one; Ctrl-C reaches both, which the commands take as one (they ignore a repeat while stopping).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    console.error(`Could not start ${bundled}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: end the same way, so that whoever waits on us sees it.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
} else {
  // One-shot commands run compiled (compiled-cli.mjs: they start in half the time). The service (`start`, `api`,
  // `worker`, or no command) runs its sources through tsx: it starts once, and its stack traces name the sources.
  const command = process.argv.slice(2).find((word) => !word.startsWith('-'));
  const service = command === undefined || ['start', 'api', 'worker'].includes(command);
  const compiled = service ? null : await (await import('./compiled-cli.mjs')).compiledCli(root);
  if (compiled) {
    // An error's stack names the sources' files and lines, not the compiled copy's.
    process.setSourceMapsEnabled(true);
    await import(compiled);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(path.join(root, 'src', 'cli', 'main.ts'));
  }
}

