// A bench helper run as its own process: v2proxy on the v1 backend of the environment, quiet.
import { serve } from '../../src/commands/serve.js';
import { loadSettings } from '../../src/config/load-settings.js';

const loaded = loadSettings({ ...process.env, PORT: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', SIM_V2: 'false' });
if (!loaded.ok) throw new Error(loaded.error);
const proxy = await serve(loaded.settings);
process.stdout.write(`v2proxy listening on ${proxy.url}\n`);
