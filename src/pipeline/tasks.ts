import type { Task } from 'graphile-worker';
import { DEMO_TASKS, type DemoJobPayload } from '../demos/index.js';
import { startHeartbeat } from './job-liveness.js';
import { runDemoJob, type PipelineServices } from './run-job.js';

/** graphile-worker tasks of the pipeline: demo_generate, demo_refresh, demo_restyle, and the dead-worker sweeper. */
export function pipelineTasks(services: PipelineServices): Record<string, Task> {
  const runDemo: Task = async (payload, helpers) => {
    const job = payload as DemoJobPayload;
    const stopBeating = startHeartbeat(services.sql, helpers.job.id, helpers.job.locked_by ?? 'unknown');
    try {
      await runDemoJob(services, job, { attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
    } finally {
      await stopBeating();
    }
  };
  return {
    [DEMO_TASKS.generate]: runDemo,
    [DEMO_TASKS.refresh]: runDemo,
    [DEMO_TASKS.restyle]: runDemo,
  };
}

export const PIPELINE_TASK_NAMES = Object.values(DEMO_TASKS);
