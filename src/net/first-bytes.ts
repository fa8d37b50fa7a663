// the first bytes an HTTP/2 client with prior knowledge sends (RFC 9113, section 3.4)
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** Whether a connection's first bytes are (the start of) the HTTP/2 preface: h2c with prior knowledge. */
export function opensHttp2(first: Buffer): boolean {
  const n = Math.min(first.length, PREFACE.length);
  return n >= 3 && PREFACE.subarray(0, n).equals(first.subarray(0, n));
}
