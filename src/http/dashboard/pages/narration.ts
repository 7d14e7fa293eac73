import { html, type SafeHtml } from '../../pages/html.js';
import { createSpeechEngine } from '../../../pipeline/narration/speech.js';
import { decodeLine, SAMPLE_RATE, writeWav } from '../../../pipeline/narration/audio.js';
import { LINE_MAX_CHARS } from '../../../pipeline/narration/types.js';
import { toErrorResponse } from '../../errors.js';
import { sendError } from '../../respond.js';
import { csrfField, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Issue 59 on the demo page: the narration script (what the next narrated recording says, one line per chapter),
 * shown and editable in a form that works without script; and in the restyle form, the voice's preview line.
 */
type Script = { lines: Array<{ chapter: string; text: string; by: 'rules' | 'user' }>; edited: boolean };
type Spoken = { voice: string; engine: string; lines: Array<{ chapter: string; text: string; start_ms: number }>; unsaid: Array<{ chapter: string; reason: string }> } | null;

export function narrationPanel(input: { demoId: string; viewer: Viewer; script: Script | null; spoken: Spoken; engine: boolean }): SafeHtml | null {
  const { script, spoken } = input;
  if (!script) return null;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return html`<details class="panel narration" data-narration${script.edited ? html` open` : null}>
<summary><h2>Narration script</h2></summary>
<p class="muted small">${spoken
    ? html`This version is narrated (voice ${spoken.voice}): ${spoken.lines.map((line, i) => html`${i > 0 ? ' · ' : ''}<span>${line.chapter} at ${seconds(line.start_ms)}</span>`)}.`
    : 'This version is not narrated. Turn narration on under Restyle to hear these lines, one a shot.'}
${input.engine ? null : html` <strong>This server has no speech engine yet</strong> (its operator sets SHOWREEL_SPEECH).`}</p>
${spoken && spoken.unsaid.length > 0 ? html`<p class="warning small" role="status">Not said: ${spoken.unsaid.map((line) => html`<span>“${line.chapter}”: ${line.reason} </span>`)}</p>` : null}
<form method="post" action="/app/demos/${input.demoId}/narration" class="narration-script">${csrfField(input.viewer)}
${script.lines.map((line, i) => html`<div class="line"><input type="hidden" name="chapter" value="${line.chapter}">
<label for="n-line-${String(i)}">${line.chapter}${line.by === 'user' ? html` <span class="muted small">(yours)</span>` : null}</label>
<input id="n-line-${String(i)}" name="line" maxlength="${String(LINE_MAX_CHARS)}" value="${line.text}" placeholder="Nothing said over this chapter"></div>`)}
<p class="muted small">Each line is said over its chapter’s shot, and shown as its caption. Written from the page’s own words; change any (up to ${String(LINE_MAX_CHARS)} characters), or empty one to say nothing there. Saving records nothing: you hear it from the next restyle with narration on, or refresh.</p>
<div class="actions inline"><button type="submit" class="secondary">Save the script</button>${script.edited ? html`<button type="submit" class="secondary" name="reset" value="1">Back to the page’s words</button>` : null}</div>
</form>
</details>`;
}

/** The voices an OpenAI-compatible endpoint offers (a local server may take others: the field is free text). */
export const OPENAI_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;

export const narrationRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/narration$/,
    async handle(r) {
      const form = await r.form();
      const chapters = form.getAll('chapter');
      const lines = form.get('reset') ? [] : form.getAll('line').map((text, i) => ({ chapter: chapters[i] ?? '', text }));
      // The API's checks (a chapter the demo has, at most 84 characters): its 400 is shown as a page.
      await r.caller.narration.edit({ id: r.params[0]!, lines });
      redirect(r.res, `/app/demos/${r.params[0]}?done=narration`);
    },
  },
  {
    // The restyle form's "Hear a line": the demo's first line in the chosen voice and speed, as WAV, for the
    // browser to play. Owner-scoped through the API's read of the script; nothing is stored.
    method: 'GET',
    pattern: /^\/app\/demos\/([^/]+)\/narration\/preview\.wav$/,
    async handle(r) {
      const engine = createSpeechEngine(r.services.config);
      if (!engine) return sendError(r.res, 409, 'This server has no speech engine (SHOWREEL_SPEECH), so there is no voice to hear.');
      let line: string;
      try {
        const script = await r.caller.narration.script({ id: r.params[0]! });
        line = script.lines.find((l) => l.text)?.text ?? 'This is how the narration sounds.';
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.fault) throw error;
        return sendError(r.res, mapped.status, mapped.body.error);
      }
      const voice = (r.url.searchParams.get('narration_voice') ?? '').trim().slice(0, 100) || engine.defaultVoice;
      const speed = Math.min(1.2, Math.max(0.7, Number(r.url.searchParams.get('narration_speed')) || 1));
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-voice-'));
      try {
        const samples = await decodeLine(await engine.speak(line, { voice, speed }), path.join(dir, 'line.audio'));
        const file = path.join(dir, 'line.wav');
        await writeWav(file, samples);
        const wav = await fs.readFile(file);
        r.res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': wav.length, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff', 'X-Sample-Rate': String(SAMPLE_RATE) });
        r.res.end(wav);
      } catch (error) {
        return sendError(r.res, 502, `The speech engine could not say the line: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  },
];
