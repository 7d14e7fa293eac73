import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout; every request and job gets a child logger carrying its ids. */
export function createLogger(level: string, destination: NodeJS.WritableStream = process.stdout): Logger {
  return pino(
    {
      level,
      base: { service: 'showreel' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'req.headers["x-webhook-secret"]'],
    },
    destination as pino.DestinationStream,
  );
}
