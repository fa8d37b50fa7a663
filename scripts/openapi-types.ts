// The TypeScript types openapi-typescript makes of the OpenAPI document: what a client generated
// from it sees (test/gen/platform-api.ts, which the generated-client test calls the proxy with).
import openapiTS, { astToString } from 'openapi-typescript';

export const TYPES_FILE = new URL('../test/gen/platform-api.ts', import.meta.url);

export async function openApiTypes(doc: object): Promise<string> {
  const header = '// Written by `npm run openapi` (openapi-typescript, from docs/openapi.json): edits here are overwritten.\n';
  return header + astToString(await openapiTS(doc as Parameters<typeof openapiTS>[0]));
}
