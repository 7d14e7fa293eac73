import { stringOption } from '../../command.js';
import type { ClientCommand } from '../command.js';
import { unwrap } from '../context.js';

/** `showreel demos stats ID`: who watched a demo (GET /demos/{id}/analytics), as lines or --json. */
export const demosStats: ClientCommand = {
  name: 'demos stats',
  summary: 'Who watched a demo: views, unique viewers, plays, completion, drop-off, embedding hosts',
  usage: 'demos stats ID [--from DATE] [--to DATE]',
  help: ['--from DATE      start of the range (ISO date or date-time; default 30 days before --to)', '--to DATE        end of the range (default now)'],
  options: { from: { type: 'string' }, to: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(parsed, context) {
    const from = stringOption(parsed, 'from');
    const to = stringOption(parsed, 'to');
    const stats = unwrap(
      await (await context.api()).GET('/api/v1/demos/{id}/analytics', {
        params: { path: { id: parsed.positionals[0]! }, query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } },
      }),
    );
    const percent = (rate: number) => `${Math.round(rate * 100)}%`;
    context.print(stats, () =>
      [
        `range:           ${stats.from.slice(0, 16).replace('T', ' ')} – ${stats.to.slice(0, 16).replace('T', ' ')} UTC`,
        `views:           ${stats.views}`,
        `unique viewers:  ${stats.unique_viewers}`,
        `plays:           ${stats.plays}`,
        `completion:      ${percent(stats.completion_rate)}`,
        `watched:         ${stats.average_seconds_watched} s per play`,
        `still watching:  ${stats.dropoff.by_tenth.map((t) => `${t.percent}% ${percent(t.rate)}`).join(', ')}`,
        ...(stats.dropoff.by_chapter.length > 0 ? [`chapters:        ${stats.dropoff.by_chapter.map((c) => `${c.title ?? `#${c.index + 1}`} ${percent(c.rate)}`).join(', ')}`] : []),
        `embedded on:     ${stats.top_hosts.length > 0 ? stats.top_hosts.map((h) => `${h.host} (${h.views})`).join(', ') : '-'}`,
      ].join('\n'),
    );
  },
};
