/** Structured JSON logs (pino): one line per event, machine-readable, with the request id where there is one. */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'portal' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
