import type { IncomingMessage, ServerResponse } from 'node:http';
import { createCallerFactory } from '../../platform/trpc.js';
import { appRouter } from '../app-router.js';
import type { Services } from '../context.js';
import type { Viewer } from './layout.js';

export const createCaller = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof createCaller>;

/** One signed-in dashboard request, as a page handler sees it. */
export interface DashboardRequest {
  services: Services;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** the captures of the route's pattern (ids from the path) */
  params: string[];
  /** the REST procedures, called as the session's user: the same rules, limits and owner scoping as the API */
  caller: Caller;
  viewer: Viewer;
  sessionToken: string;
  csp: string;
  /** reads the posted form, after its CSRF token and Origin have been checked */
  form(): Promise<URLSearchParams>;
  /** renders a page of the app with the common frame */
  page(status: number, html: string): void;
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle(request: DashboardRequest): Promise<void>;
  /** answers JSON (the script's uploads): errors stay the API's `{error}`, not a page */
  json?: true;
}
