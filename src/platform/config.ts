import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration comes from the environment only, checked once at boot. A bad variable stops the process with one
 * line per problem, naming the variable, so an operator can fix all of them in one go.
 */
const booleanFlag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHOWREEL_SIGNUP_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(10),
  SHOWREEL_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(24 * 30),
  SHOWREEL_RUN_WORKER: booleanFlag.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  SHOWREEL_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Omit<Environment, 'PUBLIC_URL' | 'SHOWREEL_DATA_DIR'> {
  PUBLIC_URL: string;
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
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const value = parsed.data;
  const publicUrl = (value.PUBLIC_URL ?? `http://localhost:${value.PORT}`).replace(/\/+$/, '');
  return { ...value, PUBLIC_URL: publicUrl, SHOWREEL_DATA_DIR: path.resolve(value.SHOWREEL_DATA_DIR) };
}
