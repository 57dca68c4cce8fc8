import { describe, expect, it } from 'vitest';
import { hexdump } from './hexdump.js';

// Expected texts are hexdump -C's output for the same bytes.
describe('hexdump', () => {
  it('prints offset, two groups of 8 bytes, the ASCII column and the final length', () => {
    expect(hexdump(Buffer.from('k8s:enc:aescbc:v1:key1:abc\n\x00\x01\xff', 'latin1'))).toBe(
      ['00000000  6b 38 73 3a 65 6e 63 3a  61 65 73 63 62 63 3a 76  |k8s:enc:aescbc:v|', '00000010  31 3a 6b 65 79 31 3a 61  62 63 0a 00 01 ff        |1:key1:abc....|', '0000001e', ''].join('\n'),
    );
  });

  it('squeezes repeated lines to * and pads a short last line', () => {
    expect(hexdump(Buffer.from('0123456789abcdef'.repeat(3) + '0123'))).toBe(
      ['00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|', '*', '00000030  30 31 32 33                                       |0123|', '00000034', ''].join('\n'),
    );
  });

  it('prints nothing for no bytes', () => {
    expect(hexdump(new Uint8Array(0))).toBe('');
  });
});
