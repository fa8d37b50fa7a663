import type { Settings } from '../config/settings-schema.js';
import { type RunningEmulator, startEmulator } from '../emulator/start-emulator.js';
import { loggerOptions } from '../server/logger-options.js';

/** `v2proxy emulator`: the v1 emulator alone, on SIM_HOST:SIM_PORT. */
export function runEmulator(settings: Settings): Promise<RunningEmulator> {
  return startEmulator({
    host: settings.sim.host,
    port: settings.sim.port,
    seedFile: settings.sim.seedFile,
    devToken: settings.sim.devToken,
    trustedIssuers: settings.sim.trustedIssuers,
    v2: settings.sim.v2,
    v2Port: settings.sim.v2Port,
    logger: loggerOptions(settings.logLevel),
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
