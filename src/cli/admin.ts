import { z } from 'zod';
import { createApiKey } from '../keys/index.js';
import { inTransaction } from '../platform/command.js';
import type { Config } from '../platform/config.js';
import { NotFoundError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { openDatabase } from '../platform/open-database.js';
import { rebuildReadModels } from '../platform/projections.js';
import { describeIssues } from '../platform/validation.js';
import { changePlan, findUserByEmail, plans, prepareRegistration, registerUser } from '../users/index.js';
import { UsageError, requireOption } from './arguments.js';

const metadata = { actor: 'admin-cli', requestId: null, causationId: null, correlationId: null };

const createUserInput = z.object({
  email: z.email().max(320),
  password: z.string().min(8).max(1024),
  credits: z.coerce.number().int().min(0).max(1_000_000).optional(),
  plan: z.enum(plans).default('free'),
});

/** `showreel admin <command>`: prints exactly one JSON object on stdout; logs go to stderr. */
export async function runAdmin(command: string | undefined, options: Map<string, string | true>, config: Config, logger: Logger): Promise<unknown> {
  switch (command) {
    case 'create-user': {
      const parsed = createUserInput.safeParse({
        email: requireOption(options, 'email'),
        password: requireOption(options, 'password'),
        credits: options.get('credits'),
        plan: options.get('plan') ?? undefined,
      });
      if (!parsed.success) throw new UsageError(describeIssues(parsed.error.issues));
      const prepared = await prepareRegistration({
        email: parsed.data.email,
        password: parsed.data.password,
        isAdmin: options.get('admin') === true,
        plan: parsed.data.plan,
        startingCredits: parsed.data.credits ?? config.SHOWREEL_SIGNUP_CREDITS,
      });
      return withDatabase(config, logger, async (sql) => {
        // The user and their first live key commit together: never a user without a key.
        const key = await inTransaction(sql, async (tx) => {
          await registerUser(tx, prepared, metadata);
          return createApiKey(tx, { userId: prepared.userId, name: 'Default live key', type: 'live', projectId: null, allowedDomains: null }, metadata);
        });
        return { user_id: prepared.userId, email: prepared.email, live_key: key.key };
      });
    }
    case 'set-plan': {
      const email = requireOption(options, 'email');
      const plan = z.enum(plans).safeParse(requireOption(options, 'plan'));
      if (!plan.success) throw new UsageError(`--plan must be one of: ${plans.join(', ')}.`);
      return withDatabase(config, logger, async (sql) => {
        const user = await findUserByEmail(sql, email);
        if (!user) throw new NotFoundError('User');
        await inTransaction(sql, (tx) => changePlan(tx, user.id, plan.data, metadata));
        return { user_id: user.id, email: user.email, plan: plan.data };
      });
    }
    case 'replay':
      return withDatabase(config, logger, (sql) => sql.begin((tx) => rebuildReadModels(tx)));
    default:
      throw new UsageError('Usage: showreel admin create-user --email E --password P [--credits N] [--admin] [--plan free|pro]\n       showreel admin set-plan --email E --plan free|pro\n       showreel admin replay');
  }
}

async function withDatabase<T>(config: Config, logger: Logger, work: (sql: Awaited<ReturnType<typeof openDatabase>>['sql']) => Promise<T>): Promise<T> {
  const database = await openDatabase(config, logger, { poolSize: 4 });
  try {
    return await work(database.sql);
  } finally {
    await database.close();
  }
}
