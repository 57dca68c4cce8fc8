import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { goDialError, grpcCodeName } from './codes.js';

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

describe('goDialError', () => {
  it.each([
    [
      'No connection established. Last error: Error: connect ENOENT /run/containerd/containerd.sock. Resolution note: ',
      undefined,
      'connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"',
    ],
    [
      'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:10010 (2026-12-06T21:30:00.000Z)',
      undefined,
      'connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:10010: connect: connection refused"',
    ],
    [
      'No connection established. Last error: Error: connect ENOENT /state/nodes/node-1/root/run/containerd/containerd.sock. Resolution note: ',
      '/run/containerd/containerd.sock',
      'connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"',
    ],
    [
      'No connection established. Last error: Error: connect EACCES /run/x.sock',
      undefined,
      'connection error: desc = "transport: Error while dialing: dial unix /run/x.sock: connect: permission denied"',
    ],
    ['No connection established. Last error: Error: connect EHOSTUNREACH 10.0.0.9:443', undefined, undefined],
    ['Deadline exceeded after 2.001s', undefined, undefined],
  ])('%s', (details, address, want) => {
    expect(goDialError(details, address)).toBe(want);
  });
});
