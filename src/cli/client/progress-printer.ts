import cliProgress from 'cli-progress';
import { demoPhase } from '../../demos/phase.js';
import type { Progress } from './wait-for-demo.js';

/** The dashboard's words for where a demo stands (queued, analysing, recording, composing, ready, failed), not the
 * raw status and job step ("pending: recording" read as a contradiction, issue 35). */
const label = (p: Progress) => demoPhase(p.status, p.step);

/**
 * How a waiting command shows a demo's progress on stderr: a bar redrawn in place (cli-progress) on a terminal,
 * otherwise one line per step change, so CI logs stay readable. The bar never goes back: a late, older report
 * (the socket and a poll can overlap) must not make the user think the job restarted.
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now) {
  const started = now();
  /** Time since the wait began, m:ss: a long recording should look alive, and its length known. */
  const elapsed = () => {
    const seconds = Math.floor((now() - started) / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  };
  let shown = 0;
  let lastLabel = '';
  const bar = stream.isTTY
    ? new cliProgress.SingleBar(
        {
          stream,
          // A function, so the elapsed time moves on every redraw, not only when a progress report arrives.
          format: (options, params, payload) =>
            cliProgress.Format.Formatter({ ...options, format: '[{bar}] {percentage}% {step} · {elapsed}' }, params, { ...payload, elapsed: elapsed() }),
          barsize: 30,
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.legacy,
      )
    : null;
  let barStarted = false;
  return {
    update(p: Progress) {
      const fraction = p.status === 'ready' ? 1 : Math.max(0, Math.min(1, p.progress));
      shown = Math.max(shown, Math.round(fraction * 100));
      const step = label(p);
      if (bar) {
        if (!barStarted) bar.start(100, shown, { step });
        else bar.update(shown, { step });
        barStarted = true;
      } else if (step !== lastLabel) {
        stream.write(`${String(shown).padStart(3)}% ${step} · ${elapsed()}\n`);
      }
      lastLabel = step;
    },
    done() {
      if (bar && barStarted) bar.stop();
    },
  };
}
