import { isDeepStrictEqual } from 'node:util';
import { priceOf, type DurationTarget } from '../../../credits/index.js';
import { type Presentation, quoteRestyle } from '../../../demos/index.js';
import { effectivePresentation } from '../../../pipeline/compose/style.js';
import type { ViewportName } from '../../../pipeline/types.js';
import { toErrorResponse } from '../../errors.js';
import { html } from '../../pages/html.js';
import { sendError } from '../../respond.js';
import { appPage } from '../layout.js';
import { pageFrame } from '../preview-frame.js';
import type { DashboardRequest, Route } from '../request.js';
import { sendJson } from '../../respond.js';
import { redirect } from '../send.js';
import { restyleButton } from './restyle-price.js';
import { presentationFromForm, restyleForm } from './restyle-form.js';
import { OPENAI_VOICES } from './narration.js';
import { createSpeechEngine } from '../../../pipeline/narration/speech.js';

/**
 * Restyle: the form (restyle-form.ts) opened on the demo's effective presentation, a preview built on a real frame of
 * the demo (preview-frame.ts, served below, owner-scoped through the API's demo read), and the post, which the API's
 * restyle checks (its bounds are the spec's). An unchanged look is refused here: it would cost a credit for the same video.
 */

function parsePresentation(text: string | null): Presentation {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** The look alone: the recording template is the planner's and a restyle cannot change it. */
const lookOf = (presentation: Presentation) => {
  const { recordingTemplate: _template, ...look } = effectivePresentation(presentation);
  return look;
};

type ShownDemo = Awaited<ReturnType<DashboardRequest['caller']['demos']['get']>>;

/** Whether the form describes the demo's look as it is (an unchanged restyle is refused: same video, a credit). */
const unchangedLook = (posted: Presentation, demo: ShownDemo) => isDeepStrictEqual(lookOf(posted), lookOf(parsePresentation(demo.presentation)));

/**
 * What the post sends: when only the cuts changed, the demo's own presentation with the new cuts, as the API compares
 * it, so that the cut is made from the kept capture (no recording, no credit) however the form writes the look.
 */
function presentationToSend(posted: Presentation, demo: ShownDemo): Presentation {
  const stored = parsePresentation(demo.presentation);
  const { aspect: _posted, ...postedLook } = lookOf(posted);
  const { aspect: _stored, ...storedLook } = lookOf(stored);
  return isDeepStrictEqual(postedLook, storedLook) ? { ...stored, aspect: posted.aspect ?? '16:9' } : posted;
}

/** The button for the form's presentation, priced by the API's own rule (quoteRestyle); unchanged is no quote. */
function buttonFor(demo: ShownDemo, posted: Presentation | undefined) {
  const price = priceOf((demo.duration_target ?? '10s') as DurationTarget);
  if (!posted || unchangedLook(posted, demo)) return restyleButton(null, price);
  return restyleButton(quoteRestyle({ ...demo, captureKept: demo.capture_kept }, presentationToSend(posted, demo)), price);
}

async function restylePage(r: DashboardRequest, status: number, posted?: Presentation, error?: string, recordAgain = false) {
  const [demo, { backgrounds }] = await Promise.all([r.caller.demos.get({ id: r.params[0]! }), r.caller.backgrounds.list()]);
  // Restyling replays the recorded script: without one there is nothing the form could do (the demo page shows no
  // Restyle button then; this is for an address typed or kept from before).
  const cannot = demo.action_script
    ? null
    : demo.source === 'upload'
      ? 'This demo was uploaded as a finished video, so there is no recorded script to play again with a new look. Upload a new recording instead.'
      : 'This demo has no recording yet: it can be restyled once its first recording is ready.';
  const current = effectivePresentation(posted ?? parsePresentation(demo.presentation));
  const form = restyleForm({
    demoId: demo.id, viewer: r.viewer, current, backgrounds, error,
    credits: priceOf((demo.duration_target ?? '10s') as DurationTarget),
    button: buttonFor(demo, posted),
    captureKept: demo.capture_kept,
    frameUrl: demo.video_key ? `/app/demos/${demo.id}/restyle/frame.png?v=${demo.version}` : null,
    speech: speechChoice(r),
    recordAgain,
  });
  const body = html`<p class="crumbs"><a href="/app/demos/${demo.id}">← ${demo.title ?? 'Back to the demo'}</a></p>
<h1>Restyle</h1>
${cannot ? html`<section class="panel"><p>${cannot}</p><p><a class="button secondary" href="/app/demos/${demo.id}">Back to the demo</a></p></section>` : form}`;
  r.page(status, appPage({ title: 'Restyle', viewer: r.viewer, section: 'demos', body }));
}

/** Issue 59: the server's speech engine as the form offers it, or null when it has none. */
function speechChoice(r: DashboardRequest) {
  const engine = createSpeechEngine(r.services.config);
  return engine ? { name: engine.name, defaultVoice: engine.defaultVoice, voices: engine.name === 'openai' ? OPENAI_VOICES : [] } : null;
}

export const restyleRoutes: Route[] = [
  { method: 'GET', pattern: /^\/app\/demos\/([^/]+)\/restyle$/, handle: (r) => restylePage(r, 200) },
  {
    // Issue 59: the button's words for the form as it stands (the page's script asks as the user changes it). A read:
    // the form's fields in the query, the csrf token left out; the post is priced again by the API, whatever this said.
    method: 'GET',
    pattern: /^\/app\/demos\/([^/]+)\/restyle\/price$/,
    json: true,
    async handle(r) {
      const [{ backgrounds }, demo] = await Promise.all([r.caller.backgrounds.list(), r.caller.demos.get({ id: r.params[0]! })]);
      sendJson(r.res, 200, buttonFor(demo, presentationFromForm(r.url.searchParams, backgrounds)), { 'Cache-Control': 'no-store' });
    },
  },
  {
    method: 'GET',
    pattern: /^\/app\/demos\/([^/]+)\/restyle\/frame\.png$/,
    async handle(r) {
      // The API's read: another user's demo is its 404.
      const demo = await r.caller.demos.get({ id: r.params[0]! });
      const { projects } = await r.caller.projects.list();
      const viewport = (projects.find((p) => p.id === demo.project_id)?.viewport ?? 'desktop') as ViewportName;
      const frame = demo.video_key
        ? await pageFrame(r.services.storage, {
            videoKey: demo.video_key, presentation: parsePresentation(demo.presentation), resolution: demo.resolution, viewport, durationMs: demo.duration_ms,
          })
        : null;
      if (!frame) return sendError(r.res, 404, 'This demo has no video to take a frame from yet.');
      r.res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': frame.length, 'Cache-Control': 'private, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
      r.res.end(frame);
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/restyle$/,
    async handle(r) {
      const form = await r.form();
      const [{ backgrounds }, demo] = await Promise.all([r.caller.backgrounds.list(), r.caller.demos.get({ id: r.params[0]! })]);
      const presentation = presentationFromForm(form, backgrounds);
      if (unchangedLook(presentation, demo)) {
        return restylePage(r, 400, presentation, 'Nothing changed: this is already the demo’s look. Change something first; an unchanged restyle would cost a credit for the same video.');
      }
      const sent = presentationToSend(presentation, demo);
      try {
        await r.caller.demos.restyle({ id: r.params[0]!, presentation: sent } as Parameters<typeof r.caller.demos.restyle>[0]);
        redirect(r.res, `/app/demos/${r.params[0]}?done=restyling`);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.fault || ![400, 402, 409, 429].includes(mapped.status)) throw error;
        // Issue 59: a cut the kept capture cannot make (none kept, burned-in captions): the page offers to record it.
        await restylePage(r, mapped.status, presentation, mapped.body.error, mapped.status === 409 && /\?force=true/.test(mapped.body.error));
      }
    },
  },
];
