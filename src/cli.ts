#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { demo, demoBanner, writeDemoEnv } from './commands/demo.js';
import { runDiff } from './commands/diff.js';
import { emulatorBanner, runEmulator } from './commands/emulator.js';
import { demoHelp, emulatorHelp, helpText, serveHelp } from './commands/help.js';
import { serve, serveBanner } from './commands/serve.js';
import { type Loaded, loadEmulatorSettings, loadSettings } from './config/load-settings.js';
import { packageVersion } from './config/package-version.js';

function fail(message: string): never {
  process.stderr.write(`v2proxy: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

function usage(message: string, help: string): never {
  process.stderr.write(`v2proxy: ${message}\n\n${help}`);
  process.exit(2);
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

/** A command's flags: `--help`, and its own; anything else is a usage error. */
function flags<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], options: T, help: string) {
  try {
    const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: { ...options, help: { type: 'boolean', short: 'h' } } });
    if ((values as { help?: boolean }).help) {
      process.stdout.write(help);
      process.exit(0);
    }
    return values;
  } catch (err) {
    return usage((err as Error).message, help);
  }
}

function settingsOrFail<T>(loaded: Loaded<T>): T {
  if (!loaded.ok) fail(`invalid configuration: ${loaded.error}`);
  return loaded.settings;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(helpText());
    return;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (command === 'diff') {
    process.exitCode = await runDiff(args, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      tty: process.stderr.isTTY === true,
    });
    return;
  }
  if (command === undefined) usage('a command is needed', helpText());
  if (command !== 'serve' && command !== 'emulator' && command !== 'demo') usage(`unknown command "${command}"`, helpText());
  try {
    if (command === 'emulator') {
      flags(args, {}, emulatorHelp());
      const settings = settingsOrFail(loadEmulatorSettings(process.env));
      const emu = await runEmulator(settings);
      // the signals are ours before anyone is told where to send them
      onSignals(() => emu.close(), settings.shutdownTimeoutMs);
      process.stdout.write(`${emulatorBanner(emu, settings.devToken !== undefined).join('\n')}\n`);
    } else if (command === 'serve') {
      flags(args, {}, serveHelp());
      const settings = settingsOrFail(loadSettings(process.env));
      const proxy = await serve(settings);
      onSignals(() => proxy.drain(), settings.shutdownTimeoutMs);
      process.stdout.write(`${serveBanner(proxy).join('\n')}\n`);
    } else {
      const values = flags(args, { 'env-file': { type: 'string' } }, demoHelp());
      const envFile = typeof values['env-file'] === 'string' && values['env-file'] !== '' ? values['env-file'] : '.demo.env';
      const settings = settingsOrFail(loadSettings(process.env));
      const emulatorSettings = settingsOrFail(loadEmulatorSettings(process.env));
      const running = await demo(settings, emulatorSettings);
      onSignals(() => running.drain(), settings.shutdownTimeoutMs);
      writeDemoEnv(envFile, running, emulatorSettings.devToken !== undefined);
      process.stdout.write(`${demoBanner(running, emulatorSettings.devToken !== undefined, envFile).join('\n')}\n`);
    }
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === 'StartError') fail(e.message);
    if (e.name === 'SeedError') fail(`SIM_SEED: ${e.message}`);
    if (e.name === 'MappingError') fail(e.message);
    if (e.name === 'RolloutFileError') fail(`ROLLOUT_FILE: ${e.message}`);
    if (e.code === 'EADDRINUSE' || e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') fail(`cannot listen: ${e.message}`);
    throw err;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => fail(`start-up failed: ${(err as Error).stack ?? String(err)}`));
