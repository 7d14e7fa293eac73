/** Public entry of the view analytics module (issue 38): beacons in, hourly rollups, the analytics read. */
export { beaconSchema, hostOf, isBot, optedOut, MAX_BEACON_BYTES, PROGRESS_MARKS, type BeaconInput, type BeaconRow } from './beacon.js';
export { createBeaconBuffer, insertBeacons, type BeaconBuffer } from './beacon-buffer.js';
export { createViewerHasher, deleteOldSalts, type ViewerHasher } from './viewer-hash.js';
export { createAddressLimiter, type AddressLimiter } from './address-limiter.js';
export { aggregateHours, LATE_BEACON_HOURS, type HourlyAggregate } from './aggregate.js';
export {
  ANALYTICS_CRONTAB,
  ANALYTICS_RETENTION_TASK,
  ANALYTICS_ROLLUP_TASK,
  applyRetention,
  rebuildRollups,
  rollupHours,
  runHourlyRollup,
} from './rollup.js';
export { demoAnalytics, viewsPerDemo, type DemoAnalytics } from './queries.js';
export { analyticsRouter, analyticsSchema } from './procedures.js';
