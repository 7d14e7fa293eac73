import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration comes from the environment only, checked once at boot. A bad variable stops the process with one
 * line per problem, naming the variable, so an operator can fix all of them in one go.
 */
const booleanFlag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/**
 * Recordings a worker runs at once when WORKER_CONCURRENCY is unset: one per core, as many as the memory holds (a
 * 1080p recording's process tree peaks near 1.5 GB; 2 GiB each leaves the rest of the machine room), at most 8.
 * Frame-controlled capture renders each frame before it is taken, so a busy CPU makes a recording slower, never
 * different: two recordings at once beside a CPU burner on two cores skipped no step and repeated no moving frame
 * (`npm run bench:render -- --concurrent 2`); more than one per core would only queue inside the CPU.
 */
export function defaultWorkerConcurrency(cores = os.availableParallelism(), memoryBytes = os.totalmem()): number {
  return Math.max(1, Math.min(cores, Math.floor(memoryBytes / 2 ** 31), 8));
}

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SHOWREEL_DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL').optional(),
  SHOWREEL_MASTER_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex characters or base64')
    .optional(),
  // PostgreSQL connections per process. Default: 5 per core of this machine (a request holds one only while its
  // statements run; more than the server's cores can work on only queue inside PostgreSQL), at least 4, at most 20.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(Math.min(20, Math.max(4, os.availableParallelism() * 5))),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHOWREEL_SIGNUP_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(10),
  // Self-service sign-up (POST /auth/sign-up, the dashboard's form) grants SHOWREEL_SIGNUP_CREDITS unless this is
  // off; the account then starts at 0 (a bonus transaction of 0 still opens it). Admin-created users are unaffected.
  SHOWREEL_SIGNUP_BONUS: booleanFlag.default(true),
  // Sign-ups a minute per client address (IPv6 by /64), counted before any password is hashed; 0 = unlimited.
  SHOWREEL_SIGN_UP_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(5),
  SHOWREEL_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(24 * 30),
  SHOWREEL_RUN_WORKER: booleanFlag.default(true),
  // Versions of a demo whose media stay addressable (?v=N) and restorable (issue 35): the most recent ones, plus
  // always the one shown. Older versions' files are removed by a job after each new version.
  SHOWREEL_VERSIONS_KEPT: z.coerce.number().int().min(1).max(1000).default(5),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(defaultWorkerConcurrency()),
  // A running job whose heartbeat is older than this belongs to a dead worker and is handed to another.
  SHOWREEL_WORKER_STALE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  SHOWREEL_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  // Media storage: local disk under SHOWREEL_DATA_DIR/media, or any S3-compatible bucket (AWS, MinIO, R2).
  SHOWREEL_STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  // Both or neither; with neither the SDK's default credential chain applies (AWS_* variables, instance role).
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  // Requests a minute on create, refresh, restyle, embed generate and upload; 0 turns a limit off.
  SHOWREEL_RATE_LIMIT_PER_KEY: z.coerce.number().int().min(0).default(120),
  SHOWREEL_RATE_LIMIT_PER_USER: z.coerce.number().int().min(0).default(240),
  // New demos a publishable key may start a UTC day, and all publishable keys of one project together (issue 34:
  // a key in a page can be copied; this bounds what a copy can spend). Reuses never count; 0 turns a cap off.
  SHOWREEL_EMBED_DAILY_GENERATIONS_PER_KEY: z.coerce.number().int().min(0).default(50),
  SHOWREEL_EMBED_DAILY_GENERATIONS_PER_PROJECT: z.coerce.number().int().min(0).default(100),
  // Progress WebSockets (issue 34): open at once per client address and per demo (beyond: the upgrade is answered
  // 429), closed after this long without a progress message, and after this long whatever happens.
  SHOWREEL_PROGRESS_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  SHOWREEL_PROGRESS_SOCKETS_PER_DEMO: z.coerce.number().int().min(1).default(200),
  SHOWREEL_PROGRESS_SOCKET_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  SHOWREEL_PROGRESS_SOCKET_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  // Sign-in attempts a minute, per client address (IPv6 by /64) and per email, counted before any password is
  // hashed; 0 turns a limit off.
  SHOWREEL_SIGN_IN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(20),
  SHOWREEL_SIGN_IN_LIMIT_PER_EMAIL: z.coerce.number().int().min(0).default(10),
  // Reverse proxies (load balancers) in front of the API that append to X-Forwarded-For: the client address is the
  // one this many hops back. 0 (default): the TCP peer, and X-Forwarded-For is ignored (a client can forge it).
  SHOWREEL_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
  // What one client address can hold of the HTTP server (issue 34): connections open at once (beyond: 429 and
  // closed; 0 = unlimited; not applied behind SHOWREEL_TRUSTED_PROXIES, whose peer is the proxy), and how long a
  // request body may go without a byte (408). Inactivity, not total time: a large upload on a slow line still works.
  SHOWREEL_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(64),
  SHOWREEL_BODY_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // View analytics (issue 38): raw beacons are kept this many days (the hourly rollups stay), and one client
  // address may send this many beacons a minute (a view sends about twenty; 0 = unlimited), counted per process.
  SHOWREEL_ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SHOWREEL_BEACON_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(600),
  // Device logins started per client address per minute (POST /device/code needs no credential); 0 = unlimited.
  SHOWREEL_DEVICE_CODE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(10),
  // Wrong user codes a minute at POST /device/authorize (the dashboard's /app/device), per client address and per
  // signed-in user; a code that matches gives its attempt back. 0 = unlimited. Issue 34: guessing a code is a login.
  SHOWREEL_DEVICE_AUTHORIZE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(10),
  SHOWREEL_DEVICE_AUTHORIZE_LIMIT_PER_USER: z.coerce.number().int().min(0).default(10),
  // A demo video: 200 MB holds ten minutes of a 1080p screen recording at ~2.5 Mbit/s, or three minutes at 8.
  SHOWREEL_MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(200 * 1024 * 1024),
  // What an uploaded video may be (checked with ffprobe before anything is derived from it; 400 beyond), and how
  // many uploads a user may have in flight (429 beyond) and start in an hour (429 beyond). Issue 34.
  SHOWREEL_UPLOAD_MAX_RESOLUTION: z.string().regex(/^\d+x\d+$/, 'must be WIDTHxHEIGHT, e.g. 3840x2160').default('3840x2160'),
  SHOWREEL_UPLOAD_MAX_FPS: z.coerce.number().positive().max(1000).default(60),
  SHOWREEL_UPLOAD_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  SHOWREEL_UPLOADS_IN_FLIGHT: z.coerce.number().int().min(1).max(100).default(2),
  SHOWREEL_UPLOADS_PER_HOUR: z.coerce.number().int().min(0).default(20),
  // ffmpeg and ffprobe: these paths, else the ones on PATH, else the binaries installed with the npm packages.
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  // Chromium: this executable, else the one shipped in @sparticuz/chromium.
  CHROMIUM_PATH: z.string().min(1).optional(),
  // The recorder's Chromium (src/pipeline/browser/sandbox.ts): `auto` runs it with its sandbox where the kernel
  // allows (a warning says when not), `require` refuses to start without, `off` is the old unsandboxed way.
  // When Showreel runs as root, Chromium runs as SHOWREEL_BROWSER_USER (a name, or uid[:gid]; never root).
  SHOWREEL_BROWSER_SANDBOX: z.enum(['auto', 'require', 'off']).default('auto'),
  SHOWREEL_BROWSER_USER: z.string().min(1).default('nobody'),
  // Let projects and pages reach loopback, private and link-local addresses (development and tests only).
  SHOWREEL_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
  // Try a project URL when it is saved (one GET, 5 s at most) and refuse clear failures: nothing listening, 404/410.
  // Off: the URL is only checked for its address, as before (tests whose project hosts are made up).
  SHOWREEL_CHECK_PROJECT_URLS: booleanFlag.default(true),
  // Planner: the offline heuristic, or any OpenAI-compatible chat API (OpenAI, Ollama, vLLM); every failure of the
  // latter falls back to the heuristic. The key is optional: local servers usually need none.
  SHOWREEL_PLANNER: z.enum(['heuristic', 'openai']).default('heuristic'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.openai.com/v1'),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  // Narration (issue 59): the voice that reads a demo's script. `none` (default): a demo asking for narration is
  // refused with the reason; `openai`: any OpenAI-compatible `/audio/speech` endpoint (OpenAI, or a local server),
  // at SHOWREEL_SPEECH_BASE_URL (else OPENAI_BASE_URL) with SHOWREEL_SPEECH_API_KEY (else OPENAI_API_KEY);
  // `elevenlabs`: ElevenLabs' text-to-speech API with ELEVENLABS_API_KEY.
  SHOWREEL_SPEECH: z.enum(['none', 'openai', 'elevenlabs']).default('none'),
  SHOWREEL_SPEECH_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SHOWREEL_SPEECH_API_KEY: z.string().min(1).optional(),
  SHOWREEL_SPEECH_MODEL: z.string().min(1).optional(),
  ELEVENLABS_API_KEY: z.string().min(1).optional(),
  ELEVENLABS_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.elevenlabs.io'),
  // Payments (issue 34): `none` (default) sells nothing, an administrator grants credits; `stripe` sells packs through
  // Stripe Checkout and its webhook. STRIPE_API_BASE points the SDK elsewhere than api.stripe.com (tests).
  SHOWREEL_PAYMENTS: z.enum(['none', 'stripe']).default('none'),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_…, sk_test_… or a restricted rk_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, 'must be the endpoint’s signing secret (whsec_…)').optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Omit<Environment, 'PUBLIC_URL' | 'SHOWREEL_DATA_DIR'> {
  PUBLIC_URL: string;
  /** false when PUBLIC_URL was derived from PORT; the server then fills in the port it really got (PORT=0). */
  PUBLIC_URL_EXPLICIT: boolean;
  SHOWREEL_DATA_DIR: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = environmentSchema.safeParse(present);
  // Every problem at once, single-variable and cross-variable alike, so an operator fixes them in one go.
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...crossFieldProblems(present),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const value = parsed.data;
  const publicUrl = (value.PUBLIC_URL ?? `http://localhost:${value.PORT}`).replace(/\/+$/, '');
  return { ...value, PUBLIC_URL: publicUrl, PUBLIC_URL_EXPLICIT: value.PUBLIC_URL !== undefined, SHOWREEL_DATA_DIR: path.resolve(value.SHOWREEL_DATA_DIR) };
}

/** Rules that span several variables, reported in the same one-line-per-problem form. */
function crossFieldProblems(value: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (value.SHOWREEL_STORAGE === 's3' && value.S3_BUCKET === undefined) {
    problems.push('S3_BUCKET: is required when SHOWREEL_STORAGE=s3');
  }
  if ((value.S3_ACCESS_KEY_ID === undefined) !== (value.S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  if (value.SHOWREEL_SPEECH === 'elevenlabs' && value.ELEVENLABS_API_KEY === undefined) {
    problems.push('ELEVENLABS_API_KEY: is required when SHOWREEL_SPEECH=elevenlabs');
  }
  if (value.SHOWREEL_PAYMENTS === 'stripe') {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (value[name] === undefined) problems.push(`${name}: is required when SHOWREEL_PAYMENTS=stripe (see the Payments section of the README)`);
    }
  }
  return problems;
}
