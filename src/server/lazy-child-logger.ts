import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger whose pino child is made only when something logs through it (a warning, an
 * error): most requests log nothing but their one line, which is written without it. One small
 * object per request, its methods on the prototype (a closure per method per request cost more
 * than the child it saved).
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private real(): FastifyBaseLogger {
    this.made ??= this.logger.child(this.bindings, this.opts);
    return this.made;
  }

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, opts);
  }

  isLevelEnabled(level: string): boolean {
    return ((this.made ?? this.logger) as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level);
  }

  get level(): string {
    return (this.made ?? this.logger).level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: unknown[]): void {
    (this.real().fatal as LogMethod)(...args);
  }

  error(...args: unknown[]): void {
    (this.real().error as LogMethod)(...args);
  }

  warn(...args: unknown[]): void {
    (this.real().warn as LogMethod)(...args);
  }

  info(...args: unknown[]): void {
    (this.real().info as LogMethod)(...args);
  }

  debug(...args: unknown[]): void {
    (this.real().debug as LogMethod)(...args);
  }

  trace(...args: unknown[]): void {
    (this.real().trace as LogMethod)(...args);
  }

  silent(...args: unknown[]): void {
    (this.real().silent as LogMethod)(...args);
  }
}

/** fastify's `childLoggerFactory`: a request's logger that makes its pino child on first use. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}
