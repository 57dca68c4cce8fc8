import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { grpcCodeName } from './codes.js';

describe('grpcCodeName (grpc-go codes.Code.String())', () => {
  it.each([
    ['OK', status.OK, 'OK'],
    ["Go's one-l Canceled, not the enum's CANCELLED", status.CANCELLED, 'Canceled'],
    ['Unknown', status.UNKNOWN, 'Unknown'],
    ['a two-word code in PascalCase', status.DEADLINE_EXCEEDED, 'DeadlineExceeded'],
    ['NotFound', status.NOT_FOUND, 'NotFound'],
    ['FailedPrecondition', status.FAILED_PRECONDITION, 'FailedPrecondition'],
    ['the last code', status.UNAUTHENTICATED, 'Unauthenticated'],
    ['a code past the last', 17, 'Code(17)'],
    ['a negative code', -1, 'Code(-1)'],
  ])('%s', (_name, code, want) => expect(grpcCodeName(code)).toBe(want));

  it('names every code grpc-js knows the same as its enum, but for the spelling of Canceled', () => {
    for (const [enumName, code] of Object.entries(status).filter((e): e is [string, number] => typeof e[1] === 'number')) {
      const pascal = enumName.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s: string, c: string) => c.toUpperCase());
      expect(grpcCodeName(code)).toBe(code === status.CANCELLED ? 'Canceled' : code === status.OK ? 'OK' : pascal);
    }
  });
});
