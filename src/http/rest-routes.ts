import type { ZodObject, ZodRawShape } from 'zod/v4';
import { ZodArray } from 'zod/v4';
import {
  coerceSchema,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  type OpenApiProcedure,
  unwrapZodType,
} from 'trpc-to-openapi';
import type { Meta } from '../platform/trpc.js';
import type { AppRouter } from './app-router.js';
import type { RunnableProcedure } from './run-procedure.js';

export interface Route {
  method: string;
  /** Matches the path with a trailing slash or not, for 404 and 405 (with Allow). */
  pattern: RegExp;
  /** trpc-to-openapi's own pattern (`(?<id>[^/]+)` groups): the path parameters, taken undecoded as it did. */
  dispatch: RegExp;
  procedurePath: string;
  /** The procedure itself, called by runProcedure. */
  procedure: RunnableProcedure;
  successStatus: number;
  /**
   * The body may be a URL-encoded form as well as JSON (each field a string): declared with the library's
   * `openapi.contentTypes`, so the OpenAPI document says so too.
   */
  formBody: boolean;
  /** POST, PATCH, PUT: the input is the JSON body; GET, DELETE: the query string. */
  takesBody: boolean;
  /**
   * A POST whose input is only its path parameters (or nothing): refresh, rotate, sign out, the deploy webhook. The
   * body is read (within the JSON limit) and ignored, so a deployment tool that posts its own payload, JSON or a
   * form, still triggers it.
   */
  ignoresBody: boolean;
  /** A `z.void()`-like input: the procedure gets `undefined`, whatever the request carries. */
  voidInput: boolean;
  /** Query fields whose schema is an array: a single `?tag=a` still arrives as `['a']`. */
  arrayFields: string[];
}

type RouterProcedure = OpenApiProcedure & RunnableProcedure & { _def: { meta?: Meta; type: string } };

/**
 * Every REST route the router declares, worked out once: what trpc-to-openapi's handler recomputed on every
 * request. Its schema preparation is done here too: `coerceSchema` switches zod coercion on for the number,
 * boolean and date fields of each input object (query strings are text). It mutates the shared schemas, and the
 * library did it on each request, so from the first request on every schema was coercing anyway; body schemas
 * stay strict because `keepBodiesStrict` pinned their coercion off before this runs.
 */
export function listRoutes(router: AppRouter): Route[] {
  const routes: Route[] = [];
  const procedures = router._def.procedures as unknown as Record<string, RouterProcedure>;
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false) continue;
    if (procedure._def.type === 'subscription') continue; // the library never served them
    const takesBody = openapi.method !== 'GET' && openapi.method !== 'DELETE';
    const input = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
    const isObject = instanceofZodTypeObject(input);
    if (isObject) coerceSchema(input as ZodObject<ZodRawShape>);
    routes.push({
      method: openapi.method,
      pattern: new RegExp(`^${openapi.path.replace(/\/+$/, '').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
      dispatch: getPathRegExp(normalizePath(openapi.path)),
      procedurePath,
      procedure,
      successStatus: meta.successStatus ?? 200,
      formBody: openapi.contentTypes?.includes('application/x-www-form-urlencoded') ?? false,
      takesBody,
      ignoresBody: takesBody && (instanceofZodTypeLikeVoid(input) || (isObject && onlyPathParameters(input as ZodObject<ZodRawShape>, openapi.path))),
      voidInput: instanceofZodTypeLikeVoid(input),
      arrayFields: isObject && !takesBody ? arrayFieldsOf(input as ZodObject<ZodRawShape>) : [],
    });
  }
  return routes;
}

/** Whether every field of an input object is a `{parameter}` of the path. */
function onlyPathParameters(schema: ZodObject<ZodRawShape>, path: string): boolean {
  const parameters = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]));
  return Object.keys(schema.shape).every((key) => parameters.has(key));
}

/** The fields trpc-to-openapi wraps into an array when the query gives them once: `z.array(…)`, optional or not. */
function arrayFieldsOf(schema: ZodObject<ZodRawShape>): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => field instanceof ZodArray || (instanceofZodTypeOptional(field) && field.unwrap() instanceof ZodArray))
    .map(([key]) => key);
}
