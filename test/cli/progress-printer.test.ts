import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { progressPrinter } from '../../src/cli/client/progress-printer.js';

function capture(isTTY: boolean) {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; columns: number; cursorTo: () => boolean; clearLine: () => boolean; moveCursor: () => boolean };
  Object.assign(stream, { isTTY, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

const at = (status: string, step: string | null, progress: number) => ({ id: 'd1', status, step, progress, error: null });

describe('the progress a waiting command shows', () => {
  it('writes one line per step in a log, and never goes back when an older report arrives late', () => {
    const out = capture(false);
    let clock = 1_000_000;
    const printer = progressPrinter(out.stream, () => clock);
    printer.update(at('pending', 'recording', 0.4));
    clock += 4_000;
    printer.update(at('pending', 'recording', 0.45));
    clock += 9_000;
    printer.update(at('pending', 'rendering', 0.72));
    printer.update(at('pending', 'recording', 0.7));
    clock += 62_000;
    printer.update(at('ready', null, 1));
    printer.done();
    // Each line says where the demo stands in the dashboard's words (not "pending: recording") and how long the wait
    // has taken so far.
    assert.deepEqual(out.text().split('\n').filter(Boolean), [' 40% recording · 0:00', ' 72% composing · 0:13', ' 72% recording · 0:13', '100% ready · 1:15']);
  });

  it('draws a bar with the step name on a terminal and ends at 100%', () => {
    const out = capture(true);
    const printer = progressPrinter(out.stream);
    printer.update(at('pending', 'planning', 0.1));
    printer.update(at('ready', null, 1));
    printer.done();
    assert.match(out.text(), /\[=+-*\] 10% analysing · 0:0\d/);
    assert.match(out.text(), /\[={30}\] 100% ready · 0:0\d/);
  });
});
