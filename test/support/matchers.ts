import { expect } from 'vitest';

/** A v2 timestamp: RFC 3339 in UTC with exactly three fractional digits. */
export const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const anyTime = (): string => expect.stringMatching(TIME_PATTERN) as unknown as string;

/**
 * The same timestamp as proto JSON writes a google.protobuf.Timestamp (gRPC answers): 0, 3, 6 or 9
 * fractional digits, so a time that falls on a whole second has none.
 */
export const PROTO_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?Z$/;
