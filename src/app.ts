import type { AddressInfo } from 'node:net';
import { registerDomain } from './domain.js';
import { createHttpServer } from './http/server.js';
import { setPaymentProvider } from './credits/index.js';
import { createPayments } from './payments/index.js';
import type { Config } from './platform/config.js';
import { startWorker, type Worker } from './platform/jobs.js';
import type { Logger } from './platform/logger.js';
import { openDatabase } from './platform/open-database.js';
import { createSecretBox, loadMasterKey } from './platform/secrets.js';
import { createStorage } from './platform/storage/index.js';
import { createBrowserPool } from './pipeline/browser/pool.js';
import { announceSandbox } from './pipeline/browser/sandbox.js';
import { createPlanner } from './pipeline/plan/planner.js';
import { startDeadWorkerSweeper } from './pipeline/job-liveness.js';
import { PIPELINE_TASK_NAMES } from './pipeline/tasks.js';
import { crontab, createTaskList } from './tasks.js';

export interface RunningApp {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Boots the service: database (embedded or external) and migrations, then the HTTP server and/or the worker.
 * `stop()` drains in order: stop accepting, finish in-flight requests, let running jobs finish, close the pool,
 * stop the embedded database.
 */
export async function startApp(config: Config, logger: Logger, parts: { http: boolean; worker: boolean }): Promise<RunningApp> {
  registerDomain();
  const database = await openDatabase(config, logger);
  const secrets = createSecretBox(await loadMasterKey(config.SHOWREEL_MASTER_KEY, config.SHOWREEL_DATA_DIR));
  const storage = createStorage(config);
  // SHOWREEL_PAYMENTS: the ledger's provider (auto top-off, purchases) for this process, and Stripe's webhook.
  const payments = createPayments(config, database.sql, logger);
  setPaymentProvider(payments.provider);
  const services = { sql: database.sql, config, secrets, storage, logger, payments };

  let runner: Worker | null = null;
  let stopSweeper = () => {};
  // Browsers are launched on the first job, not at start; at most WORKER_CONCURRENCY of them.
  const browsers = createBrowserPool({ size: config.WORKER_CONCURRENCY, logger });
  let server: ReturnType<typeof createHttpServer>['server'] | null = null;
  let closeSockets: () => Promise<void> = async () => {};
  let port = 0;
  try {
    if (parts.worker) {
      // Says once how the recorder's browser will run (its sandbox, or why not); with
      // SHOWREEL_BROWSER_SANDBOX=require and no sandbox possible, the service does not start.
      announceSandbox(logger);
      runner = await startWorker({
        connectionString: database.url,
        concurrency: config.WORKER_CONCURRENCY,
        taskList: createTaskList({ ...services, browsers, planner: createPlanner(config, { logger }) }),
        crontab,
        logger,
      });
      stopSweeper = startDeadWorkerSweeper(database.sql, logger, PIPELINE_TASK_NAMES, config.SHOWREEL_WORKER_STALE_SECONDS);
    }

    if (parts.http) {
      const http = createHttpServer(services);
      const listening = http.server;
      server = listening;
      closeSockets = http.closeSockets;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(config.PORT, config.HOST, () => resolve());
      });
      port = (listening.address() as AddressInfo).port;
      if (!config.PUBLIC_URL_EXPLICIT) config.PUBLIC_URL = `http://localhost:${port}`;
      logger.info({ port, publicUrl: config.PUBLIC_URL }, 'Showreel is listening');
    }
  } catch (error) {
    // A half-started app must not leave a worker or an embedded database behind.
    await runner?.stop().catch(() => undefined);
    await browsers.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }

  let stopping: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop() {
      stopping ??= (async () => {
        const deadline = setTimeout(() => server?.closeAllConnections(), config.SHOWREEL_SHUTDOWN_TIMEOUT_MS);
        deadline.unref();
        await closeSockets();
        if (server) {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          await closed;
        }
        stopSweeper();
        await runner?.stop();
        await browsers.close();
        clearTimeout(deadline);
        await database.close();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}
