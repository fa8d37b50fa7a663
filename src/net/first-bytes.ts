import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

// the first bytes an HTTP/2 client with prior knowledge sends (RFC 9113, section 3.4)
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** Whether a connection's first bytes are (the start of) the HTTP/2 preface: h2c with prior knowledge. */
export function opensHttp2(first: Buffer): boolean {
  const n = Math.min(first.length, PREFACE.length);
  return n >= 3 && PREFACE.subarray(0, n).equals(first.subarray(0, n));
}

export /** The socket as a stream that first yields `first` (already read from it), then the rest. */
function replaying(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(err, callback) {
      socket.destroy(err ?? undefined);
      callback(err);
    },
  });
  Object.assign(stream, { remoteAddress: socket.remoteAddress, remotePort: socket.remotePort, remoteFamily: socket.remoteFamily });
  stream.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.once('end', () => stream.push(null));
  socket.once('close', () => stream.destroy());
  socket.on('error', (err) => stream.destroy(err));
  return stream;
}
