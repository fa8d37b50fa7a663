import { type Code, ConnectError } from '@connectrpc/connect';
import type { ApiError } from '../errors/api-error.js';
import { renderError } from '../errors/render-error.js';
import { BadRequestSchema, ErrorInfoSchema, PreconditionFailureSchema } from '../gen/google/rpc/error_details_pb.js';

type RenderedDetail = { '@type': string; [key: string]: unknown };
type Detail = NonNullable<ConstructorParameters<typeof ConnectError>[3]>[number];

/**
 * An ApiError as the gRPC status of the same error: its code, the same message text as the REST
 * body, and the same details (ErrorInfo first, then BadRequest or PreconditionFailure), which
 * connect sends as a google.rpc.Status in `grpc-status-details-bin`. `restPath` picks the domain.
 */
export function grpcErrorOf(err: ApiError, restPath: string): ConnectError {
  const { body } = renderError(err, restPath) as unknown as { body: { code: number; message: string; details: RenderedDetail[] } };
  const details: Detail[] = body.details.flatMap((d): Detail[] => {
    const type = d['@type'].split('/').pop();
    if (type === 'google.rpc.ErrorInfo') {
      return [
        {
          desc: ErrorInfoSchema,
          value: { reason: String(d.reason ?? ''), domain: String(d.domain ?? ''), metadata: (d.metadata as Record<string, string>) ?? {} },
        },
      ];
    }
    if (type === 'google.rpc.BadRequest') {
      return [{ desc: BadRequestSchema, value: { fieldViolations: (d.fieldViolations as { field: string; description: string }[]) ?? [] } }];
    }
    if (type === 'google.rpc.PreconditionFailure') {
      return [{ desc: PreconditionFailureSchema, value: { violations: (d.violations as { type: string; subject?: string; description: string }[]) ?? [] } }];
    }
    return [];
  });
  return new ConnectError(body.message, body.code as Code, undefined, details);
}
