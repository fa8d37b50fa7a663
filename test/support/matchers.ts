import { expect } from 'vitest';

/** A v2 timestamp: RFC 3339 in UTC with exactly three fractional digits. */
export const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const anyTime = (): string => expect.stringMatching(TIME_PATTERN) as unknown as string;
