import type { AspectRatio } from '../../../demos/index.js';
import { escapeHtml, html, type SafeHtml } from '../../pages/html.js';

/**
 * Issue 59 in the dashboard: the vertical and square cuts a demo is made with, chosen on the new-demo and restyle
 * forms (checkboxes: the 16:9 video is always made), and offered on the demo's page once made.
 */
const CUTS = [
  ['9:16', '9:16 vertical', 'aspect_9x16'],
  ['1:1', '1:1 square', 'aspect_1x1'],
] as const;

/** The checkboxes, those of `current` checked. */
export function aspectChoices(current: readonly AspectRatio[]): SafeHtml {
  return html`<fieldset class="cuts"><legend>Cuts</legend>
<p class="hint">Besides the 16:9 video, from the same recording (no extra credit): for Reels, Shorts and TikTok, or a square post.</p>
<div class="radios">${CUTS.map(([aspect, label, name]) => html`<label class="check"><input type="checkbox" name="${name}" data-label="${label} cut"${current.includes(aspect) ? html` checked` : null}> ${label}</label>`)}</div>
</fieldset>`;
}

/** The form's choice as `presentation.aspect`: the 16:9 video and each cut checked; undefined when none is. */
export function aspectsFromForm(form: URLSearchParams): AspectRatio[] | undefined {
  const chosen = CUTS.filter(([, , name]) => form.get(name) === 'on').map(([aspect]) => aspect);
  return chosen.length > 0 ? ['16:9', ...chosen] : undefined;
}

interface ShownVariant {
  aspect: string;
  video_url: string;
  gif_url: string | null;
  thumbnail_url: string | null;
}

/** On the demo's page: each cut made, with its share page, download, GIF and thumbnail, and its iframe snippet. */
export function variantLinks(demo: { id: string; title: string | null; variants: ShownVariant[] }, publicUrl: string): SafeHtml | null {
  if (demo.variants.length === 0) return null;
  return html`<h3>Cuts</h3>${demo.variants.map((variant) => {
    const slug = variant.aspect.replace(':', 'x');
    const [w, h] = variant.aspect === '1:1' ? [540, 540] : [304, 540];
    const iframe = `<iframe src="${publicUrl}/embed/${demo.id}?aspect=${slug}" width="${w}" height="${h}" style="border:0;max-width:100%;aspect-ratio:${variant.aspect.replace(':', '/')};height:auto" allow="fullscreen; picture-in-picture" title="${escapeHtml(demo.title ?? 'Product demo')}"></iframe>`;
    return html`<p class="links" data-variant="${variant.aspect}"><strong>${variant.aspect === '1:1' ? '1:1 square' : '9:16 vertical'}</strong>: <a href="/share/${demo.id}?aspect=${slug}" target="_blank" rel="noopener">share page</a> · <a href="${variant.video_url}" download>video</a>${variant.gif_url ? html` · <a href="${variant.gif_url}" target="_blank" rel="noopener">GIF</a>` : null}${variant.thumbnail_url ? html` · <a href="${variant.thumbnail_url}" target="_blank" rel="noopener">thumbnail</a>` : null}</p>
<div class="copy-row"><textarea id="embed-${slug}" readonly rows="3" spellcheck="false" aria-label="Iframe for the ${variant.aspect} cut">${iframe}</textarea><button type="button" class="secondary" data-copy="embed-${slug}">Copy</button></div>`;
  })}`;
}
