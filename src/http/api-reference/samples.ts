/**
 * The values the API reference's examples are made of: one account, one project, one demo, seen the way the API
 * returns them. Every example is checked against its operation's schema (`redocly lint`, recommended-strict, in
 * test/http/openapi-lint.test.ts), so a changed response shape fails a test instead of lying in /docs.
 */
export const IDS = {
  user: '0b6f3c52-8a1e-4f0e-9c1d-2f4b7a9e5d10',
  project: '3f2a9c1e-6b7d-4e8f-a1b2-c3d4e5f60718',
  demo: '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  job: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d',
  key: 'd4c3b2a1-0f9e-4d8c-b7a6-958473625140',
  transaction: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  background: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  refresh: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
} as const;

export const BASE = 'https://showreel.example.com';
const CREATED = '2026-05-04T09:12:31.000Z';
const UPDATED = '2026-05-04T09:13:02.000Z';

export const account = { user_id: IDS.user, email: 'ada@acme.example', expires_at: '2026-06-03T09:12:31.000Z' };

export const project = {
  id: IDS.project,
  user_id: IDS.user,
  name: 'Acme store',
  url: 'https://acme.example/',
  viewport: 'desktop',
  refresh_schedule: 'weekly',
  webhook_secret: null,
  access: { kind: 'none' },
  recording: { allow_submit: false },
  created_at: CREATED,
  updated_at: CREATED,
};

export const presentation = {
  background: { from: '#7b5cff', to: '#ff6fb1', angle: 135 },
  mockup: 'macos-light',
  zoom: { enabled: true, intensity: 1.4 },
  cursor: { style: 'arrow', size: 30 },
  recordingTemplate: { id: 'pricing-focus', sectionHint: 'Pricing' },
  aspect: ['16:9', '9:16'],
};

/** Issue 59: the 9:16 cut of the sample demo's version 2, as a Demo lists it. */
/** Issue 59: a vertical cut as the API lists it: its frame and public addresses, never its storage keys. */
const verticalCut = {
  aspect: '9:16',
  format: 'mp4',
  width: 1080,
  height: 1920,
  duration_ms: 10240,
  video_url: `${BASE}/video/${IDS.demo}.mp4?aspect=9x16`,
  gif_url: `${BASE}/gif/${IDS.demo}.gif?aspect=9x16`,
  thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?aspect=9x16`,
};

const actionScript = {
  steps: [
    { action: 'goto', url: 'https://acme.example/' },
    { action: 'scrollTo', selector: '#pricing' },
    { action: 'click', selector: '#pricing .plan-team button' },
  ],
};

/** A demo as GET /demos lists it: JSON columns (action_script, presentation, context …) arrive as JSON text. */
export const demo = {
  id: IDS.demo,
  project_id: IDS.project,
  prompt: 'Show the pricing plans and start a team trial',
  status: 'ready',
  phase: 'ready',
  title: 'Pricing — Show the pricing plans and start a team trial',
  action_script: JSON.stringify(actionScript),
  ai_plan: null,
  snapshots: null,
  video_key: `demos/${IDS.demo}/video.mp4`,
  gif_key: `demos/${IDS.demo}/preview.gif`,
  thumbnail_key: `demos/${IDS.demo}/thumb.png`,
  duration_ms: 10240,
  recording_log: null,
  format: 'mp4',
  resolution: '1080p',
  duration_target: '10s',
  context: null,
  presentation: JSON.stringify(presentation),
  version: 2,
  error: null,
  source: 'generated',
  capture_kept: true,
  created_at: CREATED,
  updated_at: UPDATED,
  refreshed_at: UPDATED,
  chapters: [
    { title: 'Acme', start_ms: 0, end_ms: 2100 },
    { title: 'Pricing', start_ms: 2100, end_ms: 7400 },
    { title: 'Start a team trial', start_ms: 7400, end_ms: 10240 },
  ],
  captions: { count: 3, language: 'en', off_reason: null, source: 'rules' },
  narration: null,
  warnings: [],
  variants: [verticalCut],
};

export const demoSummary = {
  id: demo.id,
  title: demo.title,
  prompt: demo.prompt,
  status: demo.status,
  thumbnail_key: demo.thumbnail_key,
  snapshots: null,
  video_key: demo.video_key,
  gif_key: demo.gif_key,
  duration_ms: demo.duration_ms,
  format: demo.format,
  version: demo.version,
  created_at: CREATED,
  updated_at: UPDATED,
};

export const job = { id: IDS.job, status: 'succeeded', step: 'ready', started_at: CREATED, completed_at: UPDATED, error: null };

// Issue 37: a deploy that changed the page is re-recorded and says what changed; one that changed nothing the demo
// shows ends `unchanged`, records nothing and costs nothing.
export const refreshHistory = [
  {
    id: 'b7d1e0c2-5f3a-4e8b-9c1d-2a3b4c5d6e7f', triggered_by: 'schedule', result: 'unchanged', old_version: 2, new_version: null, error: null,
    created_at: UPDATED, changes: [], checked_at: UPDATED, before_thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=2`, after_thumbnail_url: null, credits_charged: 0, from_capture: false,
  },
  {
    id: IDS.refresh, triggered_by: 'webhook', result: 'succeeded', old_version: 1, new_version: 2, error: null, created_at: UPDATED,
    changes: ['Pricing: Pro $12 → $15 per user', 'New section: Integrations', "'Start free trial' is now 'Try it free'"],
    checked_at: UPDATED, before_thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=1`, after_thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=2`, credits_charged: 1, from_capture: false,
  },
];

export const packs = [
  { id: '5', credits: 5, price: 10, perCredit: 2, savings: 0, label: 'Starter' },
  { id: '20', credits: 20, price: 35, perCredit: 1.75, savings: 13, label: 'Team', popular: true },
];

export const autoTopoff = { enabled: false, packId: '20', threshold: 1 };

export const transaction = {
  id: IDS.transaction,
  user_id: IDS.user,
  type: 'deduct',
  amount: -1,
  balance_after: 11,
  pack_id: null,
  description: `Demo ${IDS.demo}`,
  created_at: CREATED,
};

export const liveKey = 'sr_live_Zx8f3kQ2vB7nL1pR9sT4wY6cD0hJ5mA2';
export const publishableKey = 'sr_pub_Hq3T9vL2xW7pK4nB8cZ1rF6yJ0sD5gM3';
