/** Something the proxy opened at start, closed once at shutdown. */
export interface Part {
  /** what the shutdown's log line calls it */
  readonly name: string;
  close(): Promise<void> | void;
}

export interface PartEvents {
  closed(name: string): void;
  failed(name: string, err: unknown): void;
}

/**
 * The parts of one proxy in the order they were opened (each after what it uses), closed in the
 * reverse order: what uses a part is closed before it. A part that fails to close is said, and the
 * ones it used are closed all the same.
 */
export class PartList {
  private readonly parts: Part[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly events: PartEvents) {}

  /** Adds an opened part (closed after everything added later); answers it. */
  add<T extends Part>(part: T): T {
    this.parts.push(part);
    return part;
  }

  /** Closes every part, last opened first; once (a second call waits for the first). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const part of this.parts.reverse()) {
        try {
          await part.close();
          this.events.closed(part.name);
        } catch (err) {
          this.events.failed(part.name, err);
        }
      }
    })();
    return this.closing;
  }
}
