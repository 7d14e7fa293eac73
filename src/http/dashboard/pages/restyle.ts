import { toErrorResponse } from '../../errors.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { appPage, csrfField, errorBox, option, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';

/**
 * Restyle: every member of the spec's Presentation as a form field, prefilled with the demo's current look, and a
 * small CSS preview the script redraws as fields change (background, window mockup, padding, zoom, cursor, click
 * effect, fade, window animation, HUD). The server turns the form into a Presentation and the API's restyle checks
 * it, so its bounds are the spec's.
 */

type Presentation = Record<string, any>;
type Background = { id: string; name: string; source: string; background: { imageUrl: string } | { from: string; to: string; angle: number }; imageUrl: string };

const num = (form: URLSearchParams, name: string) => {
  const value = form.get(name);
  return value === null || value.trim() === '' ? undefined : Number(value);
};
const on = (form: URLSearchParams, name: string) => form.get(name) === 'on';

/** The form's fields as a Presentation; the API validates bounds and values. */
export function presentationFromForm(form: URLSearchParams, backgrounds: Background[]): Presentation {
  const p: Presentation = {};
  const kind = form.get('bg_kind');
  if (kind === 'colour') p.background = form.get('bg_colour') ?? '#111827';
  if (kind === 'gradient') p.background = { from: form.get('bg_from') ?? '#0ea5e9', to: form.get('bg_to') ?? '#6366f1', angle: num(form, 'bg_angle') ?? 135 };
  if (kind === 'image') {
    const entry = backgrounds.find((b) => b.id === form.get('bg_image'));
    if (entry) p.background = entry.background;
  }
  p.mockup = form.get('mockup') ?? 'macos-dark';
  p.padding = num(form, 'padding');
  p.zoom = { enabled: on(form, 'zoom_enabled'), intensity: num(form, 'zoom_intensity'), transitionMs: num(form, 'zoom_transition_ms') };
  p.cursor = { style: form.get('cursor_style') ?? undefined, color: form.get('cursor_color') ?? undefined, size: num(form, 'cursor_size') };
  p.clickEffect = { style: form.get('click_style') ?? undefined, color: form.get('click_color') ?? undefined, scale: num(form, 'click_scale') };
  p.fade = { inMs: num(form, 'fade_in_ms'), outMs: num(form, 'fade_out_ms'), color: form.get('fade_color') ?? undefined };
  p.windowAnimation = { intro: on(form, 'intro'), outro: on(form, 'outro'), introDurationMs: num(form, 'intro_ms'), outroDurationMs: num(form, 'outro_ms') };
  p.debugHud = on(form, 'debug_hud');
  const template = form.get('template');
  if (template) p.recordingTemplate = { id: template };
  return p;
}

