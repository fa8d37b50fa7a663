import type { EmulatorSettings } from '../config/settings-schema.js';
import { type RunningEmulator, startEmulator } from '../emulator/start-emulator.js';
import { loggerOptions } from '../server/logger-options.js';

/** `v2proxy emulator` (and the demo's embedded one): the emulator on SIM_HOST:SIM_PORT. */
export function runEmulator(settings: EmulatorSettings, opts: { quiet?: boolean } = {}): Promise<RunningEmulator> {
  return startEmulator({
    host: settings.simHost,
    port: settings.simPort,
    seedFile: settings.simSeed,
    devToken: settings.devToken,
    trustedIssuers: settings.simTrustedIssuers,
    v2: settings.simV2,
    v2Port: settings.simV2Port,
    ...(opts.quiet ? {} : { logger: loggerOptions(settings.logLevel) }),
  });
}

export function emulatorBanner(emu: RunningEmulator, devTokenGiven: boolean): string[] {
  // a token the operator supplied is never printed
  const token = devTokenGiven ? '$DEV_TOKEN' : emu.devToken;
  return [
    `v1 emulator listening on ${emu.url}`,
    ...(emu.v2Url ? [`native v2 emulator listening on ${emu.v2Url}`] : []),
    ...(emu.demoOrg ? [`demo organization uid: ${emu.demoOrg}`] : []),
    `dev token (superuser): ${devTokenGiven ? 'the DEV_TOKEN you set' : emu.devToken}`,
    `try: curl -s -H "Authorization: Bearer ${token}" "${emu.url}/iam/v1/groups"`,
  ];
}
