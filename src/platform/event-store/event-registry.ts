import type { z } from 'zod';
import type { NewEvent } from './types.js';

/**
 * Every event type is declared once with its zod schema (by the module that owns it). Appends are validated
 * against it, so a malformed event can never enter the log.
 */
const schemas = new Map<string, z.ZodType>();

export function registerEvents(definitions: Record<string, z.ZodType>): void {
  for (const [type, schema] of Object.entries(definitions)) {
    const existing = schemas.get(type);
    if (existing !== undefined && existing !== schema) throw new Error(`Event type ${type} is declared twice.`);
    schemas.set(type, schema);
  }
}

export function validateEvent(event: NewEvent): NewEvent {
  const schema = schemas.get(event.type);
  if (schema === undefined) throw new Error(`Unknown event type ${event.type}: declare it with registerEvents.`);
  return { type: event.type, data: schema.parse(event.data) };
}
