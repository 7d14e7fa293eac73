import { aspectVariants, type Presentation } from '../../../demos/index.js';
import { aspectChoices, aspectsFromForm } from './aspect-fields.js';
import type { RestyleButton } from './restyle-price.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { csrfField, errorBox, option, type Viewer } from '../layout.js';

/**
 * The restyle form: every member of the spec's Presentation as a field, opened on the demo's effective presentation
 * (every member with the compositor's defaults resolved, effectivePresentation), so an untouched form describes the
 * video as it is. The script lists what will change and keeps the button disabled until something does; the server
 * refuses an unchanged form too (no script). The button says what the change costs (issue 59: a cut alone is free),
 * asked of the server (`restyle/price`) as the form changes. The recording template is not here: a restyle replays the stored script,
 * so the template it was planned with cannot change (run-job keeps it on record).
 */

export type Background = { id: string; name: string; source: string; background: { imageUrl: string } | { from: string; to: string; angle: number }; imageUrl: string };

const num = (form: URLSearchParams, name: string) => {
  const value = form.get(name);
  return value === null || value.trim() === '' ? undefined : Number(value);
};
const on = (form: URLSearchParams, name: string) => form.get(name) === 'on';
const text = (form: URLSearchParams, name: string) => {
  const value = form.get(name)?.trim();
  return value ? value : undefined;
};

/** The form's fields as a Presentation; the API validates bounds and values. */
export function presentationFromForm(form: URLSearchParams, backgrounds: Background[]): Presentation {
  const p: Record<string, any> = {};
  const kind = form.get('bg_kind');
  if (kind === 'colour') p.background = text(form, 'bg_colour');
  if (kind === 'gradient') p.background = { from: text(form, 'bg_from'), to: text(form, 'bg_to'), angle: num(form, 'bg_angle') ?? 135 };
  if (kind === 'image') {
    const chosen = form.get('bg_image');
    const entry = backgrounds.find((b) => b.id === chosen);
    // The demo's own image (not in the catalog or the user's uploads) stays as it is.
    p.background = entry ? entry.background : chosen?.startsWith('url:') ? { imageUrl: chosen.slice(4) } : undefined;
  }
  p.mockup = form.get('mockup') ?? undefined;
  p.padding = num(form, 'padding');
  p.zoom = { enabled: on(form, 'zoom_enabled'), intensity: num(form, 'zoom_intensity'), transitionMs: num(form, 'zoom_transition_ms') };
  p.cursor = { style: form.get('cursor_style') ?? undefined, color: text(form, 'cursor_color'), size: num(form, 'cursor_size') };
  p.clickEffect = { style: form.get('click_style') ?? undefined, color: text(form, 'click_color'), scale: num(form, 'click_scale') };
  p.fade = { inMs: num(form, 'fade_in_ms'), outMs: num(form, 'fade_out_ms'), color: form.get('fade_color') ?? undefined };
  p.windowAnimation = { intro: on(form, 'intro'), outro: on(form, 'outro'), introDurationMs: num(form, 'intro_ms'), outroDurationMs: num(form, 'outro_ms') };
  p.debugHud = on(form, 'debug_hud');
  // Issue 57: the end card; its words left empty come from the page. Kept while off, so turning it back on keeps them.
  p.endCard = { enabled: on(form, 'end_card'), title: text(form, 'end_title'), ctaText: text(form, 'end_cta'), ctaUrl: text(form, 'end_url') };
  // Issue 59: off is no member at all, as a demo that never had narration (so an untouched form changes nothing).
  if (on(form, 'narration_enabled')) p.narration = { enabled: true, voice: text(form, 'narration_voice'), speed: num(form, 'narration_speed') };
  p.aspect = aspectsFromForm(form);
  return JSON.parse(JSON.stringify(p)) as Presentation; // drops the members left undefined
}

const HEX = /^#[0-9a-f]{6}$/i;
const check = (name: string, label: string, checked: boolean) =>
  html`<label class="check"><input type="checkbox" name="${name}" data-label="${label}"${checked ? html` checked` : null}> ${label}</label>`;
