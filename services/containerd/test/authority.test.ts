// The CRI socket takes every :authority a gRPC client sends: gRPC-Go before
// 1.57 (crictl/critest ≤ 1.28, the kubelet of that age) sends the socket path
// itself. The client here speaks HTTP/2 on the socket as such a client does:
// preface, SETTINGS, then HEADERS whose :authority is a literal added to the
// HPACK dynamic table, and a second call on the same connection that refers
// to that table entry by index.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeHeaderBlock, normalizeAuthority } from '../src/authority-front.js';
import { startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
});
afterAll(async () => {
  await h?.dispose();
});

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

function str(s: string): Buffer {
  const b = Buffer.from(s, 'latin1');
  if (b.length >= 127) throw new Error('test strings stay short');
  return Buffer.concat([Buffer.from([b.length]), b]);
}

/** Go's hpack encoder: static-table indexes, new fields as literals with incremental indexing (0x40 | static name index). */
function goHeaders(authority: string, path: string, firstCall: boolean): Buffer {
  const parts: Buffer[] = [
    Buffer.from([0x83]), // :method POST
    Buffer.from([0x86]), // :scheme http
  ];
  if (firstCall) {
    parts.push(Buffer.from([0x44]), str(path)); // :path (static name 4) → dynamic table
    parts.push(Buffer.from([0x41]), str(authority)); // :authority (static name 1) → dynamic table
    parts.push(Buffer.from([0x5f]), str('application/grpc')); // content-type (static 31) → dynamic table
    parts.push(Buffer.from([0x40]), str('te'), str('trailers')); // new name → dynamic table
  } else {
    // Dynamic table now: 62 te, 63 content-type, 64 :authority, 65 :path — all by index.
    parts.push(Buffer.from([0x80 | 65, 0x80 | 64, 0x80 | 63, 0x80 | 62]));
  }
  return Buffer.concat(parts);
}

interface Reply {
  frameTypes: number[];
  data: Buffer;
}

/** Two Version calls (streams 1 and 3) over one connection; resolves when both streams ended or the connection closed. */
function oldGoClient(socketPath: string, authority: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sock: Socket = connect(socketPath);
    let buf = Buffer.alloc(0);
    const frameTypes: number[] = [];
    const data: Buffer[] = [];
    const ended = new Set<number>();
    const finish = () => {
      sock.destroy();
      resolve({ frameTypes, data: Buffer.concat(data) });
    };
    sock.on('error', reject);
    sock.on('close', finish);
    sock.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
        const len = buf.readUIntBE(0, 3);
        const type = buf[3]!;
        const flags = buf[4]!;
        const stream = buf.readUInt32BE(5) & 0x7fffffff;
        const payload = buf.subarray(9, 9 + len);
        buf = buf.subarray(9 + len);
        frameTypes.push(type);
        if (type === 0x4 && !(flags & 0x1)) sock.write(frame(0x4, 0x1, 0, Buffer.alloc(0))); // SETTINGS ack
        if (type === 0x0) data.push(payload);
        if (stream && (type === 0x3 || ((type === 0x1 || type === 0x0) && flags & 0x1))) ended.add(stream);
        if (ended.has(1) && ended.has(3)) finish();
      }
    });
    const grpcMessage = Buffer.from([0, 0, 0, 0, 0]); // VersionRequest{}, uncompressed
    sock.write(
      Buffer.concat([
        Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'),
        frame(0x4, 0, 0, Buffer.alloc(0)),
        frame(0x1, 0x4, 1, goHeaders(authority, '/runtime.v1.RuntimeService/Version', true)),
        frame(0x0, 0x1, 1, grpcMessage),
        // The second call's block split over HEADERS + CONTINUATION, padded, as a client may send it.
        frame(0x1, 0x8, 3, Buffer.concat([Buffer.from([2]), goHeaders(authority, '/runtime.v1.RuntimeService/Version', false).subarray(0, 3), Buffer.alloc(2)])),
        frame(0x9, 0x4, 3, goHeaders(authority, '/runtime.v1.RuntimeService/Version', false).subarray(3)),
        frame(0x0, 0x1, 3, grpcMessage),
      ]),
    );
  });
}

describe('CRI socket :authority', () => {
  it.each([
    ['the raw socket path (gRPC-Go < 1.57)', () => h.handle.socketPath],
    ['the percent-encoded socket path', () => encodeURIComponent(h.handle.socketPath)],
    ['localhost (gRPC-Go ≥ 1.57)', () => 'localhost'],
  ])('serves two calls with %s, no RST_STREAM', async (_name, authority) => {
    const reply = await oldGoClient(h.handle.socketPath, authority());
    expect(reply.frameTypes).not.toContain(0x3);
    // Both VersionResponses name the runtime as containerd does.
    expect(reply.data.toString('latin1').split('containerd').length - 1).toBe(2);
  });

  it.each([
    ['/run/containerd/containerd.sock', 'localhost'],
    ['%2Frun%2Fcontainerd%2Fcontainerd.sock', 'localhost'],
    ['localhost', 'localhost'],
    ['127.0.0.1:10010', '127.0.0.1:10010'],
    ['[::1]:443', '[::1]:443'],
    ['', 'localhost'],
  ])('normalizes %j to %j', (sent, served) => {
    expect(normalizeAuthority(sent)).toBe(served);
  });

  it('encodes literal fields without indexing', () => {
    expect([...encodeHeaderBlock([{ name: 'te', value: 'trailers' }])]).toEqual([0x00, 2, ...Buffer.from('te'), 8, ...Buffer.from('trailers')]);
  });
});
