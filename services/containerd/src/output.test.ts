import { describe, expect, it } from 'vitest';
import { chunkBytes, stderrFirst, writtenChunk, type Chunk } from './output.js';

describe('writtenChunk', () => {
  it.each<[string, string | Uint8Array, unknown, Chunk]>([
    ['text stays text', 'héllo', 'utf8', 'héllo'],
    ['a latin1 byte string becomes its bytes', '\u0000\u0080\u00ff', 'binary', Buffer.from([0, 0x80, 0xff])],
    ['the encoding may come as an option object', '\u00c3\u00a9', { encoding: 'binary' }, Buffer.from([0xc3, 0xa9])],
    ['bytes stay bytes', new Uint8Array([1, 2]), undefined, Buffer.from([1, 2])],
  ])('%s', (_name, content, encoding, want) => {
    expect(writtenChunk(content, encoding)).toEqual(want);
  });

  it('text goes out as UTF-8', () => {
    expect(chunkBytes('é')).toEqual(Buffer.from([0xc3, 0xa9]));
  });
});

describe('stderrFirst', () => {
  function setup() {
    const out: string[] = [];
    const pending: (() => void)[] = [];
    const s = stderrFirst(
      (stream, data) => out.push(`${stream}:${typeof data === 'string' ? data : `<${Buffer.from(data).toString('hex')}>`}`),
      (f) => pending.push(f),
    );
    return { out, s, turn: () => pending.splice(0).forEach((f) => f()) };
  }

  it("lets a command's stderr overtake the bytes it wrote on stdout in the same turn (tar's notice before its archive)", () => {
    const { out, s, turn } = setup();
    s.write('stdout', Buffer.from([0x61]));
    s.write('stderr', "tar: Removing leading `/' from member names\n");
    expect(out).toEqual(["stderr:tar: Removing leading `/' from member names\n"]);
    turn();
    expect(out).toEqual(["stderr:tar: Removing leading `/' from member names\n", 'stdout:<61>']);
  });

  it('keeps stdout in order: text waits behind held bytes; text alone passes at once', () => {
    const { out, s, turn } = setup();
    s.write('stdout', 'a\n');
    s.write('stdout', Buffer.from([0x80]));
    s.write('stdout', 'b\n');
    expect(out).toEqual(['stdout:a\n']);
    turn();
    expect(out).toEqual(['stdout:a\n', 'stdout:<80>', 'stdout:b\n']);
  });

  it('flush hands over what waits (the exec ended)', () => {
    const { out, s } = setup();
    s.write('stdout', Buffer.from([0xff]));
    s.flush();
    expect(out).toEqual(['stdout:<ff>']);
  });
});
