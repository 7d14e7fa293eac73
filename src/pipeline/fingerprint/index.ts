export { describeChanges, shotName } from './compare.js';
export { fingerprintOf, flowFingerprintOf, keyFigures, type DemoFingerprint, type FlowPage } from './fingerprint.js';
export { differenceHash, hashDistance } from './perceptual-hash.js';
export { hashSectionFrames } from './section-frames.js';
export { keepPlan } from './kept-plan.js';