const numberField = (name: string, label: string, value: unknown, min: number, max: number, step: number) =>
  html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="number" min="${min}" max="${max}" step="${step}" value="${typeof value === 'number' ? String(value) : ''}"></div>`;
/** A choice of the spec's values, each shown in words (issue 57: the options read `macos-light`, `arrow`, `ripple`). */
const select = (name: string, label: string, values: ReadonlyArray<readonly [string, string]>, current: unknown) =>
  html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${values.map(([v, words]) => option(v, words, v === current))}</select></div>`;
const MOCKUPS = [['macos-light', 'Mac window, light'], ['macos-dark', 'Mac window, dark'], ['minimal', 'Plain frame'], ['none', 'No frame']] as const;
const CURSORS = [['arrow', 'Arrow'], ['dot', 'Dot'], ['circle', 'Ring'], ['crosshair', 'Crosshair'], ['none', 'Hidden']] as const;
const CLICKS = [['ripple', 'Ripple'], ['pulse', 'Pulse'], ['glow', 'Glow'], ['none', 'None']] as const;
const FADES = [['black', 'Black'], ['white', 'White']] as const;
const textField = (name: string, label: string, value: string | undefined, max: number, placeholder: string, type = 'text') =>
  html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" maxlength="${max}" placeholder="${placeholder}" value="${value ?? ''}"></div>`;
/** A colour picker for #rrggbb; any other CSS colour the demo has (`navy`, `rgb(…)`) stays a text field, not lost. */
const colourField = (name: string, label: string, value: string | undefined, fallback: string) =>
  html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" ${value && !HEX.test(value) ? html`type="text" class="colour-text"` : html`type="color"`} value="${value ?? fallback}"></div>`;

