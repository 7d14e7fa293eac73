/** Public entry of the embeds module: dynamic embeds (publishable keys) and signed runtime embeds. */
export { generateEmbedInput, type GenerateEmbedInput } from './schemas.js';
export { embedKey, generateEmbed, toEmbedRequest, type EmbedAnswer, type EmbedRequest } from './generate-embed.js';
export { findProjectAndReusableDemo } from './queries.js';
export { hostAllowed, normaliseHost } from './site.js';
export { normaliseContextUrl } from './context-hash.js';
export { openRuntimeEmbed, playerPropsSchema, type PlayerProps, type RuntimeEmbed, type RuntimeQuery } from './runtime-embed.js';
export { MAX_RUNTIME_TTL_SECONDS, encodeRuntimePayload, runtimeSignature, signRuntimeUrl } from './signature.js';
export {
  assertPublishableMayGenerate,
  countDailyGeneration,
  deleteOldEmbedGenerationCounts,
  embedGenerationsToday,
  onProjectSite,
  type DailyGenerationCaps,
  type EmbedGenerationsToday,
} from './spend-controls.js';
