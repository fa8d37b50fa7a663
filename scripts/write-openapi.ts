// `npm run openapi`: writes the OpenAPI document the proxy serves at /openapi.json to docs/openapi.json.
import { writeFileSync } from 'node:fs';
import { packageVersion } from '../src/config/package-version.js';
import { loadMappings } from '../src/mapping/load-mappings.js';
import { openApiDocument } from '../src/server/openapi-document.js';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(openApiDocument(loadMappings(), packageVersion()), null, 2)}\n`);
