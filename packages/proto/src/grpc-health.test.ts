import { describe, expect, it } from 'vitest';
import { decodeHealthRequest, decodeHealthResponse, encodeHealthRequest, encodeHealthResponse } from './grpc-health.js';

describe('grpc.health.v1 messages on the wire', () => {
  it('round-trips requests and responses as protobuf encodes them', () => {
    expect(encodeHealthRequest('db')).toEqual(Buffer.from([0x0a, 0x02, 0x64, 0x62]));
    expect(encodeHealthRequest('')).toEqual(Buffer.alloc(0));
    expect(decodeHealthRequest(encodeHealthRequest('x'.repeat(200)))).toEqual({ service: 'x'.repeat(200) });
    expect(decodeHealthRequest(Buffer.alloc(0))).toEqual({ service: '' });
    expect(encodeHealthResponse('SERVING')).toEqual(Buffer.from([0x08, 0x01]));
    expect(encodeHealthResponse('UNKNOWN')).toEqual(Buffer.alloc(0));
    expect(decodeHealthResponse(encodeHealthResponse('NOT_SERVING'))).toBe('NOT_SERVING');
    expect(decodeHealthResponse(Buffer.alloc(0))).toBe('UNKNOWN');
    expect(decodeHealthResponse(Buffer.from([0x08, 0x07]))).toBe('7'); // a value this proto does not know
  });

  it('refuses malformed input with a clear error', () => {
    expect(() => decodeHealthRequest(Buffer.from([0x0a, 0x09, 0x64]))).toThrow('truncated field');
    expect(() => decodeHealthResponse(Buffer.from([0x08, 0x80]))).toThrow('truncated varint');
    expect(() => decodeHealthRequest(Buffer.from([0x0b]))).toThrow('unsupported wire type 3');
  });
});
