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

/**
 * SIGTERM or SIGINT drains (`stop`), and the process exits when that is done, or at `timeoutMs`
 * whatever is left; a second signal exits at once.
 */
function onSignals(stop: () => Promise<void>, timeoutMs: number): void {
  let stopping = false;
  const signal = (name: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`v2proxy: ${name} again: exiting now\n`);
      process.exit(130);
    }
    stopping = true;
    setTimeout(() => {
      process.stderr.write(`v2proxy: not stopped within ${timeoutMs} ms: exiting now\n`);
      process.exit(1);
    }, timeoutMs).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`v2proxy: stopping failed: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', signal);
  process.on('SIGTERM', signal);
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
      // the signals are ours before anyone is told where to send them
      onSignals(() => emu.close(), loaded.settings.shutdownTimeoutMs);
      process.stdout.write(`${emulatorBanner(emu, loaded.settings.sim.devToken !== undefined).join('\n')}\n`);
    } else {
      const proxy = await serve(loaded.settings);
      onSignals(() => proxy.drain(), loaded.settings.shutdownTimeoutMs);
      process.stdout.write(`${startBanner(proxy).join('\n')}\n`);
    }
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === 'SeedError') fail(`SIM_SEED: ${e.message}`);
    if (e.name === 'MappingError') fail(e.message);
    if (e.name === 'RolloutFileError') fail(`ROLLOUT_FILE: ${e.message}`);
    if (e.code === 'EADDRINUSE' || e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') fail(`cannot listen: ${e.message}`);
    throw err;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => fail(`start-up failed: ${(err as Error).stack ?? String(err)}`));
