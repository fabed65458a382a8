/** Structured JSON logs (pino): one line per event, machine-readable, with the request id where there is one. */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'portal' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/**
 * A start-up failure as one JSON line (level 60, fatal) on stderr, in the shape of every other line, before the
 * process exits with `exitCode`: a log pipeline reads it like the rest, and nothing else is printed (no stack for
 * a failure the message explains). Written synchronously, so it is out before process.exit().
 */
export function logStartupFailure(message: string, exitCode: number, fields: Record<string, unknown> = {}): void {
  const logger = pino({ base: { service: 'portal' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: 2, sync: true }));
  logger.fatal({ ...fields, exitCode }, message);
}
