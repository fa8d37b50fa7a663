import type { Redis } from 'ioredis';

/**
 * What the replicas tell each other through Redis pub/sub: a topic per kind of news, on a
 * subscriber connection of its own (a subscribed connection takes no other commands). Publishing
 * never waits and never fails a request (pub/sub is best effort: a replica that was disconnected
 * misses messages, so every listener is also told when the connection is back, to catch up).
 */
export class FleetChannel {
  private readonly subscriber: Redis;
  private readonly listeners = new Map<string, ((message: string) => void)[]>();
  private readonly reconnected: (() => void)[] = [];

  constructor(private readonly redis: Redis) {
    // the same options (fail fast, reconnect forever); ioredis subscribes again after a reconnect
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (topic: string, message: string) => {
      for (const listener of this.listeners.get(topic) ?? []) listener(message);
    });
    let readyBefore = false;
    this.subscriber.on('ready', () => {
      // every 'ready' after the first is a reconnect: what was published meanwhile is lost
      if (readyBefore) for (const listener of this.reconnected) listener();
      readyBefore = true;
      void this.subscribeAll();
    });
    this.subscriber.connect().catch(() => undefined);
  }

  private subscribeAll(): Promise<void> {
    const topics = [...this.listeners.keys()];
    return topics.length === 0
      ? Promise.resolve()
      : this.subscriber.subscribe(...topics).then(
          () => undefined,
          () => undefined,
        );
  }

  /** Calls `listener` with each message of `topic`, from any replica (this one too). */
  on(topic: string, listener: (message: string) => void): void {
    const known = this.listeners.get(topic);
    if (known) known.push(listener);
    else {
      this.listeners.set(topic, [listener]);
      if (this.subscriber.status === 'ready') void this.subscriber.subscribe(topic).catch(() => undefined);
    }
  }

  /** Calls `listener` after each reconnect of the subscription (messages may have been missed). */
  onReconnect(listener: () => void): void {
    this.reconnected.push(listener);
  }

  /** Publishes without waiting; a Redis that is away loses the message (listeners catch up on reconnect). */
  publish(topic: string, message: string): void {
    this.redis.publish(topic, message).catch(() => undefined);
  }

  close(): void {
    this.subscriber.disconnect();
  }
}
