import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../context.js';
import { handleEmbedGenerate } from './generate-route.js';

/** The embed surface: POST /api/v1/embed/generate. Returns false for every other path. */
export async function handleEmbedRequest(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (path === '/api/v1/embed/generate') {
    await handleEmbedGenerate(services, req, res);
    return true;
  }
  return false;
}
