/** Public entry of the users module. */
export { userEventSchemas, plans, type Plan } from './events.js';
export { usersProjection } from './projection.js';
export { findUserByEmail, findUserById, type UserRecord } from './queries.js';
export { prepareRegistration, registerUser, changePlan, changePassword } from './commands.js';
export { planOf, type PlanDefinition } from './plans.js';
