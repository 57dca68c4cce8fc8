import { describe, expect, it } from 'vitest';
import { decodeStatus } from './stream-status.js';

describe('decodeStatus (client-go errorDecoderV4)', () => {
  it('success and an empty stream are no error', () => {
    expect(decodeStatus('{"metadata":{},"status":"Success"}')).toBeUndefined();
    expect(decodeStatus('')).toBeUndefined();
  });
  it('a non-zero exit carries its code', () => {
    const e = decodeStatus('{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}');
    expect(e).toMatchObject({ message: 'command terminated with exit code 3', exitCode: 3 });
  });
  it.each([
    ['{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[]}}', 'while decoding status: missing exit code'],
    ['{"status":"Failure","message":"Internal error occurred: no such container","reason":"InternalError"}', 'Internal error occurred: no such container'],
    ['{"status":"Weird"}', 'error stream protocol error: unknown error'],
  ])('%s', (text, msg) => expect(decodeStatus(text)?.message).toBe(msg));
});
