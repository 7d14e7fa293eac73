/** Public entry of the demos module. */
export { demoEventSchemas } from './events.js';
export { demosProjection } from './projection.js';
export { aspectRatios, aspectsOf, aspectVariants, presentationInputSchema, presentationSchema, templateIds, type AspectRatio, type Presentation, type TemplateId } from './presentation.js';
export { quoteRestyle, type QuotedDemo, type RestyleQuote } from './restyle-quote.js';
export { findKeptDemoVersion, listDemoVersions, listVersionRestores, type DemoVersionRecord, type VersionRestore } from './queries.js';
export { demoActivitySince, findDemoProgress, findLiveDemoByContextHash, findPublicDemo, findVisibleDemo, type DemoActivity, type DemoProgressRead, type DemoRecord } from './queries.js';
export {
  DEMO_MEDIA_DELETE_TASK,
  UPLOAD_DERIVE_TASK,
  DEMO_VERSIONS_EXPIRE_TASK,
  removeExpiredVersionMedia,
  restoreDemoVersion,
  DEMO_PROGRESS_CHANNEL,
  DEMO_TASKS,
  completeDemoJob,
  completeUnchangedRefresh,
  editNarrationScript,
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
export { demoVersionsRouter } from './version-procedures.js';
export { projectRefreshRouter } from './refresh-procedures.js';
export { demoUrls, variantView } from './urls.js';
export { type StoredVariant, variantsOf } from './representation.js';
export { demoPhase, demoPhases, PHASE_LABELS, type DemoPhase } from './phase.js';
