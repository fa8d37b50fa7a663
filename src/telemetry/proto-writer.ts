// hex digit values by character code
const HEX = new Uint8Array(128);
for (let i = 0; i < 16; i += 1) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/**
 * Writes `s` into `buf` from `at` when every character is ASCII: where it stopped, or -1 (with
 * bytes written that the caller's position does not count yet) at the first that is not. Room is
 * the caller's.
 */
export function writeAscii(buf: Buffer, at: number, s: string): number {
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return -1;
    buf[at + i] = c;
  }
  return at + s.length;
}

/**
 * Protocol-buffers wire format written straight into one growing buffer that is kept and reused:
 * no object per field, no chunk list. A length-delimited field is opened with 5 bytes held for its
 * length (enough for 32 GiB), and closed by writing the length's varint and moving the content back
 * over the bytes it did not need, so every length is written in its shortest form, as parsers expect.
 */
export class ProtoWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private at = 0;
  private readonly open: number[] = [];

  /** Starts over; what `bytes()` returned before is no longer valid. */
  reset(): void {
    this.at = 0;
    this.open.length = 0;
  }

  /** A copy of what was written. */
  bytes(): Uint8Array {
    const { buffer, byteOffset } = this.buf;
    return new Uint8Array(buffer.slice(byteOffset, byteOffset + this.at));
  }

  /** A varint below 2^32 (tags, lengths, counts, enums). */
  varint(v: number): void {
    this.room(5);
    let n = v >>> 0;
    while (n > 0x7f) {
      this.buf[this.at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.at++] = n;
  }

  /** An int64 varint of any safe integer (a negative one takes 10 bytes, as two's complement). */
  int64(v: number): void {
    if (v >= 0 && v < 2 ** 32) {
      this.varint(v);
      return;
    }
    this.room(10);
    let n = BigInt.asUintN(64, BigInt(v));
    while (n > 0x7fn) {
      this.buf[this.at++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.at++] = Number(n);
  }

  tag(field: number, wireType: 0 | 1 | 2 | 5): void {
    this.varint((field << 3) | wireType);
  }

  /**
   * A fixed64 field of nanoseconds since the epoch, from a `[seconds, nanoseconds]` time: worked out
   * in 16-bit parts, each product exact in a double (no BigInt on the hot path).
   */
  nanos(field: number, time: readonly [number, number]): void {
    this.tag(field, 1);
    this.room(8);
    const seconds = Math.trunc(time[0]);
    const sh = Math.floor(seconds / 0x10000);
    const sl = seconds % 0x10000;
    // 1e9 = 15258 · 2^16 + 51712
    const low = sl * 51712 + Math.trunc(time[1]);
    const mid = sh * 51712 + sl * 15258;
    const lowWord = low + (mid % 0x10000) * 0x10000;
    const lo = lowWord % 0x100000000;
    const hi = sh * 15258 + Math.floor(mid / 0x10000) + Math.floor(lowWord / 0x100000000);
    this.word(lo);
    this.word(hi);
  }

  private word(v: number): void {
    const { buf } = this;
    buf[this.at] = v & 0xff;
    buf[this.at + 1] = (v >>> 8) & 0xff;
    buf[this.at + 2] = (v >>> 16) & 0xff;
    buf[this.at + 3] = (v >>> 24) & 0xff;
    this.at += 4;
  }

  fixed32(field: number, v: number): void {
    this.tag(field, 5);
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.at);
    this.at += 4;
  }

  double(field: number, v: number): void {
    this.tag(field, 1);
    this.room(8);
    this.buf.writeDoubleLE(v, this.at);
    this.at += 8;
  }

  string(field: number, s: string): void {
    this.tag(field, 2);
    // most strings here are short ASCII (names, routes, ids): their length is known before they are written
    if (s.length < 0x80) {
      this.room(s.length + 1);
      const end = writeAscii(this.buf, this.at + 1, s);
      if (end >= 0) {
        this.buf[this.at] = s.length;
        this.at = end;
        return;
      }
    }
    this.fork();
    this.room(s.length * 3);
    this.at += this.buf.write(s, this.at, 'utf8');
    this.join();
  }

  /** A bytes field given as hex (trace and span ids). */
  hex(field: number, hex: string): void {
    this.tag(field, 2);
    const n = hex.length >>> 1;
    this.varint(n);
    this.room(n);
    const { buf } = this;
    const at = this.at;
    for (let i = 0; i < n; i += 1) buf[at + i] = ((HEX[hex.charCodeAt(2 * i) & 0x7f] as number) << 4) | (HEX[hex.charCodeAt(2 * i + 1) & 0x7f] as number);
    this.at += n;
  }

  /**
   * For a caller that writes bytes itself (a fast path with its lengths worked out first): the
   * buffer, with room for `n` more bytes, and where they go. It says where it stopped with `moveTo`.
   */
  reserve(n: number): Buffer {
    this.room(n);
    return this.buf;
  }

  /** A copy of what was written from `start` on. */
  since(start: number): Uint8Array {
    return Uint8Array.prototype.slice.call(this.buf, start, this.at);
  }

  get position(): number {
    return this.at;
  }

  moveTo(at: number): void {
    this.at = at;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** Opens a length-delimited field whose tag was just written. */
  fork(): void {
    this.room(5);
    this.open.push(this.at);
    this.at += 5;
  }

  /** Closes the innermost open field: its length before it, in as few bytes as it takes. */
  join(): void {
    const start = this.open.pop() as number;
    const length = this.at - start - 5;
    const size = length < 0x80 ? 1 : length < 0x4000 ? 2 : length < 0x200000 ? 3 : length < 0x10000000 ? 4 : 5;
    let n = length;
    for (let i = 0; i < size; i += 1) {
      this.buf[start + i] = i === size - 1 ? n : (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    if (size < 5) this.buf.copyWithin(start + size, start + 5, this.at);
    this.at -= 5 - size;
  }
}
