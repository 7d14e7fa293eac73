import { startTestApp, type TestApp, type TestUser } from './app.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

/**
 * The service with its worker on (one job at a time), the fixture sites, and a user with credits: for tests that
 * generate real demos end to end.
 */
export interface WorkerApp {
  app: TestApp;
  sites: FixtureServer;
  user: TestUser;
  /** polls the demo's progress until it is ready or failed; returns the last progress and every step seen */
  waitForOutcome(demoId: string, timeoutMs?: number): Promise<{ progress: DemoProgress; steps: Set<string> }>;
  stop(): Promise<void>;
}

export interface DemoProgress {
  status: string;
  step: string | null;
  error: string | null;
  [key: string]: unknown;
}

/**
 * `sitesRoot`: serve the sites from there instead (a copy a test edits between recordings). `log`: where the app's
 * log lines go, at debug level, for a test that reads them. `env`: more of the service's environment (a speech engine).
 */
export async function startWorkerApp(options: { credits?: number; sitesRoot?: string; log?: NodeJS.WritableStream; env?: Record<string, string> } = {}): Promise<WorkerApp> {
  const [app, sites] = await Promise.all([
    startTestApp(
      { SHOWREEL_RUN_WORKER: 'true', SHOWREEL_ALLOW_PRIVATE_URLS: '1', WORKER_CONCURRENCY: '1', ...(options.log ? { LOG_LEVEL: 'debug' } : {}), ...options.env },
      options.log ? { log: options.log } : {},
    ),
    startFixtureServer(options.sitesRoot ? { root: options.sitesRoot } : {}),
  ]);
  const user = await app.createUser({ credits: options.credits ?? 20 });
  return {
    app,
    sites,
    user,
    async waitForOutcome(demoId, timeoutMs = 240_000) {
      const deadline = Date.now() + timeoutMs;
      const steps = new Set<string>();
      for (;;) {
        const progress = (await app.api(`/api/v1/demos/${demoId}/progress`, { key: user.key })).body as DemoProgress;
        if (progress.step) steps.add(progress.step);
        if (progress.status === 'ready' || progress.status === 'failed') return { progress, steps };
        if (Date.now() > deadline) throw new Error(`demo ${demoId} still ${progress.status}/${progress.step}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    async stop() {
      await app.stop();
      await sites.close();
    },
  };
}
