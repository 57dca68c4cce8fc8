import { describe, expect, it } from 'vitest';
import { SpdyConnection, type SpdyStream } from './spdy-connection.js';
import { FrameReader, HeaderCompressor, HeaderDecompressor, encodeFrame, type Frame } from './spdy-frames.js';

/** A client and a server connection wired back to back, every frame either sends recorded. */
function pair(onStream?: (s: SpdyStream) => void) {
  const wire: { from: 'client' | 'server'; frame: Frame }[] = [];
  const readers = { client: new FrameReader(new HeaderDecompressor()), server: new FrameReader(new HeaderDecompressor()) };
  // eslint-disable-next-line prefer-const
  let client: SpdyConnection, server: SpdyConnection;
  const link = (from: 'client' | 'server') => (b: Buffer) => {
    for (const frame of readers[from].push(Buffer.from(b))) wire.push({ from, frame });
    queueMicrotask(() => (from === 'client' ? server : client).receive(b));
    return true;
  };
  client = new SpdyConnection({ role: 'client', write: link('client') });
  server = new SpdyConnection({ role: 'server', write: link('server'), ...(onStream ? { onStream } : {}) });
  return { client, server, wire };
}

const tick = () => new Promise((r) => setTimeout(r, 5));
const read = (s: SpdyStream) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString()));
    s.on('error', reject);
  });
const kinds = (wire: { from: string; frame: Frame }[]) => wire.map(({ from, frame }) => `${from} ${frame.type}${'flags' in frame && frame.flags & 1 ? ' FIN' : ''}`);

describe('SpdyConnection', () => {
  it('a stream’s life: SYN_STREAM, SYN_REPLY, data both ways, FIN from each side, then it is gone', async () => {
    const { client, server, wire } = pair((s) => {
      s.reply();
      void read(s).then((text) => s.end(`echo:${text}`));
    });
    const s = client.openStream({ streamtype: 'data', port: '80', requestid: '0' });
    const replied = new Promise((r) => s.once('reply', r));
    const answer = read(s);
    s.end('ping');
    await replied;
    expect(await answer).toBe('echo:ping');
    await tick();
    expect(kinds(wire)).toEqual(['client syn_stream', 'client data', 'client data FIN', 'server syn_reply', 'server data', 'server data FIN']);
    expect(client.size).toBe(0);
    expect(server.size).toBe(0);
  });

  it('hands the server the stream’s headers, lowercase', async () => {
    const seen: Record<string, string>[] = [];
    const { client } = pair((s) => {
      seen.push({ ...s.headers });
      s.reply();
    });
    client.openStream({ streamType: 'error', port: '8080', requestID: '3' });
    await tick();
    expect(seen).toEqual([{ streamtype: 'error', port: '8080', requestid: '3' }]);
  });

  it.each([
    ['reset by the server', (s: SpdyStream) => s.reset(), /reset by peer \(status 5\)/],
    ['refused when nobody handles streams', undefined, /reset by peer \(status 3\)/],
  ])('a stream %s errors on the client and is forgotten', async (_n, onStream, message) => {
    const { client, server } = pair(onStream);
    const s = client.openStream({ streamtype: 'stdout' });
    const err = new Promise<Error>((r) => s.on('error', r));
    expect((await err).message).toMatch(message);
    expect(client.size).toBe(0);
    expect(server.size).toBe(0);
  });

  it('echoes the peer’s pings, not its own', async () => {
    const { client, wire } = pair();
    client.send({ type: 'ping', id: 1 });
    await tick();
    expect(kinds(wire)).toEqual(['client ping', 'server ping']);
  });

  it('after GOAWAY open streams run to their end, then the connection closes', async () => {
    const { client, server } = pair((s) => {
      s.reply();
      void read(s).then((text) => s.end(text.toUpperCase()));
    });
    const s = client.openStream({ streamtype: 'stdin' });
    const answer = read(s);
    await tick();
    client.goAway();
    await tick();
    expect(server.isClosed).toBe(false);
    s.end('late');
    expect(await answer).toBe('LATE');
    await tick();
    expect(server.isClosed).toBe(true);
  });

  it('closing the transport errors the streams the peer had not finished; finished ones keep their data', async () => {
    const { client } = pair((s) => {
      s.reply();
      if (s.headers.streamtype === 'stdout') s.end('all of it');
    });
    const done = client.openStream({ streamtype: 'stdout' });
    const open = client.openStream({ streamtype: 'stdin' });
    const err = new Promise<Error>((r) => open.on('error', r));
    await tick();
    client.close();
    expect((await err).message).toBe('spdy connection closed');
    expect(await read(done)).toBe('all of it');
  });

  it.each([
    ['a stream id of the wrong parity', { type: 'syn_stream', streamId: 2, associatedId: 0, priority: 0, flags: 0, headers: {} } as Frame],
    ['garbage', null],
  ])('answers %s with GOAWAY PROTOCOL_ERROR and closes', (_n, frame) => {
    const sent: Buffer[] = [];
    let error: Error | undefined;
    const server = new SpdyConnection({ role: 'server', write: (b) => sent.push(b) > 0, onClose: (e) => (error = e) });
    server.receive(frame ? encodeFrame(frame, new HeaderCompressor()) : Buffer.from('8002000100000000', 'hex'));
    expect(new FrameReader(new HeaderDecompressor()).push(Buffer.concat(sent))).toEqual([{ type: 'goaway', lastGoodStreamId: 0, status: 1 }]);
    expect(error?.name).toBe('SpdyProtocolError');
  });

  it('answers data on an unknown stream with RST_STREAM INVALID_STREAM', () => {
    const sent: Buffer[] = [];
    const server = new SpdyConnection({ role: 'server', write: (b) => sent.push(b) > 0 });
    server.receive(encodeFrame({ type: 'data', streamId: 7, flags: 0, data: Buffer.from('x') }, new HeaderCompressor()));
    expect(new FrameReader(new HeaderDecompressor()).push(Buffer.concat(sent))).toEqual([{ type: 'rst_stream', streamId: 7, status: 2 }]);
  });

  it('cuts large writes into 32 KiB data frames', async () => {
    const { client, wire } = pair((s) => s.reply());
    const s = client.openStream({});
    s.write(Buffer.alloc(70_000));
    await tick();
    expect(wire.filter((w) => w.frame.type === 'data').map((w) => (w.frame as { data: Buffer }).data.length)).toEqual([32768, 32768, 4464]);
  });
});
