import { adminRouter } from '../admin/procedures.js';
import { analyticsRouter } from '../analytics/index.js';
import { authRouter } from '../auth/index.js';
import { backgroundsRouter } from '../backgrounds/index.js';
import { creditsRouter } from '../credits/index.js';
import { demosRouter, demoVersionsRouter, projectRefreshRouter } from '../demos/index.js';
import { devicesRouter } from '../devices/index.js';
import { keysRouter } from '../keys/index.js';
import { narrationRouter } from './narration/procedures.js';
import { router } from '../platform/trpc.js';
import { projectsRouter } from '../projects/index.js';
import { usageRouter } from '../usage/index.js';
import { webhooksRouter } from '../webhooks/index.js';

/** The public procedures: served as REST under /api/v1 (trpc-to-openapi), and nowhere else. */
export const appRouter = router({
  auth: authRouter,
  projects: projectsRouter,
  projectRefresh: projectRefreshRouter,
  demos: demosRouter,
  demoVersions: demoVersionsRouter,
  narration: narrationRouter,
  apiKeys: keysRouter,
  credits: creditsRouter,
  backgrounds: backgroundsRouter,
  device: devicesRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
  analytics: analyticsRouter,
});

export type AppRouter = typeof appRouter;

/**
 * What /trpc serves: the internal admin procedures only (scripts/admin-client.ts), as `admin.<name>`. The public
 * surface is REST, with its body limits and error shape; a second door onto the same procedures would need both
 * again (issue 15).
 */
export const trpcRouter = router({ admin: adminRouter });

export type TrpcRouter = typeof trpcRouter;
