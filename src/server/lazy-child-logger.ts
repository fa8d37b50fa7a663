import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * A request's logger, made only when something logs through it (a warning, an error): most
 * requests log nothing but their one line, which is written without it, so most never pay for a
 * pino child.
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  let made: FastifyBaseLogger | undefined;
  const real = () => {
    made ??= logger.child(bindings, opts);
    return made;
  };
  const lazy = {
    child: (b: Bindings, o?: ChildLoggerOptions) => real().child(b, o),
    isLevelEnabled: (level: string) => ((made ?? logger) as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level),
    get level() {
      return (made ?? logger).level;
    },
    set level(level: string) {
      real().level = level;
    },
  } as Record<string, unknown>;
  for (const method of METHODS) lazy[method] = (...args: unknown[]) => (real()[method] as (...a: unknown[]) => void)(...args);
  return lazy as unknown as FastifyBaseLogger;
}