export function restyleForm(input: {
  demoId: string;
  viewer: Viewer;
  current: Presentation;
  backgrounds: Background[];
  credits: number;
  /** issue 59: the submit button's words and price for the form as shown (restyle-price.ts); the script asks again as it changes */
  button: RestyleButton;
  /** issue 59: whether the shown version's recording is kept (a cut alone is made from it, free) */
  captureKept: boolean;
  frameUrl: string | null;
  error?: string | null;
  /** issue 59: the server's speech engine (its voices offered, its default voice shown), or null when it has none */
  speech?: { name: string; defaultVoice: string; voices: readonly string[] } | null;
  /** issue 59: a cut could not be made from the kept capture (the 409's error): offer to record it again */
  recordAgain?: boolean;
}): SafeHtml {
  const c = input.current as Record<string, any>;
  const bg = c.background;
  const bgKind = typeof bg === 'string' ? 'colour' : bg && 'from' in bg ? 'gradient' : 'image';
  const imageUrl: string | undefined = bg && typeof bg === 'object' && 'imageUrl' in bg ? bg.imageUrl : undefined;
  const known = imageUrl ? input.backgrounds.find((b) => 'imageUrl' in b.background && b.background.imageUrl === imageUrl) : undefined;
  const images = [
    ...(imageUrl && !known ? [html`<option value="url:${imageUrl}" data-url="${imageUrl}" selected>This demo's image</option>`] : []),
    ...input.backgrounds.map((b) => html`<option value="${b.id}" data-url="${b.imageUrl}"${b === known ? html` selected` : null}>${b.name}${b.source === 'upload' ? ' (yours)' : ''}</option>`),
  ];
  const credits = `${input.credits} credit${input.credits === 1 ? '' : 's'}`;
  return html`<form method="post" action="/app/demos/${input.demoId}/restyle" class="restyle" data-restyle${input.error ? html` data-posted` : null}>
${errorBox(input.error)}
${csrfField(input.viewer)}
<div class="restyle-grid">
<div class="fields">
<fieldset><legend>Background</legend>
<div class="radios">${[['colour', 'Colour'], ['gradient', 'Gradient'], ['image', 'Image']].map(([v, l]) => html`<label class="check"><input type="radio" name="bg_kind" value="${v!}" data-label="Background"${v === bgKind ? html` checked` : null}> ${l}</label>`)}</div>
<div class="row" data-bg-kind="colour">
${colourField('bg_colour', 'Colour', typeof bg === 'string' ? bg : undefined, '#1f2937')}
</div>
<div class="row" data-bg-kind="gradient">
${colourField('bg_from', 'From', bg?.from, '#4f46e5')}
${colourField('bg_to', 'To', bg?.to, '#db2777')}
${numberField('bg_angle', 'Angle (degrees)', bg?.angle ?? 135, -360, 360, 1)}
</div>
<div data-bg-kind="image">
<label for="f-bg_image">Image</label>
<select id="f-bg_image" name="bg_image" data-backgrounds>${images}</select>
<div class="upload-bg"><label for="f-bg_file">Upload a background (PNG, JPEG or WebP, up to 10 MB)</label><input id="f-bg_file" type="file" accept="image/png,image/jpeg,image/webp" data-background-upload><p class="hint" data-background-status>Uploading needs JavaScript.</p></div>
</div>
</fieldset>
<fieldset><legend>Window</legend><div class="row">
${select('mockup', 'Window frame', MOCKUPS, c.mockup)}
${numberField('padding', 'Padding (0–0.3)', c.padding, 0, 0.3, 0.01)}
</div></fieldset>
<fieldset><legend>Zoom</legend>${check('zoom_enabled', 'Zoom in on actions', c.zoom?.enabled)}<div class="row">
${numberField('zoom_intensity', 'Intensity (1–3)', c.zoom?.intensity, 1, 3, 0.1)}
${numberField('zoom_transition_ms', 'Transition ms', c.zoom?.transitionMs, 100, 2000, 50)}
</div></fieldset>
<fieldset><legend>Cursor and clicks</legend><div class="row">
${select('cursor_style', 'Cursor', CURSORS, c.cursor?.style)}
${colourField('cursor_color', 'Cursor colour', c.cursor?.color, '#111827')}
${numberField('cursor_size', 'Cursor size (8–64)', c.cursor?.size, 8, 64, 1)}
</div><div class="row">
${select('click_style', 'Click effect', CLICKS, c.clickEffect?.style)}
${colourField('click_color', 'Click colour', c.clickEffect?.color, '#6366f1')}
${numberField('click_scale', 'Click scale (0.2–3)', c.clickEffect?.scale, 0.2, 3, 0.1)}
</div></fieldset>
<fieldset><legend>Fades and animation</legend><div class="row">
${numberField('fade_in_ms', 'Fade in ms', c.fade?.inMs, 0, 3000, 50)}
${numberField('fade_out_ms', 'Fade out ms', c.fade?.outMs, 0, 3000, 50)}
${select('fade_color', 'Fade colour', FADES, c.fade?.color)}
</div>
${check('intro', 'Window rises in', c.windowAnimation?.intro)} ${check('outro', 'Window sinks out', c.windowAnimation?.outro)}
<div class="row">
${numberField('intro_ms', 'Rise-in ms', c.windowAnimation?.introDurationMs, 200, 2000, 50)}
${numberField('outro_ms', 'Sink-out ms', c.windowAnimation?.outroDurationMs, 200, 2000, 50)}
</div>
${check('debug_hud', 'Show the debug HUD (step names and timings)', c.debugHud)}
</fieldset>
<fieldset><legend>End card</legend>
${check('end_card', 'Close on an end card', c.endCard?.enabled)}
<div data-end-card>
<div class="row">
${textField('end_title', 'Title', c.endCard?.title, 80, 'The page’s name')}
${textField('end_cta', 'Call to action', c.endCard?.ctaText, 40, 'Visit your site')}
</div>
${textField('end_url', 'Its link', c.endCard?.ctaUrl, 2048, 'The demo’s page', 'url')}
<p class="hint">The last seconds of the video show the title, the call to action as a button and its address. Left empty, each is taken from the page.</p>
</div>
</fieldset>
${narrationFields(input.demoId, c.narration, input.speech ?? null)}
${aspectChoices(aspectVariants(input.current))}
</div>
<div class="preview-col">
<p class="muted small">Preview</p>
<div class="preview" data-preview aria-hidden="true">
<div class="pv-window"><div class="pv-bar"><i></i><i></i><i></i></div><div class="pv-page"><div class="pv-zoom">${input.frameUrl ? html`<img class="pv-frame" src="${input.frameUrl}" alt="" data-frame>` : html`<b></b><span></span><span></span><span class="short"></span>`}</div><div class="pv-cursor"></div><div class="pv-click"></div><div class="pv-hud">step 2 · click · 1.2 s</div></div></div>
<div class="pv-fade"></div>
</div>
<p class="hint" data-preview-note>${input.frameUrl ? 'A frame of this demo, framed in the look you choose (the preview follows your choices with JavaScript).' : 'The preview follows your choices as you change them (it needs JavaScript).'}</p>
<div class="changes" data-changes aria-live="polite"><p class="muted small">Nothing changed yet: this is the demo's current look.</p></div>
<div class="actions"><button type="submit" data-restyle-submit data-price="${input.button.price}">${input.button.label}</button>${input.recordAgain ? html` <button type="submit" class="secondary" formaction="/app/demos/${input.demoId}/restyle?force=true" data-record-again>Record it again with the cut for ${credits}</button>` : null}</div>
<p class="muted small">Restyling re-records the stored script with this look and costs ${credits}; the current video stays online until the new one is ready, and stays listed under Versions. ${input.captureKept ? 'Adding or removing a cut alone records nothing and is free: the cut is made from the recording kept with the video.' : 'This version’s recording was not kept (it was made before recordings were), so a new cut records it again, at the same price.'}</p>
</div>
</div>
</form>`;
}

