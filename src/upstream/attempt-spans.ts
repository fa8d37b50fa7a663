/**
 * What a call to a backend is, for the spans of its attempts: which backend, what for (a request's
 * own call, a lookup that completes another resource, a token exchange), and what was asked.
 */
export interface UpstreamCall {
  backend: 'v1' | 'v2' | 'issuer';
  protocol: 'http' | 'grpc';
  /** an HTTP method, or the RPC's name */
  method: string;
  /** the full URL called (no query), or the RPC's path */
  target: string;
  /** what the call is for, when it is not the request's own read or write */
  purpose?: 'lookup' | 'token-exchange' | undefined;
  /** the backend's host and port (worked out once per client, not per call) */
  server?: UpstreamServer | undefined;
}

/** A backend's host and port, as its spans name it. */
export interface UpstreamServer {
  address: string;
  port: number;
}

// a proxy has a few backends, set at start: each base URL is parsed once, whoever asks
const servers = new Map<string, UpstreamServer>();

/** The host and port of a backend's base URL. */
export function upstreamServer(baseUrl: string): UpstreamServer {
  let server = servers.get(baseUrl);
  if (!server) {
    const url = new URL(baseUrl);
    server = { address: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
    servers.set(baseUrl, server);
  }
  return server;
}

/** One attempt's span: the traceparent the attempt carries (naming the span as its parent), and its end. */
export interface AttemptSpan {
  readonly traceparent: string;
  /** how the attempt ended: a status (HTTP, or a gRPC code), or no answer (the error's kind) */
  end(outcome: { status: number } | { grpcCode: number } | { error: string }): void;
}

/** The spans of one upstream call: a client span per attempt, `resend` counting the attempts before it. */
export interface CallSpans {
  attempt(resend: number): AttemptSpan;
}

/** A traced request (or shadow read): what each call it causes asks for its attempts' spans. */
export interface RequestSpans {
  call(call: UpstreamCall): CallSpans;
}
