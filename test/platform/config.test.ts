import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, defaultWorkerConcurrency, loadConfig } from '../../src/platform/config.js';

describe('configuration from the environment', () => {
  it('starts with sensible defaults when nothing is set', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 3000);
    assert.equal(config.HOST, '0.0.0.0');
    assert.equal(config.PUBLIC_URL, 'http://localhost:3000');
    assert.equal(config.DATABASE_URL, undefined, 'no DATABASE_URL: the embedded PostgreSQL is used');
    assert.equal(config.SHOWREEL_DATA_DIR, path.resolve('./.data'), 'the data dir is made absolute');
    assert.equal(config.LOG_LEVEL, 'info');
    assert.equal(config.SHOWREEL_RUN_WORKER, true);
    assert.equal(config.WORKER_CONCURRENCY, defaultWorkerConcurrency(), 'as many recordings as this machine holds');
    assert.equal(config.SHOWREEL_SIGNUP_CREDITS, 10);
    assert.equal(config.SHOWREEL_SESSION_TTL_HOURS, 24 * 30);
    assert.equal(config.SHOWREEL_SHUTDOWN_TIMEOUT_MS, 30_000);
  });

  it('runs one recording a core by default, no more than the memory holds, at least one and at most eight', () => {
    const gib = 2 ** 30;
    assert.equal(defaultWorkerConcurrency(2, 23 * gib), 2, 'a two-core worker records two demos at once');
    assert.equal(defaultWorkerConcurrency(1, 8 * gib), 1);
    assert.equal(defaultWorkerConcurrency(8, 4 * gib), 2, 'four GiB hold two recordings, whatever the cores');
    assert.equal(defaultWorkerConcurrency(4, 1 * gib), 1, 'a small machine still records');
    assert.equal(defaultWorkerConcurrency(64, 512 * gib), 8);
  });

  it('derives PUBLIC_URL from PORT unless it is given, and drops trailing slashes', () => {
    assert.equal(loadConfig({ PORT: '8080' }).PUBLIC_URL, 'http://localhost:8080');
    assert.equal(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://showreel.example/' }).PUBLIC_URL, 'https://showreel.example');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://showreel.example/app//' }).PUBLIC_URL, 'https://showreel.example/app');
  });

  it('reads numbers and flags from their text, treats empty variables as unset and ignores unrelated ones', () => {
    const config = loadConfig({
      PORT: '',
      WORKER_CONCURRENCY: '8',
      SHOWREEL_RUN_WORKER: 'no',
      SHOWREEL_SIGNUP_CREDITS: '0',
      DATABASE_URL: 'postgresql://showreel:secret@db.internal:5432/showreel',
      SHOWREEL_DATA_DIR: '/var/lib/showreel',
      PATH: '/usr/bin',
      HOME: '/root',
    });
    assert.equal(config.PORT, 3000);
    assert.equal(config.WORKER_CONCURRENCY, 8);
    assert.equal(config.SHOWREEL_RUN_WORKER, false);
    assert.equal(config.SHOWREEL_SIGNUP_CREDITS, 0);
    assert.equal(config.DATABASE_URL, 'postgresql://showreel:secret@db.internal:5432/showreel');
    assert.equal(config.SHOWREEL_DATA_DIR, '/var/lib/showreel');
    assert.ok(!('PATH' in config) && !('HOME' in config));
    assert.equal(loadConfig({ SHOWREEL_RUN_WORKER: '1' }).SHOWREEL_RUN_WORKER, true);
    assert.equal(loadConfig({ SHOWREEL_RUN_WORKER: 'false' }).SHOWREEL_RUN_WORKER, false);
  });

  it('accepts the master key as 64 hex characters or as base64 of 32 bytes', () => {
    const hex = 'ab'.repeat(32);
    const base64 = Buffer.alloc(32, 7).toString('base64');
    assert.equal(loadConfig({ SHOWREEL_MASTER_KEY: hex }).SHOWREEL_MASTER_KEY, hex);
    assert.equal(loadConfig({ SHOWREEL_MASTER_KEY: base64 }).SHOWREEL_MASTER_KEY, base64);
  });

  it('refuses several bad variables at once, one line per variable, each naming it', () => {
    const bad = {
      PORT: 'eighty',
      PUBLIC_URL: 'ftp://showreel.example',
      DATABASE_URL: 'mysql://root@localhost/showreel',
      SHOWREEL_MASTER_KEY: 'too-short',
      LOG_LEVEL: 'loud',
      SHOWREEL_RUN_WORKER: 'maybe',
      WORKER_CONCURRENCY: '0',
      SHOWREEL_SESSION_TTL_HOURS: '1.5',
    };
    let thrown: unknown;
    try {
      loadConfig({ ...bad, HOST: '127.0.0.1', SHOWREEL_SIGNUP_CREDITS: '25' });
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof ConfigError, `expected a ConfigError, got ${String(thrown)}`);
    assert.equal(thrown.name, 'ConfigError');

    // Exactly one problem per bad variable, each starting with its name, so all can be fixed in one go.
    assert.equal(thrown.problems.length, Object.keys(bad).length, thrown.problems.join('\n'));
    for (const name of Object.keys(bad)) {
      assert.equal(thrown.problems.filter((line) => line.startsWith(`${name}: `)).length, 1, `one line names ${name}`);
    }
    for (const line of thrown.problems) assert.ok(!line.includes('\n'), `one line: ${line}`);
    // The good variables are not blamed.
    assert.ok(!thrown.problems.some((line) => line.startsWith('HOST') || line.startsWith('SHOWREEL_SIGNUP_CREDITS')));
    // The message an operator sees at boot lists them all under one heading.
    const lines = thrown.message.split('\n');
    assert.equal(lines[0], 'Invalid configuration:');
    assert.deepEqual(lines.slice(1).map((line) => line.trim()), thrown.problems);
    // And says what is expected where it can.
    assert.match(thrown.message, /DATABASE_URL: must be a postgres:\/\/ connection URL/);
    assert.match(thrown.message, /SHOWREEL_MASTER_KEY: must be 32 bytes as 64 hex characters or base64/);
  });

  it('refuses a single bad variable with that one line', () => {
    assert.throws(() => loadConfig({ PORT: '70000' }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 1);
      assert.match(error.problems[0]!, /^PORT: /);
      return true;
    });
  });
});
