import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../platform/config.js';
import { NotFoundError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Sql } from '../platform/database.js';
import { describeIssues, emailAddress } from '../platform/validation.js';
import { plans } from '../users/events.js';
import { UsageError, oneOf, requiredOption, stringOption } from './command.js';
import type { ServiceCommand } from './service-command.js';

const metadata = { actor: 'admin-cli', requestId: null, causationId: null, correlationId: null };

const createUserInput = z.object({
  email: emailAddress,
  password: z.string().min(8).max(1024),
  credits: z.coerce.number().int().min(0).max(1_000_000).optional(),
  plan: z.enum(plans).default('free'),
});

const createUser: ServiceCommand = {
  name: 'admin create-user',
  summary: 'Register a user with a first live key (prints its id, email and the key)',
  usage: 'admin create-user --email E --password P [--credits N] [--plan free|pro] [--admin]',
  help: [
    '--email E        the user’s email',
    '--password P     at least 8 characters',
    '--credits N      starting credits (default: SHOWREEL_SIGNUP_CREDITS)',
    '--plan PLAN      free or pro (default: free)',
    '--admin          an administrator',
  ],
  options: { email: { type: 'string' }, password: { type: 'string' }, credits: { type: 'string' }, plan: { type: 'string' }, admin: { type: 'boolean' } },
  async run(parsed, { config, logger, print }) {
    const parsedInput = createUserInput.safeParse({
      email: requiredOption(parsed, 'email'),
      password: requiredOption(parsed, 'password'),
      credits: stringOption(parsed, 'credits'),
      plan: stringOption(parsed, 'plan'),
    });
    if (!parsedInput.success) throw new UsageError(describeIssues(parsedInput.error.issues));
    const { prepareRegistration, registerUser } = await import('../users/index.js');
    const { createApiKey } = await import('../keys/index.js');
    const { inTransaction } = await import('../platform/command.js');
    const prepared = await prepareRegistration({
      email: parsedInput.data.email,
      password: parsedInput.data.password,
      isAdmin: parsed.values.admin === true,
      plan: parsedInput.data.plan,
      startingCredits: parsedInput.data.credits ?? config.SHOWREEL_SIGNUP_CREDITS,
    });
    print(
      await withDatabase(config, logger, async (sql) => {
        // The user and their first live key commit together: never a user without a key.
        const key = await inTransaction(sql, async (tx) => {
          await registerUser(tx, prepared, metadata);
          return createApiKey(tx, { userId: prepared.userId, name: 'Default live key', type: 'live', projectId: null, allowedDomains: null }, metadata);
        });
        return { user_id: prepared.userId, email: prepared.email, live_key: key.key };
      }),
    );
  },
};

const setPlan: ServiceCommand = {
  name: 'admin set-plan',
  summary: 'Move a user to another plan',
  usage: 'admin set-plan --email E --plan free|pro',
  help: ['--email E        the user’s email', '--plan PLAN      free or pro'],
  options: { email: { type: 'string' }, plan: { type: 'string' } },
  async run(parsed, { config, logger, print }) {
    const email = requiredOption(parsed, 'email');
    const plan = oneOf(requiredOption(parsed, 'plan'), plans, 'plan')!;
    const { changePlan, findUserByEmail } = await import('../users/index.js');
    const { inTransaction } = await import('../platform/command.js');
    print(
      await withDatabase(config, logger, async (sql) => {
        const user = await findUserByEmail(sql, email);
        if (!user) throw new NotFoundError('User');
        await inTransaction(sql, (tx) => changePlan(tx, user.id, plan, metadata));
        return { user_id: user.id, email: user.email, plan };
      }),
    );
  },
};

const grantCreditsInput = z.object({
  email: emailAddress,
  credits: z.coerce.number().int().min(1).max(1_000_000),
  reason: z.string().trim().min(1).max(500),
});

/**
 * The way credits come into being on a service without payments (SHOWREEL_PAYMENTS=none, issue 34): an audited
 * `bonus` transaction, the reason as its description, the operator (this machine's user) in the event.
 */
