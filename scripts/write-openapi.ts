// `npm run openapi`: writes the OpenAPI document the proxy serves at /openapi.json to
// docs/openapi.json, and the types openapi-typescript makes of it to test/gen/platform-api.ts.
import { writeFileSync } from 'node:fs';
import { packageVersion } from '../src/config/package-version.js';
import { loadMappings } from '../src/mapping/load-mappings.js';
import { openApiDocument } from '../src/server/openapi-document.js';
import { openApiTypes, TYPES_FILE } from './openapi-types.js';

const doc = openApiDocument(loadMappings(), packageVersion());
writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(doc, null, 2)}\n`);
writeFileSync(TYPES_FILE, await openApiTypes(doc));
