import { account, autoTopoff, BASE, demo, demoSummary, IDS, job, liveKey, packs, presentation, project, publishableKey, refreshHistory, transaction } from './samples.js';

/** What /docs says about an operation beyond its schema: a description, and examples of what is sent and returned. */
export interface OperationReference {
  description: string;
  /** The JSON (or form) body sent. */
  request?: unknown;
  /** The success body returned (JSON or text). */
  response?: unknown;
  /** Examples of path, query and header parameters, by name. */
  parameters?: Record<string, unknown>;
}

const demoId = { id: IDS.demo };
const projectId = { id: IDS.project };

/** The /api/v1 operations served by the procedures (trpc-to-openapi), by operationId. */
export const API_OPERATIONS: Record<string, OperationReference> = {
  'auth-signUp': {
    description:
      'Creates an account with the sign-up bonus credits and signs it in: the answer sets the `showreel.session_token` cookie (HttpOnly, SameSite=Lax) that the dashboard uses. Scripts use API keys instead. A browser must send it from this site (Origin or Sec-Fetch-Site), else 403.',
    request: { email: 'ada@acme.example', password: 'correct horse battery staple' },
    response: account,
  },
  'auth-signIn': {
    description: 'Signs in with email and password and sets the session cookie. Wrong email or password are one answer (401), so it cannot tell which accounts exist; repeated failures are rate limited (429).',
    request: { email: 'ada@acme.example', password: 'correct horse battery staple' },
    response: account,
  },
  'auth-signOut': {
    description: 'Ends the session of the cookie sent: the token stops working at once, on every tab. Signing out without a session is not an error.',
    response: { ok: true },
  },
  'projects-list': {
    description: 'Your projects, newest first, each with how many demos it holds. Another user’s projects are never listed.',
    response: { projects: [{ ...project, demo_count: 3 }] },
  },
  'projects-create': {
    description:
      'A project is one product site: the page URL demos are recorded from, the viewport they are recorded at, and how often its demos are re-recorded. The answer carries the project’s `signing_secret`, used to sign runtime embed URLs (also readable later).',
    request: { name: 'Acme store', url: 'https://acme.example/', viewport: 'desktop', refresh_schedule: 'weekly' },
    response: { ...project, signing_secret: 'sk_sign_2mQ9xV4cT7bN1kP8rL3sY6fD0gH5jAq7Wz1eR' },
  },
  'projects-get': {
    description: 'One project with a summary of each of its demos (newest first). Another user’s project is a 404.',
    parameters: projectId,
    response: { ...project, demos: [demoSummary] },
  },
  'projects-update': {
    description:
      'Changes any of the name, page URL, viewport and refresh schedule; fields left out stay as they are. A new URL is checked like a new project’s (public http(s) only). ' +
      '`access` says how the recorder reaches an app behind a sign-in: `{cookies: [...]}` (a JSON cookie list as browsers and their extensions export it, or Playwright’s `{cookies: [...]}` storage state) or `{sign_in: {url, username, password, username_selector?, password_selector?, submit_selector?}}` (the fields are found on the sign-in page when no selectors are given; a recipe sent without `password` keeps the stored one); `null` clears it. ' +
      'It is write-only: stored encrypted, and answered only as a summary (`kind`, `sign_in_url`, `username`, `cookie_count`), never a password or a cookie’s value. ' +
      '`recording.allow_submit` (default false) lets a recording submit forms, for staging sites.',
    parameters: projectId,
    request: { name: 'Acme store (EU)', refresh_schedule: 'daily', access: { sign_in: { url: 'https://app.acme.example/login', username: 'demo@acme.example', password: 'correct horse battery' } } },
    response: { ...project, name: 'Acme store (EU)', refresh_schedule: 'daily', access: { kind: 'sign_in', sign_in_url: 'https://app.acme.example/login', username: 'demo@acme.example' } },
  },
  'projects-signingSecret': {
    description: 'The secret your server signs runtime embed URLs with (HMAC-SHA256; docs/embedding.md). Keep it on your server: anyone holding it can embed this project’s demos.',
    parameters: projectId,
    response: { signing_secret: 'sk_sign_2mQ9xV4cT7bN1kP8rL3sY6fD0gH5jAq7Wz1eR' },
  },
  'projects-rotateSigningSecret': {
    description: 'Replaces the signing secret. Runtime URLs signed with the old one answer 401 from now on, so deploy the new secret first where you can.',
    parameters: projectId,
    response: { signing_secret: 'sk_sign_8tR1yU5iO9pA3sD7fG2hJ6kL0zX4cVb2Nm9Qa' },
  },
  'projectRefresh-refreshProject': {
    description: 'Queues a re-recording of every ready generated demo of the project (uploaded ones are left alone), each charged like a refresh. Answers with the jobs queued.',
    parameters: projectId,
    response: { queued: 1, jobs: [IDS.job] },
  },
  'projectRefresh-webhookRefresh': {
    description:
      'For a deployment pipeline: re-records the project’s ready generated demos after a deploy. Authenticated by the project’s webhook secret in X-Webhook-Secret (set refresh_schedule to on-deploy), not by an API key.',
    parameters: { projectId: IDS.project, 'x-webhook-secret': 'whsec_4fG7hJ1kL5zX9cV3bN8mQ2wE6rT0yUo3Ip5As' },
    response: { refreshed: 1, jobs: [{ demoId: IDS.demo, jobId: IDS.job }] },
  },
  'demos-create': {
    description:
      'Asks for a demo of the project’s page: the service plans a tour for the prompt, records it in a browser, composes and encodes it. It costs one credit, charged now and refunded if generation fails. The answer (202) has the demo id and where to follow it: poll `pollUrl`, or open `wsUrl` for pushed progress. `mode` is `script` (a planned tour, the default) or `agent` (a browsing agent decides each step); `presentation.recordingTemplate.id` picks the tour style (`auto` lets the service choose). `presentation.aspect` (`16:9`, `9:16`, `1:1`, or a list of them) adds a vertical or square cut of the same recording beside the 16:9 video, at no extra credit: each is listed in the demo’s `variants` and served at `/video/{id}.mp4?aspect=9x16` (the GIF and thumbnail too).',
    request: { project_id: IDS.project, prompt: 'Show the pricing plans and start a team trial', format: 'mp4', resolution: '1080p', duration_target: '10s', mode: 'script', presentation },
    response: { id: IDS.demo, status: 'pending', jobId: IDS.job, pollUrl: `${BASE}/api/v1/demos/${IDS.demo}/progress`, wsUrl: `wss://showreel.example.com/api/v1/demos/${IDS.demo}/ws` },
  },
  'demos-list': {
    description: 'Your demos, newest first, optionally of one project. JSON-valued columns (action_script, presentation, context, ai_plan) are returned as JSON text.',
    parameters: { project_id: IDS.project },
    response: { demos: [demo] },
  },
  'demos-get': {
    description: 'One demo with its latest job (status, step, error) and the history of its refreshes and restyles. Its media are at /video/{id}.mp4, /gif/{id}.gif and /thumb/{id}.png once ready.',
    parameters: demoId,
    response: { ...demo, latestJob: job, refreshHistory },
  },
  'demos-progress': {
    description: 'Where generation stands: status, the current step and progress from 0 to 1, and the error of a failed demo. Poll every 2 s or so, or use the WebSocket (`wsUrl`) instead.',
    parameters: demoId,
    response: { id: IDS.demo, status: 'recording', phase: 'recording', step: 'recording', progress: 0.45, error: null, updated_at: '2026-05-04T09:12:48.000Z' },
  },
  'demos-update': {
    description: 'Changes the prompt or the page context of a demo. The video stays as it is until you refresh the demo.',
    parameters: demoId,
    request: { prompt: 'Show the pricing plans, then the FAQ' },
    response: { ...demo, prompt: 'Show the pricing plans, then the FAQ' },
  },
  'demos-delete': {
    description: 'Deletes the demo and its media; its share and embed pages answer 404 from now on. The events that made it stay in the history (credits included).',
    parameters: demoId,
    response: { ok: true },
  },
  'demos-refresh': {
    description: 'Plans and records the demo again from its prompt, against the page as it is now (one credit, refunded on failure). The current video stays until the new one is ready. 409 while a job is running.',
    parameters: demoId,
    response: { id: IDS.demo, status: 'refreshing', jobId: IDS.job },
  },
  'demoVersions-list': {
    description: 'Every published version of the demo, newest first. The media of the most recent ones (SHOWREEL_VERSIONS_KEPT, default 5) and of the current one stay playable under `?v=N`; older ones are listed with `kept: false` and null URLs.',
    parameters: demoId,
    response: {
      versions: [
        { version: 2, current: true, made_by: 'restyle', cut_from_version: 1, duration_ms: 10240, kept: true, video_url: `${BASE}/video/${IDS.demo}.mp4?v=2`, gif_url: `${BASE}/gif/${IDS.demo}.gif?v=2`, thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=2`, variants: [{ aspect: '9:16', format: 'mp4', width: 1080, height: 1920, duration_ms: 10240, video_url: `${BASE}/video/${IDS.demo}.mp4?v=2&aspect=9x16`, gif_url: `${BASE}/gif/${IDS.demo}.gif?v=2&aspect=9x16`, thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=2&aspect=9x16` }], created_at: '2026-05-04T09:12:48.000Z' },
        { version: 1, current: false, made_by: 'generate', cut_from_version: null, duration_ms: 10240, kept: true, video_url: `${BASE}/video/${IDS.demo}.mp4?v=1`, gif_url: `${BASE}/gif/${IDS.demo}.gif?v=1`, thumbnail_url: `${BASE}/thumb/${IDS.demo}.png?v=1`, variants: [], created_at: '2026-05-04T09:02:11.000Z' },
      ],
    },
  },
  'demoVersions-restore': {
    description: 'Makes an earlier kept version current again: its stored media become what the share page, embeds and plain media URLs serve, and its look is the one a restyle starts from. Nothing is recorded and no credit is charged. 409 while a job of the demo runs, or once the version’s media are no longer kept.',
    parameters: { ...demoId, version: '1' },
    response: { ...demo, version: 1 },
  },
  'demos-restyle': {
    description: 'Records the stored action script again with a new presentation (background, window, cursor, zoom, narration …): same tour, new look, no re-planning. `narration: {enabled, voice, speed}` turns the voice on or off or changes it (the shots stretch to fit the lines; off, the video is as before); `presentation.aspect` adds or drops the vertical and square cuts. One credit, refunded on failure. A restyle that changes only `presentation.aspect` (send the demo’s presentation with other cuts) records nothing: the cuts are composed from the recording kept with the version shown, at no credit. 409 when that version keeps no recording (made before recordings were kept) or burns its captions in: `?force=true` records it again with the cut, at the usual price. 400 for a demo without a recorded script (an upload), or narration on a server with no speech engine.',
    parameters: demoId,
    request: { presentation: { background: 'midnight', mockup: 'macos-dark', cursor: { style: 'dot', size: 24 } } },
    response: { id: IDS.demo, status: 'recording', jobId: IDS.job },
  },
  'narration-script': {
    description:
      'The narration script (issue 59): one line per chapter, what the next recording with `presentation.narration` on says over that chapter’s shot. Each line is written from the page’s own words (the chapter’s heading and the fact it states), or is your edit (`by: user`). 409 before the demo’s first recording (there are no chapters yet), and for uploads.',
    parameters: demoId,
    response: {
      edited: true,
      lines: [
        { chapter: 'Acme', text: 'Plan, track and ship work your whole team can see.', by: 'rules' },
        { chapter: 'Pricing', text: 'Three plans, from free.', by: 'user' },
        { chapter: 'Start a team trial', text: 'Start a team trial.', by: 'rules' },
      ],
    },
  },
  'narration-edit': {
    description:
      'Edits the narration script: send the lines by chapter title (all of them, or only those you change). A line the same as the one written from the page is not kept as an edit; an empty text says nothing over that chapter; an empty list goes back to the written script. Edits are kept by chapter, so a refresh that changes the page rewrites only the lines of the chapters that changed. Nothing is recorded: you hear the edit after the next restyle (with narration on) or refresh. 400 names a chapter the demo does not have.',
    parameters: demoId,
    request: { lines: [{ chapter: 'Pricing', text: 'Three plans, from free.' }] },
    response: {
      edited: true,
      lines: [
        { chapter: 'Acme', text: 'Plan, track and ship work your whole team can see.', by: 'rules' },
        { chapter: 'Pricing', text: 'Three plans, from free.', by: 'user' },
        { chapter: 'Start a team trial', text: 'Start a team trial.', by: 'rules' },
      ],
    },
  },
  'analytics-demo': {
    description:
      'Who watched the demo over a range (default: the last 30 days; `from` and `to` are ISO dates or date-times, rounded to whole UTC hours): views (page loads of the share page or any player), unique viewers (per UTC day, from a daily-salted hash: no cookie, no stored address), plays, seconds watched per play, completion rate, drop-off per tenth of the length and per chapter, the embedding pages’ hosts, and a series per hour (ranges up to two days) or day. Another user’s demo is a 404.',
    parameters: { ...demoId, from: '2026-05-01', to: '2026-05-04T12:00:00Z' },
    response: {
      demo_id: IDS.demo, from: '2026-05-01T00:00:00.000Z', to: '2026-05-04T12:00:00.000Z', views: 42, unique_viewers: 31, plays: 30, average_seconds_watched: 8.4, completion_rate: 0.6,
      dropoff: {
        by_tenth: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((percent, i) => ({ percent, views: 30 - i, rate: Math.round(((30 - i) / 30) * 1000) / 1000 })),
        by_chapter: [{ index: 0, title: 'Sign in', views: 30, rate: 1 }, { index: 1, title: 'Pricing', views: 22, rate: 0.733 }],
      },
      top_hosts: [{ host: 'www.acme.example', views: 35 }, { host: 'blog.acme.example', views: 7 }],
      bucket: 'day',
      series: [{ start: '2026-05-01T00:00:00.000Z', views: 12, plays: 9 }, { start: '2026-05-02T00:00:00.000Z', views: 30, plays: 21 }],
    },
  },
  'apiKeys-create': {
    description:
      'A live key (`sr_live_…`) acts as you from a server or the CLI; a publishable key (`sr_pub_…`) may only call POST /embed/generate for one project, from pages on its `allowed_domains`. The plaintext key is in this answer only: it is stored hashed.',
    request: { name: 'Marketing site', type: 'publishable', project_id: IDS.project, allowed_domains: ['acme.example', 'www.acme.example'] },
    response: { id: IDS.key, key: publishableKey, prefix: publishableKey.slice(0, 13), name: 'Marketing site', type: 'publishable', project_id: IDS.project, allowed_domains: ['acme.example', 'www.acme.example'] },
  },
  'apiKeys-list': {
    description: 'Your keys with their display prefix, type, project, allowed domains (JSON text) and when each was last used. Secrets are never returned again.',
    response: { keys: [{ id: IDS.key, key_prefix: liveKey.slice(0, 14), name: 'CI', type: 'live', project_id: null, allowed_domains: null, last_used_at: '2026-05-04T09:12:31.000Z', created_at: '2026-05-01T08:00:00.000Z' }] },
  },
  'apiKeys-revoke': {
    description: 'Revokes a key: requests with it answer 401 from now on. Revoking the key you are calling with is allowed.',
    parameters: { id: IDS.key },
    response: { ok: true },
  },
  'credits-get': {
    description: 'Your balance, the packs on sale with their price per credit, the auto top-off setting, and the 20 latest transactions.',
    response: { balance: 11, packs, autoTopoff, recentTransactions: [transaction] },
  },
  'credits-getAutoTopoff': {
    description: 'Whether a pack is bought automatically when a charge finds the balance short, which pack, and the balance that triggers it.',
    response: autoTopoff,
  },
  'credits-setAutoTopoff': {
    description: 'Turns auto top-off on or off. On, a charge that finds the balance below `threshold` (or short of its cost) buys `packId` first with the saved payment method.',
    request: { enabled: true, packId: '20', threshold: 2 },
    response: { enabled: true, packId: '20', threshold: 2 },
  },
  'credits-transactions': {
    description: 'Every purchase, charge, refund and bonus, newest first, a page at a time: pass `nextCursor` back as `cursor` for the next page.',
    parameters: { limit: 20 },
    response: { transactions: [transaction], nextCursor: null },
  },
  'credits-purchase': {
    description: 'Starts a checkout for a pack and answers with the URL to pay at. Credits are added when the payment service confirms the payment (its webhook), never by this call. 404 when this service takes no payments.',
    request: { packId: '20' },
    response: { checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4', checkoutId: 'cs_test_a1B2c3D4', packId: '20' },
  },
  'backgrounds-list': {
    description: 'Backgrounds for `presentation.background`: your uploads (newest first), then the built-in catalog. Each carries a ready-to-use `background` value.',
    response: {
      backgrounds: [
        { id: IDS.background, name: 'brand-wall.png', source: 'upload', kind: 'image', imageUrl: `${BASE}/background/${IDS.background}.png`, background: { imageUrl: `${BASE}/background/${IDS.background}.png` }, created_at: '2026-05-02T10:00:00.000Z' },
        { id: 'dusk', name: 'Dusk', source: 'catalog', kind: 'gradient', imageUrl: `${BASE}/background/catalog/dusk.jpg`, background: { from: '#7b5cff', to: '#ff6fb1', angle: 135 }, created_at: null },
      ],
    },
  },
  'device-code': {
    description: 'Starts a device login (RFC 8628), as `showreel login` does: show the user `verification_uri_complete` (or the `user_code`), then poll POST /device/token every `interval` seconds.',
    request: { client_name: 'showreel CLI on ada-laptop', scope: 'write' },
    response: { device_code: 'Hk3v9QpL2xW7sN4bT8cZ1rF6yJ0dG5mA', user_code: 'WDJB-MJHT', verification_uri: `${BASE}/app/device`, verification_uri_complete: `${BASE}/app/device?user_code=WDJB-MJHT`, expires_in: 900, interval: 5 },
  },
  'device-token': {
    description: 'Polls a device login. Until the user approves it answers 400 `{"error": "authorization_pending"}` (or `slow_down`: wait longer); then, once, a new live key for the device. Denied or expired logins answer `access_denied` or `expired_token`.',
    request: { device_code: 'Hk3v9QpL2xW7sN4bT8cZ1rF6yJ0dG5mA', grant_type: 'urn:ietf:params:oauth:grant-type:device_code' },
    response: { access_token: liveKey, token_type: 'Bearer', key_id: IDS.key },
  },
  'device-authorize': {
    description: 'Approves or denies a device login by its user code, from a signed-in dashboard session (never an API key: a key must not mint keys).',
    request: { user_code: 'WDJB-MJHT', decision: 'approve' },
    response: { ok: true, client_name: 'showreel CLI on ada-laptop' },
  },
  'usage-get': {
    description: 'Who is calling (and with which credential), the plan and its limits, this calendar month’s usage (UTC), the balance, auto top-off, and today’s demos started through publishable keys against their daily caps.',
    response: {
      account: { id: IDS.user, email: 'ada@acme.example', via: 'live', key_id: IDS.key },
      plan: { id: 'standard', name: 'Standard', formats: ['mp4', 'webm'], resolutions: ['720p', '1080p'], limits: { requests_per_minute_per_key: 30, requests_per_minute_per_user: 60, max_upload_bytes: 524288000 } },
      period: { start: '2026-05-01T00:00:00.000Z', end: '2026-06-01T00:00:00.000Z' },
      usage: { demos_generated: 3, refreshes: 1, restyles: 1, uploads: 0, credits_spent: 5 },
      balance: 11,
      autoTopoff,
      embeds: { limits: { daily_generations_per_key: 50, daily_generations_per_project: 200 }, today: { day: '2026-05-04', by_key: [{ key_id: IDS.key, generations: 2 }], by_project: [{ project_id: IDS.project, generations: 2 }] } },
    },
  },
};
