import type { IncomingMessage, ServerResponse } from 'node:http';
import { findPublicDemo } from '../../demos/index.js';
import { findJob } from '../../demos/queries.js';
import { toProgress } from '../../demos/representation.js';
import type { Services } from '../context.js';
import { sendJson } from '../respond.js';
import { handleEmbedGenerate } from './generate-route.js';
import { handleEmbedRuntime } from './runtime-route.js';
import { handleStaticAsset } from './static-assets.js';

const STATUS_PATH = /^\/embed\/([^/]+)\/status$/;

/**
 * The embed surface: POST /api/v1/embed/generate, GET /api/v1/embed/runtime, the scripts (/sdk.js, /player.js)
 * and the player's public progress (/embed/<id>/status; its WebSocket is /embed/<id>/ws in the progress hub).
 * Returns false for every other path.
 */
export async function handleEmbedRequest(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (path === '/api/v1/embed/generate') {
    await handleEmbedGenerate(services, req, res);
    return true;
  }
  if (path === '/api/v1/embed/runtime') {
    await handleEmbedRuntime(services, req, res);
    return true;
  }
  if (handleStaticAsset(req, res, path)) return true;
  const status = STATUS_PATH.exec(path);
  if (status) {
    await demoStatus(services, req, res, decodeURIComponent(status[1]!));
    return true;
  }
  return false;
}

/** The loading player's polling fallback: public by unguessable id, like the embed page itself. */
async function demoStatus(services: Services, req: IncomingMessage, res: ServerResponse, demoId: string): Promise<void> {
  const cors = { 'Access-Control-Allow-Origin': '*' };
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Use GET for the demo status.' }, { ...cors, Allow: 'GET, HEAD' });
  const demo = await findPublicDemo(services.sql, demoId);
  if (!demo) return sendJson(res, 404, { error: 'Demo not found.' }, cors);
  const progress = toProgress(demo, demo.latest_job_id ? await findJob(services.sql, demo.latest_job_id) : null);
  sendJson(res, 200, { ...progress, version: demo.version, playable: demo.video_key !== null }, cors);
}