/**
 * Issue 59: narration on or off, the voice (the engine's voices offered, any other name accepted: a local server has
 * its own) and the speed; "Hear a line" plays the demo's first line in that voice (a GET of the form to the preview,
 * in a new tab, so it works without script). Without a speech engine on the server the fieldset says so, disabled.
 */
function narrationFields(demoId: string, narration: { enabled?: boolean; voice?: string; speed?: number } | undefined, speech: { name: string; defaultVoice: string; voices: readonly string[] } | null): SafeHtml {
  if (!speech) {
    return html`<fieldset disabled><legend>Narration</legend>${check('narration_enabled', 'Narrate: a voice reads one line per shot', false)}
<p class="hint">This server has no speech engine: its operator sets SHOWREEL_SPEECH (openai or elevenlabs) to narrate demos.</p></fieldset>`;
  }
  return html`<fieldset><legend>Narration</legend>${check('narration_enabled', 'Narrate: a voice reads one line per shot', narration?.enabled === true)}
<div class="row">
<div><label for="f-narration_voice">Voice</label><input id="f-narration_voice" name="narration_voice" list="narration-voices" maxlength="100" value="${narration?.voice ?? ''}" placeholder="${speech.defaultVoice}">
<datalist id="narration-voices">${speech.voices.map((voice) => html`<option value="${voice}"></option>`)}</datalist></div>
${numberField('narration_speed', 'Speed (0.7–1.2)', narration?.speed ?? 1, 0.7, 1.2, 0.05)}
</div>
<p><button type="submit" class="secondary" formaction="/app/demos/${demoId}/narration/preview.wav" formmethod="get" formtarget="_blank" formnovalidate>Hear a line in this voice</button></p>
<p class="hint">Spoken by ${speech.name === 'elevenlabs' ? 'ElevenLabs (a voice id)' : 'the speech endpoint'}; the shots lengthen where a line needs it, and the captions follow the spoken words. Edit the lines on the demo page.</p>
</fieldset>`;
}
