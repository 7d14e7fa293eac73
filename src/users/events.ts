import { z } from 'zod';

export const plans = ['free', 'pro'] as const;
export type Plan = (typeof plans)[number];

export const userEventSchemas = {
  UserRegistered: z.object({
    userId: z.string(),
    email: z.string(),
    passwordHash: z.string(),
    isAdmin: z.boolean(),
    plan: z.enum(plans),
    // The balance the account starts with: the sign-up bonus, or exactly `--credits N` from the admin command.
    startingCredits: z.number().int().min(0),
  }),
  UserPlanChanged: z.object({ userId: z.string(), plan: z.enum(plans) }),
  // Issue 35: a new password, set through a one-time reset link an administrator issued (the hash, as at sign-up).
  UserPasswordChanged: z.object({ userId: z.string(), passwordHash: z.string(), via: z.enum(['reset-link']) }),
};

export type UserEvent =
  | { type: 'UserRegistered'; data: z.infer<typeof userEventSchemas.UserRegistered> }
  | { type: 'UserPlanChanged'; data: z.infer<typeof userEventSchemas.UserPlanChanged> }
  | { type: 'UserPasswordChanged'; data: z.infer<typeof userEventSchemas.UserPasswordChanged> };

export const userStream = (userId: string) => `user-${userId}`;
