/** Public entry of the usage module: a read across users, demos and credits. */
export { usageRouter } from './procedures.js';
