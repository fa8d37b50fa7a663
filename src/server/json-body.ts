import { apiError, invalidFields } from '../errors/error-registry.js';
import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { nestsDeeperThan } from '../json/json-depth.js';
import { keepReceivedText } from '../json/received-text.js';

/** Deepest nesting of objects and arrays a request body may have; no v2 resource needs more than a few levels. */
export const MAX_BODY_DEPTH = 64;

/**
 * The JSON body parser of the proxy: prototype-safe, bounded in depth before it is parsed (deeper
 * bodies are INVALID_ARGUMENT before any work), and an empty body is an empty object, so a create
 * without a body names its missing fields like any other.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      done(invalidFields([{ field: 'body', description: `nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels` }]));
      return;
    }
    try {
      done(null, keepReceivedText(sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }), text));
    } catch (err) {
      const message = (err as Error).message;
      done(/prototype|constructor/i.test(message) ? apiError('FORBIDDEN_KEY') : apiError('INVALID_JSON', { reason: message }));
    }
  });
}
