import type { Plan } from './events.js';

/**
 * What each plan allows. The formats are enforced on upload (403 otherwise); both plans record at either
 * resolution. Numeric limits that are the same for every plan (request rates, upload size) are configuration and
 * are reported beside these by GET /usage.
 */
export interface PlanDefinition {
  id: Plan;
  name: string;
  formats: ReadonlyArray<'mp4' | 'webm'>;
  resolutions: ReadonlyArray<'720p' | '1080p'>;
}

const definitions: Record<Plan, PlanDefinition> = {
  free: { id: 'free', name: 'Free', formats: ['mp4'], resolutions: ['720p', '1080p'] },
  pro: { id: 'pro', name: 'Pro', formats: ['mp4', 'webm'], resolutions: ['720p', '1080p'] },
};

export const planOf = (plan: Plan): PlanDefinition => definitions[plan];
