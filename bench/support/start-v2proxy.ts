// A bench helper run as its own process: v2proxy as it ships (the build `npm run build` writes to
// dist/, which `npm start`, the bin in an installed package and the image run), on the v1 backend
// of the environment. V2PROXY_CHECKOUT names another checkout's build (the code before a change).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const checkout = process.env.V2PROXY_CHECKOUT ?? fileURLToPath(new URL('../..', import.meta.url));
const built = (file: string) => join(checkout, 'dist', file);
if (!existsSync(built('cli.js'))) throw new Error(`no build in ${checkout}: run npm run build there`);
const { loadSettings }: typeof import('../../src/config/load-settings.js') = await import(pathToFileURL(built('config/load-settings.js')).href);
const { serve }: typeof import('../../src/commands/serve.js') = await import(pathToFileURL(built('commands/serve.js')).href);
const loaded = loadSettings({ ...process.env, PORT: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', SIM_V2: 'false' });
if (!loaded.ok) throw new Error(loaded.error);
const proxy = await serve(loaded.settings);
process.stdout.write(`v2proxy listening on ${proxy.url}\n`);
