import { ValidationError } from '../platform/errors.js';

/**
 * `?force=true` on a refresh (issue 37): re-record even when the page has not changed. It travels in the URL of a
 * POST (the spec's refresh endpoints take no body), so it is read from the request's query. A value other than
 * true/false/1/0 is a 400, not a silent no.
 */
export function forceParameter(query: URLSearchParams | undefined): boolean {
  const value = query?.get('force');
  if (value === null || value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ValidationError('force must be true or false.');
}
