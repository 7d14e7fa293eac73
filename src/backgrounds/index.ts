/** Public entry of the backgrounds module: uploaded presentation backgrounds and the built-in catalog. */
export { backgroundEventSchemas, type ImageFormat } from './events.js';
export { backgroundsProjection } from './projection.js';
export { findBackgroundById, listUserBackgrounds, type BackgroundRecord } from './queries.js';
export { recordBackgroundUpload } from './commands.js';
export { CATALOG, catalogKey, catalogStorage, findCatalogBackground } from './catalog.js';
export { backgroundNameFrom, imageFormatOf, MAX_BACKGROUND_BYTES } from './image-format.js';
export { parseBackgroundPath, uploadedBackgroundKey, uploadedBackgroundUrl, EXTENSIONS } from './urls.js';
export { backgroundsRouter } from './procedures.js';
export { BackgroundImageError, loadBackgroundImage, type BackgroundImage, type LoadBackgroundImageDeps } from './load-image.js';
