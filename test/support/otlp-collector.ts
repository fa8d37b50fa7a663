import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { otlpTracesFromProtobuf } from './otlp-protobuf.js';

/** A span as a collector receives it over OTLP/HTTP JSON (ids in hex), its attributes flattened. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number };
  service: string;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

const plain = (v: AnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? ''));
const flat = (attributes: KeyValue[] | undefined) => Object.fromEntries((attributes ?? []).map((a) => [a.key, plain(a.value)]));

export interface OtlpCollector {
  /** its base URL: OTEL_EXPORTER_OTLP_ENDPOINT */
  url: string;
  spans: CollectedSpan[];
  /** export requests it got */
  posts: number;
  /** the content type of each */
  contentTypes: string[];
  close(): Promise<void>;
}

/** A recording OTLP/HTTP collector on loopback: takes trace exports on `/v1/traces`, protobuf or JSON, and keeps their spans. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const collector: OtlpCollector = { url: '', spans: [], posts: 0, contentTypes: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !['application/json', 'application/x-protobuf'].includes(type)) {
        res.writeHead(404).end();
        return;
      }
      collector.posts += 1;
      collector.contentTypes.push(type);
      const bytes = Buffer.concat(chunks);
      const body = (type === 'application/json' ? JSON.parse(bytes.toString('utf8')) : otlpTracesFromProtobuf(bytes)) as {
        resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: Record<string, unknown>[] }[] }[];
      };
      for (const rs of body.resourceSpans) {
        const service = String(flat(rs.resource.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            collector.spans.push({
              traceId: s.traceId as string,
              spanId: s.spanId as string,
              parentSpanId: (s.parentSpanId as string | undefined) ?? '',
              name: s.name as string,
              kind: s.kind as number,
              attributes: flat(s.attributes as KeyValue[]),
              links: ((s.links as { traceId: string; spanId: string }[] | undefined) ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
              status: (s.status as { code?: number } | undefined) ?? {},
              service,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  collector.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  collector.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return collector;
}
