import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { byteCounter, toReadable } from './byte-counter.js';
import { assertValidKey, assertValidPrefix, contentTypeForKey } from './keys.js';
import type { ObjectInfo, Storage } from './storage.js';

/**
 * Objects as plain files under `root` (SHOWREEL_DATA_DIR/media), one file per key. A write goes to a temp file
 * beside the target (a dot-name, which no valid key can name) and is renamed into place only once complete and
 * synced, so readers see the old object or the new one, never a prefix of it. A crash mid-write can leave an
 * orphaned `.*.tmp` file; it is invisible through this interface.
 */
export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root);
  const fileOf = (key: string): string => {
    assertValidKey(key);
    const file = path.join(base, ...key.split('/'));
    // Unreachable given assertValidKey; kept so a future change to the key rules cannot open a traversal.
    if (!file.startsWith(base + path.sep)) throw new Error(`Storage key escapes the media root: ${key}`);
    return file;
  };

  return {
    kind: 'local',

    async put(key, source, options = {}) {
      const file = fileOf(key);
      const dir = path.dirname(file);
      await fs.mkdir(dir, { recursive: true });
      const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
      const handle = await fs.open(temp, 'wx', 0o644);
      try {
        // Written through the handle we keep open (a write stream would close it), so it can be synced first.
        await pipeline(toReadable(source), byteCounter(options.size), async (chunks: AsyncIterable<Buffer>) => {
          for await (const chunk of chunks) {
            for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten;
          }
        });
        await handle.sync();
        // rename keeps the mtime, so the etag computed here is the one stat() will report for this object.
        const stats = await handle.stat({ bigint: true });
        await handle.close();
        await fs.rename(temp, file);
        return { size: Number(stats.size), etag: etagOf(stats) };
      } catch (error) {
        await handle.close().catch(() => undefined);
        await fs.rm(temp, { force: true });
        throw error;
      }
    },

    async stat(key) {
      const file = fileOf(key);
      let stats: BigIntStats;
      try {
        stats = await fs.stat(file, { bigint: true });
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      return stats.isFile() ? infoOf(key, stats) : null;
    },

    async read(key, range) {
      const file = fileOf(key);
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file, 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      // Opening a directory succeeds on Linux; only regular files are objects.
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        return null;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      const dir = path.join(base, ...prefix.slice(0, -1).split('/'));
      // `demos/x/` names what is under the folder, never a file called `demos/x`.
      const stats = await fs.lstat(dir).catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error)));
      if (stats?.isDirectory()) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Size and nanosecond mtime, as nginx does: each put renames a new file into place, so both move together. */
function etagOf(stats: BigIntStats): string {
  return `"${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}"`;
}

function infoOf(key: string, stats: BigIntStats): ObjectInfo {
  return {
    size: Number(stats.size),
    etag: etagOf(stats),
    contentType: contentTypeForKey(key),
    modifiedAt: new Date(Number(stats.mtimeMs)),
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
