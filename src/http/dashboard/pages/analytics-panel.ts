import type { DemoAnalytics } from '../../../analytics/index.js';
import { html, raw, type SafeHtml } from '../../pages/html.js';

/**
 * "Who watched" on a demo's page (issue 38): the headline figures of the last 30 days, views per day as a small
 * bar chart drawn here as SVG (no script, no chart library: the page's CSP allows neither), drop-off per tenth and
 * per chapter, and the embedding hosts.
 */
export function analyticsPanel(stats: DemoAnalytics): SafeHtml {
  const percent = (rate: number) => `${Math.round(rate * 100)} %`;
  return html`<section class="panel" data-analytics>
<h2>Who watched <span class="muted small">last 30 days</span></h2>
<p class="figures"><strong data-views>${stats.views}</strong> views · <strong data-unique>${stats.unique_viewers}</strong> unique viewers · <strong data-plays>${stats.plays}</strong> plays · <strong>${percent(stats.completion_rate)}</strong> watched to the end · <strong>${stats.average_seconds_watched}</strong> s watched per play</p>
${seriesChart(stats)}
${stats.plays > 0 ? html`<p class="muted small">Still watching at ${stats.dropoff.by_tenth.map((t, i) => html`${i > 0 ? ' · ' : ''}${t.percent} %: ${percent(t.rate)}`)}</p>` : null}
${stats.dropoff.by_chapter.length > 0 ? html`<p class="muted small">Chapters reached: ${stats.dropoff.by_chapter.map((c, i) => html`${i > 0 ? ' · ' : ''}${c.title ?? `Chapter ${c.index + 1}`}: ${percent(c.rate)}`)}</p>` : null}
${stats.top_hosts.length > 0 ? html`<p class="muted small">Embedded on: ${stats.top_hosts.map((h, i) => html`${i > 0 ? ', ' : ''}${h.host} (${h.views})`)}</p>` : null}
<p class="muted small">No cookies and no stored addresses; visitors who ask not to be tracked (Do Not Track, Global Privacy Control) are not counted.</p>
</section>`;
}

/** Views per bucket as bars, plays as a darker part of each; sized to the panel, labelled for screen readers. */
export function seriesChart(stats: DemoAnalytics): SafeHtml {
  const width = 600;
  const height = 120;
  const points = stats.series;
  const max = Math.max(1, ...points.map((p) => p.views));
  const step = width / Math.max(1, points.length);
  const bar = Math.max(1, step * 0.8);
  const bars = points
    .map((p, i) => {
      const x = (i * step).toFixed(1);
      const h = ((p.views / max) * (height - 10)).toFixed(1);
      const hp = ((p.plays / max) * (height - 10)).toFixed(1);
      return `<rect x="${x}" y="${(height - Number(h)).toFixed(1)}" width="${bar.toFixed(1)}" height="${h}" fill="#9aa5ff"><title>${p.start.slice(0, stats.bucket === 'day' ? 10 : 13)}: ${p.views} views</title></rect>` +
        `<rect x="${x}" y="${(height - Number(hp)).toFixed(1)}" width="${bar.toFixed(1)}" height="${hp}" fill="#4f5bd5"/>`;
    })
    .join('');
  // Only numbers and ISO dates go into this markup, never text a user typed.
  return html`<svg class="chart" role="img" aria-label="${`Views per ${stats.bucket}: ${stats.views} in all, most in one ${stats.bucket}: ${max}`}" viewBox="0 0 ${width} ${height}" width="100%" height="${height}" preserveAspectRatio="none" data-chart>${raw(bars)}<line x1="0" y1="${height}" x2="${width}" y2="${height}" stroke="#c9ccd6"/></svg>`;
}
