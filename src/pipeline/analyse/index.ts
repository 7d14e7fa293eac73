export { analysePage, PageAnalysisTimeoutError, preparePage, type AnalysePageOptions, type PageAnalysis, type PageSnapshot } from './analyse-page.js';
export { dismissOverlays, type DismissOverlaysOptions } from './dismiss-overlays.js';
export { scrollThroughPage, type LazyScrollOptions, type LazyScrollResult } from './lazy-scroll.js';
export { extractOutline, type ExtractOutlineOptions } from './outline.js';
