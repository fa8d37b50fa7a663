import { expect } from 'vitest';

const TYPE = 'type.googleapis.com/google.rpc.';

/** The ErrorInfo every AIP-193 error carries. */
export function errorInfo(reason: string, domain = 'iam.chainguard.dev') {
  return expect.objectContaining({ '@type': `${TYPE}ErrorInfo`, reason, domain });
}

/** An AIP-193 error body with exactly one ErrorInfo and the given extra details. */
export function aipError(code: number, message: string | RegExp, reason: string, domain = 'iam.chainguard.dev', extra: unknown[] = []) {
  return {
    code,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
    details: [errorInfo(reason, domain), ...extra],
  };
}

export const badRequest = (fieldViolations: { field: string; description: string }[]) => ({ '@type': `${TYPE}BadRequest`, fieldViolations });
export const preconditionFailure = (violations: { type: string; description: string }[]) => ({ '@type': `${TYPE}PreconditionFailure`, violations });
