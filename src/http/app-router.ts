import { adminRouter } from '../admin/procedures.js';
import { authRouter } from '../auth/index.js';
import { backgroundsRouter } from '../backgrounds/index.js';
import { creditsRouter } from '../credits/index.js';
import { demosRouter, projectRefreshRouter } from '../demos/index.js';
import { keysRouter } from '../keys/index.js';
import { router } from '../platform/trpc.js';
import { projectsRouter } from '../projects/index.js';

/** One set of procedures: REST (/api/v1 via trpc-to-openapi) and tRPC (/trpc) both serve it. */
export const appRouter = router({
  auth: authRouter,
  projects: projectsRouter,
  projectRefresh: projectRefreshRouter,
  demos: demosRouter,
  apiKeys: keysRouter,
  credits: creditsRouter,
  backgrounds: backgroundsRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
