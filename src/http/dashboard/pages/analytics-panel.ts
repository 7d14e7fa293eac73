import type { DemoAnalytics } from '../../../analytics/index.js';
import { html, raw, type SafeHtml } from '../../pages/html.js';

/**
 * "Who watched" on a demo's page (issue 38): the headline figures of the last 30 days, views per day as a small
 * bar chart drawn here as SVG (no script, no chart library: the page's CSP allows neither), how many were still
 * watching at each tenth of the video and at each chapter, and the embedding hosts. Issue 57: an empty card says
 * "No views yet", the chart has its dates, a scale and a legend, drop-off is a chart too, and counts agree in number.
 */

const PRIVACY = 'No cookies and no stored addresses; visitors who ask not to be tracked (Do Not Track, Global Privacy Control) are not counted.';

/** "1 view", "2 views". */
const counted = (n: number, one: string, many = `${one}s`) => html`<strong>${n}</strong> ${n === 1 ? one : many}`;
const percent = (rate: number) => `${Math.round(rate * 100)} %`;

export function analyticsPanel(stats: DemoAnalytics): SafeHtml {
  const head = html`<h2>Who watched <span class="muted small">last 30 days</span></h2>`;
  if (stats.views === 0) {
    return html`<section class="panel" data-analytics>${head}
<p class="empty" data-no-views><strong>No views yet.</strong> When someone opens the share page or one of the embeds, the visit shows here within a minute.</p>
<p class="muted small">${PRIVACY}</p>
</section>`;
  }
  return html`<section class="panel" data-analytics>${head}
<p class="figures" data-figures>${counted(stats.views, 'view')} · ${counted(stats.unique_viewers, 'unique viewer')} · ${counted(stats.plays, 'play')} · <strong>${percent(stats.completion_rate)}</strong> watched to the end · <strong>${stats.average_seconds_watched}</strong> s watched per play</p>
${seriesChart(stats)}
${stats.plays > 0 ? dropoffChart(stats) : null}
${stats.dropoff.by_chapter.length > 0 ? html`<p class="muted small">Chapters reached: ${stats.dropoff.by_chapter.map((c, i) => html`${i > 0 ? ' · ' : ''}${c.title ?? `Chapter ${c.index + 1}`}: ${percent(c.rate)}`)}</p>` : null}
${stats.top_hosts.length > 0 ? html`<p class="muted small">Embedded on: ${stats.top_hosts.map((h, i) => html`${i > 0 ? ', ' : ''}${h.host} (${h.views})`)}</p>` : null}
<p class="muted small">${PRIVACY}</p>
</section>`;
}

/** A bucket's start as a person reads it: "27 Nov", or "27 Nov 14:00" for hours (UTC, as the dashboard's dates). */
function bucketLabel(start: string, bucket: DemoAnalytics['bucket']): string {
  const date = new Date(start);
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return bucket === 'hour' ? `${day} ${start.slice(11, 16)}` : day;
}

const W = 600;
const LEFT = 34;
const BOTTOM = 22;
const TOP = 8;

/**
 * Views per bucket as bars, plays as a darker part of each, over a scale (0 and the most in one bucket) and dates
 * (first, middle, last), with a legend. Only numbers and dates the server made go into the markup.
 */
export function seriesChart(stats: DemoAnalytics): SafeHtml {
  const height = 150;
  const plot = height - BOTTOM - TOP;
  const points = stats.series;
  const max = Math.max(1, ...points.map((p) => p.views));
  const step = (W - LEFT) / Math.max(1, points.length);
  const bar = Math.max(1, step * 0.8);
  const y = (n: number) => TOP + plot - (n / max) * plot;
  const bars = points
    .map((p, i) => {
      const x = (LEFT + i * step).toFixed(1);
      const title = `${bucketLabel(p.start, stats.bucket)}: ${p.views} view${p.views === 1 ? '' : 's'}, ${p.plays} play${p.plays === 1 ? '' : 's'}`;
      return `<g><title>${title}</title><rect x="${x}" y="${y(p.views).toFixed(1)}" width="${bar.toFixed(1)}" height="${(TOP + plot - y(p.views)).toFixed(1)}" fill="#9aa5ff"/>` +
        `<rect x="${x}" y="${y(p.plays).toFixed(1)}" width="${bar.toFixed(1)}" height="${(TOP + plot - y(p.plays)).toFixed(1)}" fill="#4f5bd5"/></g>`;
    })
    .join('');
  const ticks = [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])].filter((i) => i >= 0 && points[i]);
  const xLabels = ticks
    .map((i) => {
      const anchor = i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle';
      const x = i === 0 ? LEFT : i === points.length - 1 ? W : LEFT + i * step + bar / 2;
      return `<text x="${x.toFixed(1)}" y="${height - 6}" text-anchor="${anchor}" data-tick>${bucketLabel(points[i]!.start, stats.bucket)}</text>`;
    })
    .join('');
  const axis =
    `<line x1="${LEFT}" y1="${TOP + plot}" x2="${W}" y2="${TOP + plot}" stroke="#3a3f50"/>` +
    `<line x1="${LEFT}" y1="${TOP}" x2="${W}" y2="${TOP}" stroke="#262935" stroke-dasharray="3 3"/>` +
    `<text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${max}</text><text x="${LEFT - 6}" y="${TOP + plot + 4}" text-anchor="end">0</text>`;
  return html`<figure class="chart-box">
<figcaption class="legend small"><span class="key views"></span> Views <span class="key plays"></span> Plays <span class="muted">per ${stats.bucket}</span></figcaption>
<svg class="chart" role="img" aria-label="${`Views per ${stats.bucket}: ${stats.views} in all, most in one ${stats.bucket}: ${max}`}" viewBox="0 0 ${W} ${height}" width="100%" data-chart>${raw(axis + bars + xLabels)}</svg>
</figure>`;
}

/** Of the plays, the share still watching at 10 %, 20 % … 100 % of the video: ten bars with their figures. */
export function dropoffChart(stats: DemoAnalytics): SafeHtml {
  const height = 120;
  const plot = height - BOTTOM - 18;
  const tenths = stats.dropoff.by_tenth;
  const step = (W - LEFT) / Math.max(1, tenths.length);
  const bar = step * 0.7;
  const marks = tenths
    .map((t, i) => {
      const x = LEFT + i * step;
      const h = Math.max(1, t.rate * plot);
      const top = 18 + plot - h;
      return `<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${bar.toFixed(1)}" height="${h.toFixed(1)}" fill="#6c7cff"/>` +
        `<text x="${(x + bar / 2).toFixed(1)}" y="${(top - 4).toFixed(1)}" text-anchor="middle" class="value">${Math.round(t.rate * 100)}%</text>` +
        `<text x="${(x + bar / 2).toFixed(1)}" y="${height - 6}" text-anchor="middle">${t.percent}%</text>`;
    })
    .join('');
  const words = tenths.map((t) => `${t.percent} %: ${percent(t.rate)}`).join(', ');
  return html`<figure class="chart-box" data-dropoff>
<figcaption class="small"><strong>Still watching</strong> <span class="muted">of the plays, at each point of the video</span></figcaption>
<svg class="chart" role="img" aria-label="${`Still watching at ${words}`}" viewBox="0 0 ${W} ${height}" width="100%">${raw(`<line x1="${LEFT}" y1="${18 + plot}" x2="${W}" y2="${18 + plot}" stroke="#3a3f50"/>` + marks)}</svg>
</figure>`;
}
