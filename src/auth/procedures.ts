import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { ConflictError, UnauthorizedError } from '../platform/errors.js';
import { hitRateLimits } from '../platform/rate-limit.js';
import { hashPassword, verifyPassword } from '../platform/secrets.js';
import { router, sameOriginProcedure } from '../platform/trpc.js';
import { findUserByEmail, prepareRegistration, registerUser } from '../users/index.js';
import { SESSION_COOKIE, clearedSessionCookie, readCookie, sessionCookie } from './cookies.js';
import { createSession, revokeSession } from './sessions.js';
import { addressBucket, countSignInAttempt } from './sign-in-limits.js';
import { emailAddress } from '../platform/validation.js';

const tags = ['Auth'];

// Compared against when the email is unknown, so a miss costs the same scrypt time as a wrong password.
const decoyHash = hashPassword('decoy password that matches nothing');

const sessionOutput = z.object({ user_id: z.string(), email: z.string(), expires_at: z.string() });

export const authRouter = router({
  signUp: sameOriginProcedure
    .meta({
      openapi: { method: 'POST', path: '/auth/sign-up', tags, protect: false, summary: 'Create an account (with the sign-up bonus) and sign in; sets the showreel.session_token cookie', errorResponses: [400, 403, 409, 429] },
      successStatus: 201,
    })
    .input(
      z.object({
        email: emailAddress,
        // Long enough that a guess is costly; a passphrase of any characters is welcome.
        password: z.string().min(10, 'Choose a password of at least 10 characters.').max(1024),
      }),
    )
    .output(sessionOutput)
    .mutation(async ({ ctx, input }) => {
      // Counted before the password is hashed, per address: sign-ups are free to send and each one hashes.
      await hitRateLimits(ctx.sql, [{ bucket: `sign-up:address:${addressBucket(ctx.clientAddress)}`, limit: ctx.config.SHOWREEL_SIGN_UP_LIMIT_PER_ADDRESS }], 'sign-up');
      if (await findUserByEmail(ctx.sql, input.email)) throw new ConflictError('An account with this email already exists; sign in instead.');
      const prepared = await prepareRegistration({
        email: input.email,
        password: input.password,
        startingCredits: ctx.config.SHOWREEL_SIGNUP_BONUS ? ctx.config.SHOWREEL_SIGNUP_CREDITS : 0,
      });
      try {
        await inTransaction(ctx.sql, (tx) => registerUser(tx, prepared, { actor: prepared.userId, requestId: ctx.requestId }));
      } catch (error) {
        // Two sign-ups with one email at once: the unique index on lower(email) lets one through.
        if ((error as { code?: string }).code === '23505') throw new ConflictError('An account with this email already exists; sign in instead.');
        throw error;
      }
      const session = await createSession(ctx.sql, prepared.userId, ctx.config.SHOWREEL_SESSION_TTL_HOURS);
      ctx.setCookie(sessionCookie(session.token, session.expiresAt, ctx.config.PUBLIC_URL.startsWith('https:')));
      return { user_id: prepared.userId, email: prepared.email, expires_at: session.expiresAt.toISOString() };
    }),

  signIn: sameOriginProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/sign-in', tags, protect: false, summary: 'Sign in; sets the showreel.session_token cookie', errorResponses: [400, 401, 403, 429] } })
    .input(z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) }))
    .output(sessionOutput)
    .mutation(async ({ ctx, input }) => {
      await countSignInAttempt(ctx.sql, ctx.config, ctx.clientAddress, input.email);
      const user = await findUserByEmail(ctx.sql, input.email);
      const ok = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash));
      if (!user || !ok) throw new UnauthorizedError('The email or password is incorrect.');
      const session = await createSession(ctx.sql, user.id, ctx.config.SHOWREEL_SESSION_TTL_HOURS);
      ctx.setCookie(sessionCookie(session.token, session.expiresAt, ctx.config.PUBLIC_URL.startsWith('https:')));
      return { user_id: user.id, email: user.email, expires_at: session.expiresAt.toISOString() };
    }),

  signOut: sameOriginProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/sign-out', tags, summary: 'Sign out; the session token stops working at once', errorResponses: [400, 403] } })
    .input(z.void())
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      const cookieHeader = ctx.headers.cookie;
      const token = readCookie(Array.isArray(cookieHeader) ? cookieHeader[0] : cookieHeader, SESSION_COOKIE);
      if (token) await revokeSession(ctx.sql, token);
      ctx.setCookie(clearedSessionCookie(ctx.config.PUBLIC_URL.startsWith('https:')));
      return { ok: true as const };
    }),
});
