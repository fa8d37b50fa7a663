import { describeSettings } from '../config/load-settings.js';
import { EmulatorSettingsSchema, ProxySettingsSchema } from '../config/settings-schema.js';

const settingsTable = (schema: typeof ProxySettingsSchema | typeof EmulatorSettingsSchema) =>
  describeSettings(schema)
    .map((s) => `  ${s.name.padEnd(29)} ${s.description}${s.default === undefined ? '' : ` [${s.default}]`}`)
    .join('\n');

const SETTINGS_NOTE = `Settings are environment variables, or keys of the JSON file named by CONFIG (the environment
wins); docs/configuration.md has them all. [x] is a default.`;

export function helpText(): string {
  return `v2proxy: serves the platform API v2beta1 on top of a v1 backend

Usage:
  v2proxy demo [--env-file <path>]  the proxy on its embedded emulator, every job demonstrable (npm start)
  v2proxy serve                     the proxy in front of the v1 backend at V1_BASE_URL
  v2proxy emulator                  the emulator alone (v1, and native v2 on a port of its own)
  v2proxy diff …                    replay recorded reads against two backends and compare
  v2proxy <command> --help          a command's options and settings
  v2proxy --version                 the version

${SETTINGS_NOTE}
`;
}

export function serveHelp(): string {
  return `Usage: v2proxy serve

Starts the proxy in front of the v1 backend at V1_BASE_URL (required). SIGTERM or SIGINT drains it:
not ready at once, still serving for SHUTDOWN_DELAY_MS, done within SHUTDOWN_TIMEOUT_MS.

${SETTINGS_NOTE}

Settings:
  ${'CONFIG'.padEnd(29)} path of a JSON settings file
${settingsTable(ProxySettingsSchema)}
`;
}

export function demoHelp(): string {
  return `Usage: v2proxy demo [--env-file <path>]

Starts the emulator (v1, and native v2 on a port of its own, with the demo organization) and the
proxy in front of it, prints where everything is, and writes those values as shell variables to
--env-file (default .demo.env: PROXY, PROXY_HOST, EMULATOR, NATIVE, ORG, DEV, ADMIN, OVERRIDE) for the
examples to load with  . ./.demo.env

${SETTINGS_NOTE} The proxy's settings are those of
\`v2proxy serve --help\` (V1_BASE_URL and V2_BASE_URL are the emulator's); the emulator's:
${settingsTable(EmulatorSettingsSchema)}
`;
}

export function emulatorHelp(): string {
  return `Usage: v2proxy emulator

Starts the emulator alone: v1 on SIM_HOST:SIM_PORT, native v2beta1 on SIM_V2_PORT.

${SETTINGS_NOTE}

Settings:
  ${'CONFIG'.padEnd(29)} path of a JSON settings file
${settingsTable(EmulatorSettingsSchema)}
`;
}
