import type { FastifyInstance } from 'fastify';
import { packageVersion } from '../config/package-version.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { openApiDocument } from './openapi-document.js';
import { renderOpenApiPage } from './openapi-page.js';

/**
 * `/openapi.json`, the REST surface's contract from the mappings and protos that serve it, and
 * `/docs`, its reference page: made on the first ask for them (most replicas are never asked), then kept.
 */
export function registerOpenApiRoutes(app: FastifyInstance, resources: readonly CompiledResource[]): void {
  let contract: { json: string; page: string } | undefined;
  const openApi = () => {
    if (!contract) {
      const doc = openApiDocument(resources, packageVersion());
      contract = { json: JSON.stringify(doc), page: renderOpenApiPage(doc) };
    }
    return contract;
  };
  app.get('/openapi.json', async (_req, reply) => reply.type('application/json').header('cache-control', 'no-cache').send(openApi().json));
  // its reference page: no script, nothing from elsewhere, never framed
  app.get('/docs', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('x-frame-options', 'DENY')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      .send(openApi().page),
  );
}
