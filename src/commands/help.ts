import { describeSettings } from '../config/load-settings.js';

export function helpText(): string {
  const settings = describeSettings()
    .map(([name, text]) => `  ${name.padEnd(22)} ${text}`)
    .join('\n');
  return `v2proxy: serves the platform API v2beta1 on top of a v1 backend

Usage:
  v2proxy [serve]      start the proxy (with no V1_BASE_URL, on the embedded v1 emulator)
  v2proxy emulator     start the emulator alone (v1, and native v2 on its own port)
  v2proxy diff …       replay recorded reads against two backends and compare (v2proxy diff --help)
  v2proxy --help       show this text

Settings (environment variables, or keys of the JSON file named by CONFIG; the environment wins):
  ${'CONFIG'.padEnd(22)} path of a JSON settings file
${settings}
`;
}
