import type { AppRouter } from './app-router.js';

type Meta = { openapi?: { method?: string } };
type SchemaLike = { _zod?: { def?: Record<string, unknown> & { type?: string } } };

const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);
// Schemas are shared between procedures (and apps in one process): pin each once.
const pinned = new WeakSet<object>();

/**
 * trpc-to-openapi turns on zod coercion for every number, boolean and date of an input object, bodies included,
 * by mutating the shared schemas. Query strings need that; JSON bodies must not have it: `"debugHud": "false"`
 * would become `true`. This pins `coerce` off on the body schemas of POST/PATCH/PUT procedures, so a JSON value
 * of the wrong type is a 400 naming the field, as for every other bound.
 */
export function keepBodiesStrict(router: AppRouter): void {
  const procedures = router._def.procedures as unknown as Record<string, { _def: { meta?: Meta; inputs?: SchemaLike[] } }>;
  for (const procedure of Object.values(procedures)) {
    const method = procedure._def.meta?.openapi?.method;
    if (!method || !['POST', 'PATCH', 'PUT'].includes(method)) continue;
    for (const input of procedure._def.inputs ?? []) pinCoercion(input, new Set());
  }
}

function pinCoercion(schema: SchemaLike | undefined, seen: Set<object>): void {
  const def = schema?._zod?.def;
  if (!def || seen.has(def)) return;
  seen.add(def);
  if (def.type && COERCIBLE.has(def.type)) {
    if (pinned.has(def)) return;
    pinned.add(def);
    Object.defineProperty(def, 'coerce', { get: () => false, set: () => {}, configurable: false });
    return;
  }
  const children: unknown[] = [];
  if (def.shape && typeof def.shape === 'object') children.push(...Object.values(def.shape as object));
  for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'valueType', 'keyType']) children.push(def[key]);
  if (Array.isArray(def.options)) children.push(...def.options);
  for (const child of children) if (child && typeof child === 'object') pinCoercion(child as SchemaLike, seen);
}
