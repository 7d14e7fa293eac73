import { z } from 'zod';
import { UnauthorizedError } from '../platform/errors.js';
import { hashPassword, verifyPassword } from '../platform/secrets.js';
import { publicProcedure, router } from '../platform/trpc.js';
import { findUserByEmail } from '../users/index.js';
import { SESSION_COOKIE, clearedSessionCookie, readCookie, sessionCookie } from './cookies.js';
import { createSession, revokeSession } from './sessions.js';
import { countSignInAttempt } from './sign-in-limits.js';

const tags = ['Auth'];

// Compared against when the email is unknown, so a miss costs the same scrypt time as a wrong password.
const decoyHash = hashPassword('decoy password that matches nothing');

export const authRouter = router({
  signIn: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/sign-in', tags, protect: false, summary: 'Sign in; sets the showreel.session_token cookie', errorResponses: [400, 401, 429] } })
    .input(z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) }))
    .output(z.object({ user_id: z.string(), email: z.string(), expires_at: z.string() }))
    .mutation(async ({ ctx, input }) => {
      await countSignInAttempt(ctx.sql, ctx.config, ctx.clientAddress, input.email);
      const user = await findUserByEmail(ctx.sql, input.email);
      const ok = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash));
      if (!user || !ok) throw new UnauthorizedError('The email or password is incorrect.');
      const session = await createSession(ctx.sql, user.id, ctx.config.SHOWREEL_SESSION_TTL_HOURS);
      ctx.setCookie(sessionCookie(session.token, session.expiresAt, ctx.config.PUBLIC_URL.startsWith('https:')));
      return { user_id: user.id, email: user.email, expires_at: session.expiresAt.toISOString() };
    }),

  signOut: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/sign-out', tags, summary: 'Sign out; the session token stops working at once', errorResponses: [400] } })
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
