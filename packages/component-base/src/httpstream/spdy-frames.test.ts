import { describe, expect, it } from 'vitest';
import { FLAG_FIN, FrameReader, HeaderCompressor, HeaderDecompressor, SPDY3_DICTIONARY, SpdyProtocolError, decodeHeaderBlock, encodeFrame, encodeHeaderBlock, type Frame } from './spdy-frames.js';

describe('the SPDY/3 dictionary', () => {
  it('is the spec’s 1423 bytes, with the dictionary id zlib peers check', () => {
    expect(SPDY3_DICTIONARY.length).toBe(1423);
    expect(Buffer.from(SPDY3_DICTIONARY.subarray(0, 11)).toString('latin1')).toBe('\0\0\0\x07options');
    expect(Buffer.from(SPDY3_DICTIONARY.subarray(-9)).toString('latin1')).toBe(',*,enq=0.');
    // A deflate stream primed with it names it by its Adler-32 in the zlib header (FDICT): the id Go's
    // zlib in kubectl checks, 0xe3c6a7c2 for the SPDY/3 dictionary (a changed byte changes it).
    const block = new HeaderCompressor().compress({ streamtype: 'error' });
    expect(block[1]! & 0x20).toBe(0x20);
    expect(block.readUInt32BE(2).toString(16)).toBe('e3c6a7c2');
  });
});

describe('header blocks', () => {
  it.each([
    ['no headers', {}, '00000000'],
    ['one header', { port: '80' }, '00000001' + '00000004' + Buffer.from('port').toString('hex') + '00000002' + Buffer.from('80').toString('hex')],
  ])('%s encode as count and length-prefixed strings', (_n, headers, hex) => {
    expect(encodeHeaderBlock(headers).toString('hex')).toBe(hex);
    expect(decodeHeaderBlock(Buffer.from(hex, 'hex'))).toEqual(headers);
  });

  it('writes names lowercase', () => {
    expect(decodeHeaderBlock(encodeHeaderBlock({ streamType: 'data', requestID: '0' }))).toEqual({ streamtype: 'data', requestid: '0' });
  });

  it.each([
    ['an uppercase name', { Port: '1' }, 'invalid header name "Port"'],
    ['a truncated block', null, 'truncated header block'],
  ])('refuses %s', (_n, headers, message) => {
    const raw = headers ? rawBlock(headers) : Buffer.from('0000000100000009706f', 'hex');
    expect(() => decodeHeaderBlock(raw)).toThrow(new SpdyProtocolError(message));
  });

  it('round-trips through one compression context per direction, block after block', () => {
    const c = new HeaderCompressor();
    const d = new HeaderDecompressor();
    const blocks: Record<string, string>[] = [{ streamtype: 'error', port: '80', requestid: '0' }, { streamtype: 'data', port: '80', requestid: '0' }, {}, { 'x-long': 'v'.repeat(5000) }];
    const sizes: number[] = [];
    for (const h of blocks) {
      const z = c.compress(h);
      sizes.push(z.length);
      expect(d.decompress(z)).toEqual(h);
    }
    // The second block reuses the first one's words: the shared context is what makes it small.
    expect(sizes[1]).toBeLessThan(sizes[0]!);
  });

  it('bounds what one block may inflate to', () => {
    const z = new HeaderCompressor().compress({ big: 'x'.repeat(4096) });
    expect(() => new HeaderDecompressor(1024).decompress(z)).toThrow(/larger than 1024 bytes/);
  });
});

function rawBlock(h: Record<string, string>): Buffer {
  const parts = [u32(Object.keys(h).length)];
  for (const [k, v] of Object.entries(h)) parts.push(u32(k.length), Buffer.from(k), u32(v.length), Buffer.from(v));
  return Buffer.concat(parts);
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

describe('frames', () => {
  const frames: [string, Frame, string | undefined][] = [
    ['a data frame', { type: 'data', streamId: 3, flags: 0, data: Buffer.from('hi') }, '00000003' + '00000002' + '6869'],
    ['a FIN data frame', { type: 'data', streamId: 5, flags: FLAG_FIN, data: Buffer.alloc(0) }, '00000005' + '01000000'],
    ['RST_STREAM', { type: 'rst_stream', streamId: 1, status: 5 }, '80030003' + '00000008' + '00000001' + '00000005'],
    ['PING', { type: 'ping', id: 7 }, '80030006' + '00000004' + '00000007'],
    ['GOAWAY', { type: 'goaway', lastGoodStreamId: 9, status: 0 }, '80030007' + '00000008' + '00000009' + '00000000'],
    ['WINDOW_UPDATE', { type: 'window_update', streamId: 1, delta: 65536 }, '80030009' + '00000008' + '00000001' + '00010000'],
    ['SETTINGS', { type: 'settings', flags: 0, entries: [{ flags: 0, id: 7, value: 65536 }] }, '80030004' + '0000000c' + '00000001' + '00000007' + '00010000'],
    ['SYN_STREAM', { type: 'syn_stream', streamId: 1, associatedId: 0, priority: 0, flags: 0, headers: { streamtype: 'error' } }, undefined],
    ['SYN_REPLY with FIN', { type: 'syn_reply', streamId: 1, flags: FLAG_FIN, headers: {} }, undefined],
    ['HEADERS', { type: 'headers', streamId: 2, flags: 0, headers: { a: 'b' } }, undefined],
  ];

  it.each(frames)('%s encodes and decodes', (_n, frame, hex) => {
    const bytes = encodeFrame(frame, new HeaderCompressor());
    if (hex) expect(bytes.toString('hex')).toBe(hex);
    else expect(bytes.readUInt16BE(0)).toBe(0x8003);
    expect(new FrameReader(new HeaderDecompressor()).push(bytes)).toEqual([frame]);
  });

  it('reassembles frames split anywhere and returns several from one read', () => {
    const c = new HeaderCompressor();
    const all = Buffer.concat(frames.map(([, f]) => encodeFrame(f, c)));
    const r = new FrameReader(new HeaderDecompressor());
    const got: Frame[] = [];
    for (let i = 0; i < all.length; i += 5) got.push(...r.push(all.subarray(i, i + 5)));
    expect(got).toEqual(frames.map(([, f]) => f));
  });

  it.each([
    ['a frame over the size limit', '00000001' + '00100000', /exceeds the limit/],
    ['another SPDY version', '80020006' + '00000004' + '00000001', /unsupported SPDY version 2/],
    ['a short RST_STREAM', '80030003' + '00000004' + '00000001', /rst_stream frame too short/],
  ])('refuses %s', (_n, hex, message) => {
    expect(() => new FrameReader(new HeaderDecompressor(), 1024).push(Buffer.from(hex, 'hex'))).toThrow(message);
  });

  it('skips control frames of unknown types', () => {
    expect(new FrameReader(new HeaderDecompressor()).push(Buffer.from('80030005' + '00000000' + '80030006' + '00000004' + '00000001', 'hex'))).toEqual([{ type: 'ping', id: 1 }]);
  });
});
