export { describeChanges, shotName } from './compare.js';
export { fingerprintOf, keyFigures, type DemoFingerprint } from './fingerprint.js';
export { differenceHash, hashDistance } from './perceptual-hash.js';
export { hashSectionFrames } from './section-frames.js';
export { keepPlan } from './kept-plan.js';
