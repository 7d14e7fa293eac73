/** Public entry of the API keys module. */
export { keyEventSchemas, type KeyType } from './events.js';
export { keysProjection } from './projection.js';
export { findKeyByHash, touchKey, listKeys, type ApiKeyRecord } from './queries.js';
export { findKeyWithOwner, forgetKey, KEY_CACHE_TTL_MS, KEY_REVOKED_CHANNEL } from './key-cache.js';
export { createApiKey, revokeApiKey } from './commands.js';
export { keyTypeOf } from './secret-key.js';
export { keysRouter } from './procedures.js';
