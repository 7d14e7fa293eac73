/** Public entry of the projects module. */
export { projectEventSchemas } from './events.js';
export { projectsProjection } from './projection.js';
export { findProjectById, findVisibleProject, visibleProjectPrecondition, listProjectsBySchedule, listVisibleProjects, type ProjectRecord } from './queries.js';
export { projectsRouter } from './procedures.js';
export { PROJECT_CHANGED_CHANNEL } from './commands.js';
export { openSiteAccess, normaliseCookies, cookieListInput, type SiteAccess, type SiteCookie, type SignInRecipe } from './site-access.js';
