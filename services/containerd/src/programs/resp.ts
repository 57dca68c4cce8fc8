// RESP2, the Redis serialization protocol: requests are arrays of bulk
// strings (or inline commands typed into telnet/nc), replies one of five
// types. Written by hand: the wire format is a few lines and a learner can
// read it here next to what `nc` shows.

export type RespValue =
  { type: 'simple'; value: string } | { type: 'error'; value: string } | { type: 'integer'; value: number } | { type: 'bulk'; value: string | null } | { type: 'array'; value: RespValue[] | null };

export const simple = (value: string): RespValue => ({ type: 'simple', value });
export const error = (value: string): RespValue => ({ type: 'error', value });
export const integer = (value: number): RespValue => ({ type: 'integer', value });
export const bulk = (value: string | null): RespValue => ({ type: 'bulk', value });
export const array = (value: RespValue[] | null): RespValue => ({ type: 'array', value });
export const OK = simple('OK');

export function encode(v: RespValue): string {
  switch (v.type) {
    case 'simple':
      return `+${v.value}\r\n`;
    case 'error':
      return `-${v.value}\r\n`;
    case 'integer':
      return `:${v.value}\r\n`;
    case 'bulk':
      return v.value === null ? '$-1\r\n' : `$${Buffer.byteLength(v.value)}\r\n${v.value}\r\n`;
    case 'array':
      return v.value === null ? '*-1\r\n' : `*${v.value.length}\r\n${v.value.map(encode).join('')}`;
  }
}

/** A request as a client sends it: an array of bulk strings. */
export function encodeCommand(args: readonly string[]): string {
  return encode(array(args.map((a) => bulk(a))));
}

/** Largest request a connection may buffer (Redis' proto-max-bulk-len is far larger; a lab needs far less). */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** Splits a byte stream into requests; `undefined` from next() means more bytes are needed. */
export class RequestReader {
  private buf = Buffer.alloc(0);

  push(chunk: Buffer): void {
    this.buf = Buffer.concat([this.buf, chunk]);
    if (this.buf.length > MAX_REQUEST_BYTES) throw new Error('Protocol error: too big request');
  }

  /** The next complete request's arguments, or undefined. Throws on malformed input (Redis answers `-ERR Protocol error` and closes). */
  next(): string[] | undefined {
    if (this.buf.length === 0) return undefined;
    if (this.buf[0] !== 0x2a /* '*' */) {
      const nl = this.buf.indexOf('\n');
      if (nl < 0) return undefined;
      const line = this.buf.subarray(0, nl).toString('utf8').replace(/\r$/, '');
      this.buf = this.buf.subarray(nl + 1);
      const args = line.trim().split(/\s+/).filter(Boolean);
      return args.length ? args : this.next();
    }
    let pos = 0;
    const readLine = (): string | undefined => {
      const end = this.buf.indexOf('\r\n', pos);
      if (end < 0) return undefined;
      const line = this.buf.subarray(pos, end).toString('utf8');
      pos = end + 2;
      return line;
    };
    const header = readLine();
    if (header === undefined) return undefined;
    const n = Number(header.slice(1));
    if (!Number.isInteger(n) || n > 1024 * 1024) throw new Error('Protocol error: invalid multibulk length');
    const args: string[] = [];
    for (let i = 0; i < n; i++) {
      const len = readLine();
      if (len === undefined) return undefined;
      if (!len.startsWith('$')) throw new Error(`Protocol error: expected '$', got '${len[0] ?? ' '}'`);
      const size = Number(len.slice(1));
      if (!Number.isInteger(size) || size < 0) throw new Error('Protocol error: invalid bulk length');
      if (this.buf.length < pos + size + 2) return undefined;
      args.push(this.buf.subarray(pos, pos + size).toString('utf8'));
      pos += size + 2;
    }
    this.buf = this.buf.subarray(pos);
    return args;
  }
}

/** Parses one reply from `buf`: the value and the bytes it took, or undefined when incomplete. */
export function decodeReply(buf: Buffer, start = 0): { value: RespValue; end: number } | undefined {
  const nl = buf.indexOf('\r\n', start);
  if (nl < 0) return undefined;
  const line = buf.subarray(start + 1, nl).toString('utf8');
  const after = nl + 2;
  switch (String.fromCharCode(buf[start]!)) {
    case '+':
      return { value: simple(line), end: after };
    case '-':
      return { value: error(line), end: after };
    case ':':
      return { value: integer(Number(line)), end: after };
    case '$': {
      const size = Number(line);
      if (size < 0) return { value: bulk(null), end: after };
      if (buf.length < after + size + 2) return undefined;
      return { value: bulk(buf.subarray(after, after + size).toString('utf8')), end: after + size + 2 };
    }
    case '*': {
      const n = Number(line);
      if (n < 0) return { value: array(null), end: after };
      const items: RespValue[] = [];
      let pos = after;
      for (let i = 0; i < n; i++) {
        const item = decodeReply(buf, pos);
        if (!item) return undefined;
        items.push(item.value);
        pos = item.end;
      }
      return { value: array(items), end: pos };
    }
    default:
      throw new Error(`Protocol error: unexpected reply type '${String.fromCharCode(buf[start]!)}'`);
  }
}

/** How redis-cli prints a reply when its output is not a terminal (raw mode). */
export function formatRaw(v: RespValue): string {
  switch (v.type) {
    case 'simple':
    case 'integer':
      return `${v.value}\n`;
    case 'error':
      return `${v.value}\n`;
    case 'bulk':
      return `${v.value ?? ''}\n`;
    case 'array':
      return (v.value ?? []).map(formatRaw).join('');
  }
}

/** How redis-cli prints a reply on a terminal: `"v"`, `(integer) 1`, `(nil)`, numbered array items. */
export function formatTty(v: RespValue, indent = ''): string {
  switch (v.type) {
    case 'simple':
      return `${v.value}\n`;
    case 'error':
      return `(error) ${v.value}\n`;
    case 'integer':
      return `(integer) ${v.value}\n`;
    case 'bulk':
      return v.value === null ? '(nil)\n' : `${JSON.stringify(v.value)}\n`;
    case 'array': {
      if (v.value === null) return '(nil)\n';
      if (v.value.length === 0) return '(empty array)\n';
      const width = String(v.value.length).length;
      return v.value
        .map((item, i) => {
          const label = `${String(i + 1).padStart(width)}) `;
          const body = formatTty(item, indent + ' '.repeat(label.length));
          return `${i === 0 ? '' : indent}${label}${body}`;
        })
        .join('');
    }
  }
}
