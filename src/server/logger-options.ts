import { type DestinationStream, type LoggerOptions, stdSerializers } from 'pino';

// Credentials never reach a log line, whatever a serializer or a plugin decides to log.
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'request.headers.authorization',
  'authorization',
  // the operators' override secret is a credential too
  'req.headers["x-v2proxy-override-secret"]',
  'headers["x-v2proxy-override-secret"]',
  'request.headers["x-v2proxy-override-secret"]',
];

/**
 * Errors as pino writes them, less `rawPacket`: Node's HTTP parser attaches the bytes it choked on
 * (request line and headers, bearer token included), and fastify logs client errors at trace level.
 */
function errWithoutPacket(err: Error): Record<string, unknown> {
  const out = stdSerializers.err(err) as unknown as Record<string, unknown>;
  delete out.rawPacket;
  return out;
}

export function loggerOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: errWithoutPacket, error: errWithoutPacket },
    ...(stream ? { stream } : {}),
  };
}
