import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { receiveBodyToBuffer } from '../../../src/http/uploads/receive-body.js';
import { toErrorResponse } from '../../../src/http/errors.js';

/** A request body that sends `parts`, then fails as a socket cut mid-body does (or ends, when `cut` is false). */
function body(parts: string[], cut: boolean): IncomingMessage {
  const stream = new Readable({ read() {} });
  for (const part of parts) stream.push(Buffer.from(part));
  setImmediate(() => (cut ? stream.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })) : stream.push(null)));
  return stream as unknown as IncomingMessage;
}

describe('a small upload read into memory', () => {
  it('reads a body of exactly its declared length', async () => {
    assert.equal((await receiveBodyToBuffer(body(['GIF8', '9a'], false), 6)).toString(), 'GIF89a');
  });

  it('answers a client that hangs up mid-body as a 400 of theirs, not as a fault of ours', async () => {
    const error = await receiveBodyToBuffer(body(['GIF8'], true), 6).catch((e: unknown) => e);
    const mapped = toErrorResponse(error);
    assert.equal(mapped.status, 400);
    assert.equal(mapped.fault, false);
    assert.match(mapped.body.error, /interrupted/);
  });
});
