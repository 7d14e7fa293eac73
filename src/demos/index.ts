/** Public entry of the demos module. */
export { demoEventSchemas } from './events.js';
export { demosProjection } from './projection.js';
export { presentationInputSchema, presentationSchema, templateIds, type Presentation, type TemplateId } from './presentation.js';
export { demoActivitySince, findDemoProgress, findLiveDemoByContextHash, findPublicDemo, findVisibleDemo, type DemoActivity, type DemoProgressRead, type DemoRecord } from './queries.js';
export {
  DEMO_MEDIA_DELETE_TASK,
  UPLOAD_DERIVE_TASK,
  DEMO_PROGRESS_CHANNEL,
  DEMO_TASKS,
  completeDemoJob,
  failDemoJob,
  replaceDemoAsset,
  requestDemo,
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
