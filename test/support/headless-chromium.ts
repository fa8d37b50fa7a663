import { existsSync } from 'node:fs';

// Debian's chromium, installed by .ci/run; elsewhere CHROMIUM_PATH names one
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether one is installed: browser tests are skipped only on a developer machine without one; CI always runs them. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM && process.env.CI) throw new Error(`CI must have a headless Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)`);
