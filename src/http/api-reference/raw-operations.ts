import type { OperationReference } from './api-operations.js';
import { BASE, IDS, publishableKey } from './samples.js';

const demoFile = (extension: string) => ({ file: `${IDS.demo}.${extension}` });
const embedAnswer = { demoId: IDS.demo, status: 'ready', embedUrl: `${BASE}/embed/${IDS.demo}`, cached: true };
const script = '/* Showreel embed SDK */ (function (window, document) { … })(window, document);';

/**
 * The operations served outside tRPC (uploads, the Stripe webhook, embeds, media, pages), by operationId. Binary
 * bodies and answers (videos, images) have no example value: their curl sample shows what to send.
 */
export const RAW_OPERATIONS: Record<string, OperationReference> = {
  'payments-stripeWebhook': {
    description:
      'Called by Stripe, not by clients: no API credential, the Stripe-Signature header over the raw body instead (checked with STRIPE_WEBHOOK_SECRET). Each event id is acted on once; a replay answers 200 and adds nothing. Acted on: checkout.session.completed, checkout.session.async_payment_succeeded, payment_intent.succeeded, payment_intent.payment_failed, and charge.refunded, charge.dispute.created, charge.dispute.closed (a refunded or disputed payment’s credits are taken back, even below a zero balance, and given back when a dispute closes with the payment standing); others are acknowledged.',
    parameters: { 'Stripe-Signature': 't=1777885951,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd' },
    request: { id: 'evt_1PqR2sT3uV4wX5yZ', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1B2c3D4', payment_status: 'paid' } } },
    response: { received: true, outcome: 'credited' },
  },
  'demos-localUpload': {
    description:
      'Publishes a video you recorded yourself (MP4 or WebM, checked by its bytes, at most the plan’s max_upload_bytes) as a ready demo: its thumbnail and GIF are derived from it. Send the file as the raw body with its Content-Type; the other fields are query parameters. Costs no credit.',
    parameters: { project_id: IDS.project, prompt: 'Walk through checkout', title: 'Checkout walkthrough', duration_ms: 12000, format: 'mp4', 'Content-Length': 1801472 },
    response: { id: IDS.demo, status: 'ready', jobId: IDS.job, shareUrl: `${BASE}/share/${IDS.demo}`, embedUrl: `${BASE}/embed/${IDS.demo}`, videoUrl: `${BASE}/video/${IDS.demo}.mp4` },
  },
  'demos-localAssets': {
    description: 'Replaces the derived thumbnail (a PNG) or GIF (an animated GIF) of an uploaded demo with your own; the raw file is the body. Generated demos keep theirs (400).',
    parameters: { id: IDS.demo, type: 'thumbnail', 'Content-Length': 48213 },
    response: { id: IDS.demo, type: 'thumbnail', url: `${BASE}/thumb/${IDS.demo}.png` },
  },
  'backgrounds-upload': {
    description: 'Uploads an image (PNG, JPEG or WebP, judged by its bytes, at most 10 MB) to use as a presentation background: the answer’s imageUrl goes in `presentation.background.imageUrl`.',
    response: { id: IDS.background, key: `backgrounds/${IDS.user}/${IDS.background}.png`, imageUrl: `${BASE}/background/${IDS.background}.png` },
  },
  'embeds-generate': {
    description:
      'What sdk.js calls for each placeholder: a demo of the calling page for the prompt, template and section given. The same page context answers with the demo already made (200, `cached: true`, free); a new one is generated (202, one credit) within the project’s daily caps, and with a publishable key only for a page of the project’s own site. Authenticate with a publishable key in X-API-Key (from a page on one of its allowed_domains, Origin else Referer, when it has some), or with a live key. CORS answers carry Access-Control-Allow-Origin for the calling origin.',
    request: { project_id: IDS.project, prompt: 'Show the pricing', template: 'pricing-focus', section: 'Pricing', context: { url: 'https://acme.example/pricing', title: 'Acme pricing', headings: ['Pricing', 'Teams', 'FAQ'], description: 'Plans for teams of every size' } },
    response: embedAnswer,
  },
  'embeds-generate-preflight': {
    description: 'The browser’s CORS preflight for POST /embed/generate from a customer page: allowed methods and headers for the calling origin, cached for a day.',
  },
  'embeds-runtime': {
    description:
      'The iframe URL your server signs (docs/embedding.md): the player for a ready demo (200), a loading state that follows progress (202), or a notice. The query is signed with the project’s signing secret (HMAC-SHA256 over `project_id.expires.payload`), so the page needs no key. A bad, tampered or expired URL answers its status with a small HTML notice for a browser (`Accept: text/html`) and `{"error"}` JSON for any other client.',
    parameters: { project_id: IDS.project, expires: '1777889551', signature: 'k3Jx9QmV2pL7sN4bT8cZ1rF6yJ0dG5mAe2Wq', payload: 'eyJkZW1vSWQiOiI3YzFlMmQzZi00YTViLTRjNmQtOGU5Zi0wYTFiMmMzZDRlNWYifQ' },
    response: '<!doctype html><html lang="en"><head><title>Pricing — Show the pricing plans</title>…</head><body><div data-showreel-player>…</div></body></html>',
  },
  'embeds-sdk': {
    description: 'The script a customer page loads once: it turns every `<div data-showreel>` into a 16:9 player (or `Showreel.mount(element, options)` from code) and re-emits the player’s events as `showreel:*` DOM events. The plain URL is cached a day; with `?v=` (its content hash) a year.',
    parameters: { v: 'Qm3xV9pL2sN4bT8c' },
    response: script,
  },
  'embeds-player-script': {
    description: 'The script inside the iframe player: playback, the loading state, and the Player.js postMessage protocol host pages control it with. Pages link it by content hash.',
    parameters: { v: 'Zt7yU1iO5pA9sD3f' },
    response: '/* Showreel player */ (function () { … })();',
  },
  'embeds-status': {
    description: 'Public progress of a demo by its unguessable id, for the loading player’s polling fallback (its WebSocket is /embed/{id}/ws). CORS is open.',
    parameters: { id: IDS.demo },
    response: { id: IDS.demo, status: 'recording', step: 'recording', progress: 0.45, error: null, updated_at: '2026-05-04T09:12:48.000Z', version: 1, playable: false },
  },
  'background-upload': {
    description: 'An uploaded background image, public by its unguessable id so the recorder and the preview can load it; cached for a year (it never changes).',
    parameters: { file: `${IDS.background}.png` },
  },
  'background-catalog': {
    description: 'One of the built-in catalog backgrounds, a 1920×1080 JPEG; GET /backgrounds lists them.',
    parameters: { file: 'dusk.jpg' },
  },
  'media-video': {
    description: 'The demo’s current video (MP4 or WebM, as requested), public by its unguessable id like the share page. Supports Range requests (seeking) and ETag revalidation.',
    parameters: { ...demoFile('mp4'), Range: 'bytes=0-1048575' },
  },
  'media-thumbnail': {
    description: 'The demo’s thumbnail, a PNG frame of the video, used by the share page’s preview cards.',
    parameters: demoFile('png'),
  },
  'media-gif': {
    description: 'A short animated GIF of the demo, for places a video cannot play (emails, READMEs).',
    parameters: demoFile('gif'),
  },
  'media-chapters': {
    description: 'The demo’s chapters as WebVTT, for `<track kind="chapters">`: the opening, each section the demo frames and its ending, titled in the page’s words and timed by the recording. The share page lists them and the player marks them on its timeline.',
    parameters: demoFile('vtt'),
  },
  'media-captions': {
    description: 'The demo’s captions as WebVTT, for `<track kind="captions">` (the player’s CC button): one short line per beat in the page’s words. 404 with the reason when captions are off (a page in another language and no model planner).',
    parameters: demoFile('vtt'),
  },
  'pages-share': {
    description: 'The public share page of a demo: the player, its title, and OpenGraph and Twitter tags so links unfurl with a preview. It cannot be framed; embed /embed/{id} instead.',
    parameters: { id: IDS.demo },
    response: '<!doctype html><html lang="en"><head><title>Pricing — Show the pricing plans · Showreel</title><meta property="og:video" content="…">…</head>…</html>',
  },
  'pages-embed': {
    description: 'The player alone, filling its frame, for `<iframe src="…/embed/{id}">` on any site. Not ready yet: a loading state that follows progress. Query flags autoplay, muted, loop and controls (1 or 0).',
    parameters: { id: IDS.demo },
    response: '<!doctype html><html lang="en"><head><title>Pricing — Show the pricing plans</title>…</head><body><div data-showreel-player>…</div></body></html>',
  },
  'analytics-beacon': {
    description:
      'What the share page and every Showreel player send with navigator.sendBeacon as a view goes on (issue 38): `load` once per page load, `play`, `progress` at 10, 20, 25 … 100 %, `chapter` with its index and title, and `watched` seconds. No credential and no cookie; the view id is random per page load. Repeats of the same view, event and value are dropped; bots (by user agent) and browsers sending `DNT: 1` or `Sec-GPC: 1` are answered 204 and not counted. Another site cannot usefully send these: beacons of unknown demos are not stored, and each address is rate limited.',
    request: { demo: IDS.demo, view: '9f1c2b7a4e6d4c0f8a3b5e7d1c2f4a6b', event: 'chapter', value: 1, title: 'Pricing', host: 'www.acme.example', surface: 'embed' },
  },
  'pages-oembed': {
    description: 'oEmbed for share URLs, so editors and chat tools that speak it (WordPress, Notion, Slack …) embed the player from a pasted link.',
    parameters: { url: `${BASE}/share/${IDS.demo}`, format: 'json', maxwidth: 640 },
    response: {
      version: '1.0',
      type: 'video',
      provider_name: 'Showreel',
      provider_url: BASE,
      title: 'Pricing — Show the pricing plans',
      html: `<iframe src="${BASE}/embed/${IDS.demo}" width="640" height="360" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
      width: 640,
      height: 360,
      thumbnail_url: `${BASE}/thumb/${IDS.demo}.png`,
    },
  },
};

/** A publishable key in the embed operations' curl samples (they run from pages, not servers). */
export const SAMPLE_PUBLISHABLE_KEY = publishableKey;