function parsePresentation(text: string | null): Presentation {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

const TEMPLATES = ['auto', 'cinematic', 'guided-tour', 'plain-scroll', 'section-focus', 'hero-spotlight', 'feature-sweep', 'conversion-flow', 'pricing-focus', 'proof-scroll'];
const check = (name: string, label: string, checked: boolean) =>
  html`<label class="check"><input type="checkbox" name="${name}"${checked ? html` checked` : null}> ${label}</label>`;
const numberField = (name: string, label: string, value: unknown, min: number, max: number, step: number) =>
  html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="number" min="${min}" max="${max}" step="${step}" value="${typeof value === 'number' ? String(value) : ''}"></div>`;
const select = (name: string, label: string, values: readonly string[], current: unknown) =>
  html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${values.map((v) => option(v, v, v === current))}</select></div>`;

export function restyleForm(input: { demoId: string; viewer: Viewer; current: Presentation; backgrounds: Background[]; error?: string | null }): SafeHtml {
  const c = input.current;
  const bg = c.background;
  const bgKind = typeof bg === 'string' ? 'colour' : bg && 'from' in bg ? 'gradient' : bg && 'imageUrl' in bg ? 'image' : 'none';
  const currentImage = bg && typeof bg === 'object' && 'imageUrl' in bg ? input.backgrounds.find((b) => 'imageUrl' in b.background && b.background.imageUrl === bg.imageUrl)?.id : undefined;
  return html`<form method="post" action="/app/demos/${input.demoId}/restyle" class="restyle" data-restyle>
${errorBox(input.error)}
${csrfField(input.viewer)}
<div class="restyle-grid">
<div class="fields">
<fieldset><legend>Background</legend>
<div class="radios">${[['none', 'Default'], ['colour', 'Colour'], ['gradient', 'Gradient'], ['image', 'Catalog or upload']].map(([v, l]) => html`<label class="check"><input type="radio" name="bg_kind" value="${v!}"${v === bgKind ? html` checked` : null}> ${l}</label>`)}</div>
<div class="row">
<div><label for="f-bg_colour">Colour</label><input id="f-bg_colour" name="bg_colour" type="color" value="${typeof bg === 'string' && /^#[0-9a-f]{6}$/i.test(bg) ? bg : '#1f2937'}"></div>
<div><label for="f-bg_from">From</label><input id="f-bg_from" name="bg_from" type="color" value="${bg?.from ?? '#0ea5e9'}"></div>
<div><label for="f-bg_to">To</label><input id="f-bg_to" name="bg_to" type="color" value="${bg?.to ?? '#6366f1'}"></div>
${numberField('bg_angle', 'Angle', bg?.angle ?? 135, -360, 360, 1)}
</div>
<label for="f-bg_image">Image</label>
<select id="f-bg_image" name="bg_image" data-backgrounds>${input.backgrounds.map((b) => html`<option value="${b.id}" data-url="${b.imageUrl}"${b.id === currentImage ? html` selected` : null}>${b.name}${b.source === 'upload' ? ' (yours)' : ''}</option>`)}</select>
<div class="upload-bg"><label for="f-bg_file">Upload a background (PNG, JPEG or WebP, up to 10 MB)</label><input id="f-bg_file" type="file" accept="image/png,image/jpeg,image/webp" data-background-upload><p class="hint" data-background-status>Uploading needs JavaScript.</p></div>
</fieldset>
<fieldset><legend>Window</legend><div class="row">
${select('mockup', 'Mockup', ['macos-dark', 'macos-light', 'minimal', 'none'], c.mockup ?? 'macos-dark')}
${numberField('padding', 'Padding (0–0.3)', c.padding ?? 0.08, 0, 0.3, 0.01)}
${select('template', 'Tour', TEMPLATES, c.recordingTemplate?.id ?? 'auto')}
</div></fieldset>
<fieldset><legend>Zoom</legend>${check('zoom_enabled', 'Zoom in on actions', c.zoom?.enabled ?? true)}<div class="row">
${numberField('zoom_intensity', 'Intensity (1–3)', c.zoom?.intensity ?? 1.5, 1, 3, 0.1)}
${numberField('zoom_transition_ms', 'Transition ms', c.zoom?.transitionMs ?? 600, 100, 2000, 50)}
</div></fieldset>
<fieldset><legend>Cursor and clicks</legend><div class="row">
${select('cursor_style', 'Cursor', ['arrow', 'dot', 'circle', 'crosshair', 'none'], c.cursor?.style ?? 'arrow')}
<div><label for="f-cursor_color">Colour</label><input id="f-cursor_color" name="cursor_color" type="color" value="${c.cursor?.color && /^#[0-9a-f]{6}$/i.test(c.cursor.color) ? c.cursor.color : '#ffffff'}"></div>
${numberField('cursor_size', 'Size (8–64)', c.cursor?.size ?? 24, 8, 64, 1)}
</div><div class="row">
${select('click_style', 'Click effect', ['ripple', 'pulse', 'glow', 'none'], c.clickEffect?.style ?? 'ripple')}
<div><label for="f-click_color">Colour</label><input id="f-click_color" name="click_color" type="color" value="${c.clickEffect?.color && /^#[0-9a-f]{6}$/i.test(c.clickEffect.color) ? c.clickEffect.color : '#6c7cff'}"></div>
${numberField('click_scale', 'Scale (0.2–3)', c.clickEffect?.scale ?? 1, 0.2, 3, 0.1)}
</div></fieldset>
<fieldset><legend>Fades and animation</legend><div class="row">
${numberField('fade_in_ms', 'Fade in ms', c.fade?.inMs ?? 300, 0, 3000, 50)}
${numberField('fade_out_ms', 'Fade out ms', c.fade?.outMs ?? 300, 0, 3000, 50)}
${select('fade_color', 'Fade colour', ['black', 'white'], c.fade?.color ?? 'black')}
</div>
${check('intro', 'Window intro', c.windowAnimation?.intro ?? false)} ${check('outro', 'Window outro', c.windowAnimation?.outro ?? false)}
<div class="row">
${numberField('intro_ms', 'Intro ms', c.windowAnimation?.introDurationMs ?? 600, 200, 2000, 50)}
${numberField('outro_ms', 'Outro ms', c.windowAnimation?.outroDurationMs ?? 600, 200, 2000, 50)}
</div>
${check('debug_hud', 'Show the debug HUD (step names and timings)', c.debugHud ?? false)}
</fieldset>
</div>
<div class="preview-col">
<p class="muted small">Preview</p>
<div class="preview" data-preview aria-hidden="true">
<div class="pv-window"><div class="pv-bar"><i></i><i></i><i></i></div><div class="pv-page"><div class="pv-zoom"><b></b><span></span><span></span><span class="short"></span></div><div class="pv-cursor"></div><div class="pv-click"></div><div class="pv-hud">step 2 · click · 1.2 s</div></div></div>
<div class="pv-fade"></div>
</div>
<p class="hint" data-preview-note>The preview follows your choices as you change them (it needs JavaScript).</p>
<div class="actions"><button type="submit">Restyle the demo</button></div>
<p class="muted small">Restyling re-records the stored script with this look (one credit); the current video stays online until then.</p>
</div>
</div>
</form>`;
}

async function restylePage(r: DashboardRequest, status: number, current?: Presentation, error?: string) {
  const [demo, { backgrounds }] = await Promise.all([r.caller.demos.get({ id: r.params[0]! }), r.caller.backgrounds.list()]);
  // Restyling replays the recorded script: without one there is nothing the form could do (the demo page shows no
  // Restyle button then; this is for an address typed or kept from before).
  const cannot = demo.action_script
    ? null
    : demo.source === 'upload'
      ? 'This demo was uploaded as a finished video, so there is no recorded script to play again with a new look. Upload a new recording instead.'
      : 'This demo has no recording yet: it can be restyled once its first recording is ready.';
  const body = html`<p class="crumbs"><a href="/app/demos/${demo.id}">← ${demo.title ?? 'Back to the demo'}</a></p>
<h1>Restyle</h1>
${cannot ? html`<section class="panel"><p>${cannot}</p><p><a class="button secondary" href="/app/demos/${demo.id}">Back to the demo</a></p></section>` : restyleForm({ demoId: demo.id, viewer: r.viewer, current: current ?? parsePresentation(demo.presentation), backgrounds, error })}`;
  r.page(status, appPage({ title: 'Restyle', viewer: r.viewer, section: 'demos', body }));
}

export const restyleRoutes: Route[] = [
  { method: 'GET', pattern: /^\/app\/demos\/([^/]+)\/restyle$/, handle: (r) => restylePage(r, 200) },
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/restyle$/,
    async handle(r) {
      const form = await r.form();
      const { backgrounds } = await r.caller.backgrounds.list();
      const presentation = presentationFromForm(form, backgrounds);
      try {
        await r.caller.demos.restyle({ id: r.params[0]!, presentation } as Parameters<typeof r.caller.demos.restyle>[0]);
        redirect(r.res, `/app/demos/${r.params[0]}?done=restyling`);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.fault || ![400, 402, 409, 429].includes(mapped.status)) throw error;
        await restylePage(r, mapped.status, presentation, mapped.body.error);
      }
    },
  },
];
