import { createCipheriv, createDecipheriv, hash, randomBytes, randomFillSync, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { QuotaError } from './errors.js';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** Random, URL-safe token text with `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return secureRandomBytes(bytes).toString('base64url');
}

const RANDOM_POOL_SIZE = 4096;
const randomPool = Buffer.alloc(RANDOM_POOL_SIZE);
let randomPoolOffset = RANDOM_POOL_SIZE;

/**
 * Bytes from the CSPRNG, drawn from a pool that is refilled 4 KiB at a time (as Node batches randomUUID). Each
 * `crypto.randomBytes` call costs ~2 µs: a job object, and a getpid() system call in OpenSSL's fork check; a new
 * project draws four times (two secrets, two IVs), 5–6% of the API's main thread under POST /projects
 * (BENCH_CPU_PROF). Each byte is handed out once: the offset only moves forward, a draw is copied out, and the
 * pool's copy is zeroed so a secret does not linger there.
 */
export function secureRandomBytes(size: number): Buffer {
  // Large draws, and sizes that are not a count of bytes, get crypto.randomBytes's answer, as before the pool.
  if (!Number.isInteger(size) || size < 0 || size > RANDOM_POOL_SIZE / 8) return randomBytes(size);
  if (randomPoolOffset + size > RANDOM_POOL_SIZE) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  const drawn = Buffer.from(randomPool.subarray(randomPoolOffset, randomPoolOffset + size));
  randomPool.fill(0, randomPoolOffset, randomPoolOffset + size);
  randomPoolOffset += size;
  return drawn;
}

/** Lookup hash for high-entropy secrets (API keys, session tokens): fast is fine, guessing is not. */
/** One-shot `crypto.hash`: a fraction of createHash's cost, and every authenticated request pays it. */
export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  // Hash first so inputs of different lengths compare in the same time too.
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

// scrypt parameters: N=2^15, r=8, p=1 (OWASP's minimum for scrypt), 64-byte key.
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * scrypt runs on libuv's thread pool (UV_THREADPOOL_SIZE threads, 4 by default), which file reads and DNS lookups
 * share: left alone, a burst of sign-ins queues dozens of 32 MB, ~100 ms hashes ahead of every file read. At most
 * half the pool hashes at a time; the rest wait their turn here, and past MAX_WAITING_HASHES a caller gets a 429
 * rather than an ever longer queue (issue 15).
 */
const HASH_SLOTS = Math.max(1, Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2));
const MAX_WAITING_HASHES = 64;
let hashesRunning = 0;
const waitingForHash: Array<() => void> = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashesRunning < HASH_SLOTS) hashesRunning++;
  else {
    if (waitingForHash.length >= MAX_WAITING_HASHES) throw new QuotaError('Too many password checks are in progress; try again in a moment.', 1);
    // The slot is handed over by the finishing hash, so the count stays the same.
    await new Promise<void>((resolve) => waitingForHash.push(resolve));
  }
  try {
    return await work();
  } finally {
    const next = waitingForHash.shift();
    if (next) next();
    else hashesRunning--;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await withHashSlot(() => scrypt(password, salt, 64, SCRYPT));
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await withHashSlot(() =>
    scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem }),
  );
  return timingSafeEqual(actual, expected);
}

/**
 * Secrets that must be shown again later (project signing and webhook secrets) are encrypted with AES-256-GCM
 * under the master key. Format: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes.');
  return {
    seal(plaintext) {
      const iv = secureRandomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed secret.');
      const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export function parseMasterKey(text: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}

/**
 * SHOWREEL_MASTER_KEY when set; otherwise a key generated once into the data dir (mode 0600) so a self-hosted
 * install works out of the box and keeps decrypting after restarts.
 */
export async function loadMasterKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return parseMasterKey(configured);
  const file = path.join(dataDir, 'master.key');
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 });
  await fs.writeFile(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return parseMasterKey((await fs.readFile(file, 'utf8')).trim());
}
