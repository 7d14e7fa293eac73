import type { OperationReference } from './api-operations.js';
import { BASE, IDS } from './samples.js';

/** The outbound webhook operations (issue 37), by operationId: what /docs says beyond their schemas. */
const WEBHOOK_ID = '0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
const SECRET = 'whsig_Xq3vL8nB2mK7pR4tY9wE1sD6fG0hJ5kA2zC8vN4bM7q';
const webhook = {
  id: WEBHOOK_ID,
  project_id: IDS.project,
  url: 'https://hooks.acme.example/showreel',
  events: ['demo.ready', 'demo.failed', 'demo.changed'],
  created_at: '2026-05-04T09:12:31.000Z',
  secret_rotated_at: null,
};
const parameters = { id: IDS.project, webhookId: WEBHOOK_ID };
const body = JSON.stringify({
  id: 'evt_01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b',
  type: 'demo.ready',
  created_at: '2026-05-04T09:14:02.000Z',
  data: {
    status: 'ready', job_id: IDS.job, kind: 'refresh', version: 3, title: 'Pricing tour', duration_ms: 10240,
    share_url: `${BASE}/share/${IDS.demo}`, embed_url: `${BASE}/embed/${IDS.demo}`,
    video_url: `${BASE}/video/${IDS.demo}.mp4?v=3`, thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=3`, gif_url: `${BASE}/gif/${IDS.demo}.gif?v=3`,
    project_id: IDS.project, demo_id: IDS.demo,
  },
});

export const WEBHOOK_OPERATIONS: Record<string, OperationReference> = {
  'webhooks-create': {
    description:
      'Registers an https endpoint that Showreel calls when the project’s demos are ready (`demo.ready`), fail (`demo.failed`), or a change-aware refresh found the page changed (`demo.changed`, with the change summary and before and after thumbnails) or not (`demo.unchanged`). Each call is a POST of a JSON body `{id, type, created_at, data}` signed with the endpoint’s secret: `Showreel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (Stripe’s scheme), with the event id in `Showreel-Event-Id`. A non-2xx answer, or none within 10 s, is retried with backoff (30 s doubling to hourly) for a day; the same event may arrive twice, so dedupe on its id. The signing secret is in this answer only. At most 10 endpoints per project (409).',
    parameters: { id: IDS.project },
    request: { url: 'https://hooks.acme.example/showreel', events: ['demo.ready', 'demo.failed', 'demo.changed'] },
    response: { ...webhook, secret: SECRET },
  },
  'webhooks-list': {
    description: 'The project’s endpoints with the events each receives. Their signing secrets are never returned again: rotate one to get a new secret.',
    parameters: { id: IDS.project },
    response: { webhooks: [webhook] },
  },
  'webhooks-delete': {
    description: 'Deletes the endpoint and its delivery log; deliveries still waiting for a retry are dropped.',
    parameters,
    response: { ok: true },
  },
  'webhooks-rotateSecret': {
    description: 'Replaces the endpoint’s signing secret, returned only here. Every attempt from now on, retries included, is signed with the new one; a delivery your receiver refused while it still had the old one is retried with the new one.',
    parameters,
    response: { secret: 'whsig_7tR1yU5iO9pA3sD7fG2hJ6kL0zX4cVb2Nm9QaE3wR8t' },
  },
  'webhooks-deliveries': {
    description:
      'The endpoint’s delivery log, newest first (kept 30 days): each event sent, its status (`pending`, `retrying`, `delivered`, `failed` after a day of retries, or `refused` when the endpoint’s host is or resolves to a private address), the attempts, and the last answer’s status with its first 500 characters.',
    parameters: { ...parameters, limit: 20 },
    response: {
      deliveries: [
        {
          id: '6f5e4d3c-2b1a-4098-8776-655443322110', event_id: 'evt_01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b', event_type: 'demo.ready', status: 'delivered', attempts: 2,
          response_status: 200, response_excerpt: '{"received":true}', error: null, body,
          created_at: '2026-05-04T09:14:02.000Z', last_attempt_at: '2026-05-04T09:14:33.000Z', next_attempt_at: null, delivered_at: '2026-05-04T09:14:33.000Z',
        },
      ],
    },
  },
};
