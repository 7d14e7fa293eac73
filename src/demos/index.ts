/** Public entry of the demos module. */
export { demoEventSchemas } from './events.js';
export { demosProjection } from './projection.js';
export { presentationSchema, type Presentation } from './presentation.js';
export { findPublicDemo, findVisibleDemo, demoActivitySince, type DemoRecord, type DemoActivity } from './queries.js';
export {
  DEMO_MEDIA_DELETE_TASK,
  DEMO_PROGRESS_CHANNEL,
  DEMO_TASKS,
  completeDemoJob,
  failDemoJob,
  replaceDemoAsset,
  reportDemoProgress,
  startDemoJob,
  uploadDemo,
  type DemoJobPayload,
} from './commands.js';
export { refreshProjectDemos } from './project-refresh.js';
export { runScheduledRefresh, SCHEDULE_CRONTAB } from './schedules.js';
export { demosRouter } from './procedures.js';
export { projectRefreshRouter } from './refresh-procedures.js';
export { demoUrls } from './urls.js';
