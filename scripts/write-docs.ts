// `npm run docs`: the tables of docs/ that mirror code, written from it.
import { readFileSync, writeFileSync } from 'node:fs';
import { EmulatorSettingsSchema, ProxySettingsSchema } from '../src/config/settings-schema.js';
import { loadMappings } from '../src/mapping/load-mappings.js';
import { between, checksTable, differencesTable, permissionsTable, precedenceTable, settingsTable } from './docs-tables.js';

const page = (name: string) => new URL(`../docs/${name}`, import.meta.url);

let configuration = readFileSync(page('configuration.md'), 'utf8');
configuration = between(configuration, 'proxy-settings', settingsTable(ProxySettingsSchema));
configuration = between(configuration, 'emulator-settings', settingsTable(EmulatorSettingsSchema));
writeFileSync(page('configuration.md'), configuration);

const differences = between(readFileSync(page('v1-v2-differences.md'), 'utf8'), 'resources', differencesTable(loadMappings()));
writeFileSync(page('v1-v2-differences.md'), differences);

let rollout = readFileSync(page('rollout.md'), 'utf8');
rollout = between(rollout, 'precedence', precedenceTable());
rollout = between(rollout, 'permissions', permissionsTable());
rollout = between(rollout, 'checks', checksTable());
writeFileSync(page('rollout.md'), rollout);
