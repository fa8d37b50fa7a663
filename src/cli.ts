#!/usr/bin/env node
import { runDiff } from './commands/diff.js';
import { emulatorBanner, runEmulator } from './commands/emulator.js';
import { helpText } from './commands/help.js';
import { serve, startBanner } from './commands/serve.js';
import { loadSettings } from './config/load-settings.js';

function fail(message: string): never {
  process.stderr.write(`v2proxy: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

function onSignals(close: () => Promise<void>): void {
  const stop = () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(helpText());
    return;
  }
  if (command === 'diff') {
    process.exitCode = await runDiff(argv.slice(1), {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      tty: process.stderr.isTTY === true,
    });
    return;
  }
  if (command !== 'serve' && command !== 'emulator') {
    process.stderr.write(`v2proxy: unknown command "${command}"\n\n${helpText()}`);
    process.exit(2);
  }
  const loaded = loadSettings(process.env);
  if (!loaded.ok) fail(`invalid configuration: ${loaded.error}`);
  try {
    if (command === 'emulator') {
      const emu = await runEmulator(loaded.settings);
      process.stdout.write(`${emulatorBanner(emu, loaded.settings.sim.devToken !== undefined).join('\n')}\n`);
      onSignals(() => emu.close());
    } else {
      const proxy = await serve(loaded.settings);
      process.stdout.write(`${startBanner(proxy).join('\n')}\n`);
      onSignals(() => proxy.close());
    }
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === 'SeedError') fail(`SIM_SEED: ${e.message}`);
    if (e.name === 'MappingError') fail(e.message);
    if (e.code === 'EADDRINUSE' || e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') fail(`cannot listen: ${e.message}`);
    throw err;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => fail(`start-up failed: ${(err as Error).stack ?? String(err)}`));