const grantCredits: ServiceCommand = {
  name: 'admin grant-credits',
  summary: 'Grant a user credits (a bonus transaction with the reason as its description)',
  usage: 'admin grant-credits --email E --credits N --reason "…"',
  help: ['--email E        the user’s email', '--credits N      how many credits, 1 to 1000000', '--reason TEXT    why (shown in the user’s history), 1 to 500 characters'],
  options: { email: { type: 'string' }, credits: { type: 'string' }, reason: { type: 'string' } },
  async run(parsed, { config, logger, print }) {
    const parsedInput = grantCreditsInput.safeParse({
      email: requiredOption(parsed, 'email'),
      credits: requiredOption(parsed, 'credits'),
      reason: requiredOption(parsed, 'reason'),
    });
    if (!parsedInput.success) throw new UsageError(describeIssues(parsedInput.error.issues));
    const { email, credits, reason } = parsedInput.data;
    const { findUserByEmail } = await import('../users/index.js');
    const { grantCredits: grant } = await import('../credits/index.js');
    const { inTransaction } = await import('../platform/command.js');
    const operator = operatorName();
    print(
      await withDatabase(config, logger, async (sql) => {
        const user = await findUserByEmail(sql, email);
        if (!user) throw new NotFoundError(`User ${email}`);
        const granted = await inTransaction(sql, (tx) =>
          grant(tx, { userId: user.id, credits, reason, grantedBy: operator }, { ...metadata, actor: `admin-cli:${operator}` }),
        );
        return { user_id: user.id, email: user.email, granted: credits, balance: granted.balance, transaction: granted.transaction };
      }),
    );
  },
};

const resetLinkInput = z.object({
  email: emailAddress,
  minutes: z.coerce.number().int().min(5).max(7 * 24 * 60).default(60),
});

/**
 * Password reset without mail (issue 35): a one-time link to hand to the user, who sets a new password with it
 * (auth/reset-links.ts). Issuing one replaces the user's unused links; using it signs them out everywhere.
 */
const resetLink: ServiceCommand = {
  name: 'admin reset-link',
  summary: 'Issue a one-time link that lets a user set a new password (prints the link)',
  usage: 'admin reset-link --email E [--minutes N]',
  help: ['--email E        the user’s email', '--minutes N      how long the link works, 5 to 10080 (default: 60)'],
  options: { email: { type: 'string' }, minutes: { type: 'string' } },
  async run(parsed, { config, logger, print }) {
    const parsedInput = resetLinkInput.safeParse({ email: requiredOption(parsed, 'email'), minutes: stringOption(parsed, 'minutes') });
    if (!parsedInput.success) throw new UsageError(describeIssues(parsedInput.error.issues));
    const { findUserByEmail } = await import('../users/index.js');
    const { issueResetLink, RESET_LINK_PATH } = await import('../auth/reset-links.js');
    print(
      await withDatabase(config, logger, async (sql) => {
        const user = await findUserByEmail(sql, parsedInput.data.email);
        if (!user) throw new NotFoundError(`User ${parsedInput.data.email}`);
        const link = await issueResetLink(sql, user.id, parsedInput.data.minutes);
        logger.info({ userId: user.id, operator: operatorName(), expiresAt: link.expiresAt }, 'password reset link issued');
        return { user_id: user.id, email: user.email, reset_url: `${config.PUBLIC_URL}${RESET_LINK_PATH}${link.token}`, expires_at: link.expiresAt.toISOString() };
      }),
    );
  },
};

/** Who runs the command, as the machine knows them: recorded with a grant. */
function operatorName(): string {
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

const replay: ServiceCommand = {
  name: 'admin replay',
  summary: 'Rebuild the read models from the event streams',
  usage: 'admin replay',
  async run(_parsed, { config, logger, print }) {
    const { rebuildReadModels } = await import('../platform/projections.js');
    print(await withDatabase(config, logger, (sql) => sql.begin((tx) => rebuildReadModels(tx))));
  },
};

/** `showreel admin <command>`: each prints exactly one JSON object on stdout; logs go to stderr. */
export const adminCommands: ServiceCommand[] = [createUser, setPlan, grantCredits, resetLink, replay];

async function withDatabase<T>(config: Config, logger: Logger, work: (sql: Sql) => Promise<T>): Promise<T> {
  const { openDatabase } = await import('../platform/open-database.js');
  // The usual slip: the server runs with another SHOWREEL_DATA_DIR (or a DATABASE_URL) than this command, which
  // then writes to a new, empty cluster that no server reads, and prints a key that works nowhere.
  if (!config.DATABASE_URL && !existsSync(path.join(config.SHOWREEL_DATA_DIR, 'pg', 'PG_VERSION'))) {
    process.stderr.write(
      `showreel: no database in ${path.resolve(config.SHOWREEL_DATA_DIR)} yet, so a new one is created there. ` +
        'A server started with another SHOWREEL_DATA_DIR or a DATABASE_URL will not see what this command writes: run it with the same settings as the server.\n',
    );
  }
  const database = await openDatabase(config, logger, { poolSize: 4 });
  try {
    return await work(database.sql);
  } finally {
    await database.close();
  }
}
