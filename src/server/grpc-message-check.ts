import { type DescMessage, fromBinary, type Message } from '@bufbuild/protobuf';
import type { ConnectError } from '@connectrpc/connect';
import type { Compression } from '@connectrpc/connect/protocol';
import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';

// binary messages in gRPC and gRPC-Web envelopes, and a Connect unary call's binary body
const ENVELOPED = /^application\/grpc(-web)?(\+proto)?\s*(;|$)/i;
const CONNECT_BINARY = /^application\/proto\s*(;|$)/i;
// an envelope's head: one flag byte, four of length (big-endian); the flag's compressed bit
export const ENVELOPE_HEAD = 5;
export const COMPRESSED = 0x01;

export interface MessageCheck {
  /** the method's request message */
  input: DescMessage;
  /** the largest message, in bytes (BODY_LIMIT) */
  limit: number;
  /** the compressions the server accepts */
  compressions: readonly Compression[];
  /** an error of the registry as the call's status */
  statusOf: (err: ApiError) => ConnectError;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

async function decoded(check: MessageCheck, bytes: Uint8Array, compressed: boolean, encoding: string | null): Promise<Uint8Array | undefined> {
  if (!compressed || encoding === null || encoding === 'identity') return bytes;
  const compression = check.compressions.find((c) => c.name === encoding);
  // an encoding the server does not take: connect answers that itself
  return compression ? compression.decompress(bytes, check.limit) : undefined;
}

/** A request message read from its bytes, or the MALFORMED_REQUEST error saying why it is not one. */
export function requestMessage(input: DescMessage, bytes: Uint8Array): Message | ApiError {
  try {
    return fromBinary(input, bytes);
  } catch (err) {
    return apiError('MALFORMED_REQUEST', { reason: `the message is not a valid ${input.typeName}: ${(err as Error).message}` });
  }
}

function parses(check: MessageCheck, bytes: Uint8Array): void {
  const message = requestMessage(check.input, bytes);
  if (message instanceof ApiError) throw check.statusOf(message);
}

/**
 * A unary call's request body, read and checked before connect reads it: a message over the limit
 * is RESOURCE_EXHAUSTED as soon as its size is known (an envelope's head, a Content-Length), and one
 * that is not the method's protobuf is INVALID_ARGUMENT (connect-es calls that INTERNAL, a server
 * fault). Both in the one error shape, on gRPC, gRPC-Web and Connect alike. JSON bodies are not
 * touched: connect already answers a bad one INVALID_ARGUMENT.
 */
export function checkedBody(body: AsyncIterable<Uint8Array>, header: Headers, check: MessageCheck): AsyncIterable<Uint8Array> {
  const type = header.get('content-type') ?? '';
  if (ENVELOPED.test(type)) return checkedEnvelope(body, header.get('grpc-encoding'), check);
  if (CONNECT_BINARY.test(type)) return checkedConnect(body, header, check);
  return body;
}

async function* checkedEnvelope(body: AsyncIterable<Uint8Array>, encoding: string | null, check: MessageCheck): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let length: number | undefined;
  let checked = false;
  for await (const chunk of body) {
    if (checked) {
      yield chunk;
      continue;
    }
    chunks.push(chunk);
    size += chunk.length;
    if (length === undefined && size >= ENVELOPE_HEAD) {
      const head = concat(chunks, size);
      length = new DataView(head.buffer, head.byteOffset).getUint32(1);
      if (length > check.limit) throw check.statusOf(apiError('BODY_TOO_LARGE'));
    }
    if (length !== undefined && size >= ENVELOPE_HEAD + length) {
      const all = concat(chunks, size);
      const message = await decoded(check, all.subarray(ENVELOPE_HEAD, ENVELOPE_HEAD + length), ((all[0] as number) & COMPRESSED) !== 0, encoding);
      if (message) parses(check, message);
      checked = true;
      yield all;
    }
  }
  // a body that ended early: connect reports the broken envelope
  if (!checked && size > 0) yield concat(chunks, size);
}

async function* checkedConnect(body: AsyncIterable<Uint8Array>, header: Headers, check: MessageCheck): AsyncGenerator<Uint8Array> {
  const tooLarge = () => check.statusOf(apiError('BODY_TOO_LARGE'));
  const declared = Number(header.get('content-length') ?? Number.NaN);
  if (declared > check.limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > check.limit) throw tooLarge();
    chunks.push(chunk);
  }
  const all = concat(chunks, size);
  const encoding = header.get('content-encoding');
  const message = await decoded(check, all, encoding !== null, encoding);
  if (message) parses(check, message);
  yield all;
}
