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
};

export type UserEvent =
  | { type: 'UserRegistered'; data: z.infer<typeof userEventSchemas.UserRegistered> }
  | { type: 'UserPlanChanged'; data: z.infer<typeof userEventSchemas.UserPlanChanged> };

export const userStream = (userId: string) => `user-${userId}`;
