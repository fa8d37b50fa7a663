import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type TcpMode = 'pass' | 'refuse' | 'hang';

/**
 * A TCP hop in front of a backend that can misbehave as a whole: `pass` forwards bytes both ways,
 * `refuse` stops listening (connects are refused), `hang` accepts and never answers. Every change
 * drops the open connections, as a restarting or wedged backend would.
 */
export class TcpFaultProxy {
  private mode: TcpMode = 'pass';
  private readonly sockets = new Set<Socket>();
  private server: Server;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: Server,
  ) {
    this.server = server;
  }

  static async start(targetUrl: string): Promise<TcpFaultProxy> {
    const u = new URL(targetUrl);
    const target = { host: u.hostname, port: Number(u.port) };
    let proxy: TcpFaultProxy | undefined;
    const server = createServer((client) => proxy?.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpFaultProxy(target, (server.address() as AddressInfo).port, server);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => {});
    if (this.mode === 'hang') return; // read nothing, answer nothing
    const upstream = createConnection(this.target);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async set(mode: TcpMode): Promise<void> {
    if (mode === this.mode) return;
    const was = this.mode;
    this.mode = mode;
    for (const s of this.sockets) s.destroy();
    if (mode === 'refuse') await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (was === 'refuse') {
      const server = createServer((client) => this.accept(client));
      await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
      this.server = server;
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.mode !== 'refuse') await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
