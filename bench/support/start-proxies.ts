// A bench helper run as its own process: starts one proxy per rollout file given in argv (all on
// the v1 and native backends of the environment) and prints their URLs as one JSON line.
import { serve } from '../../src/commands/serve.js';
import { loadSettings } from '../../src/config/load-settings.js';

const urls: string[] = [];
for (const file of process.argv.slice(2)) {
  const loaded = loadSettings({ ...process.env, PORT: '0', LOG_LEVEL: 'silent', ROLLOUT_FILE: file, ADMIN_TOKEN: 'bench-admin-token-0123' });
  if (!loaded.ok) throw new Error(loaded.error);
  urls.push((await serve(loaded.settings)).url);
}
process.stdout.write(`${JSON.stringify({ urls })}\n`);
