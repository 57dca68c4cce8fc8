// How storage failures reach the client: the Status kube-apiserver answers
// for each way etcd (NATS here) can fail a write.
import { describe, expect, it } from 'vitest';
import { StorageError } from '../storage/kv.js';
import { STORAGE_TIMEOUT_MESSAGE, toStatusError } from './store.js';

describe('toStatusError for storage failures', () => {
  const cases: { name: string; err: StorageError; code: number; reason: string | undefined; message: string }[] = [
    {
      name: 'store unreachable: 504 Timeout, as when etcd does not answer before the deadline',
      err: new StorageError('unavailable', 'not connected to NATS (reconnecting)'),
      code: 504,
      reason: 'Timeout',
      message: STORAGE_TIMEOUT_MESSAGE,
    },
    {
      name: "store alive without a majority: etcd's own error as a 500 with no reason",
      err: new StorageError('no-quorum', 'etcdserver: request timed out'),
      code: 500,
      reason: undefined,
      message: 'etcdserver: request timed out',
    },
    {
      name: 'too large: 413',
      err: new StorageError('too-large', 'message size exceeds'),
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: message size exceeds (etcdserver: request is too large)',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = toStatusError(c.err).status;
      expect({ code: s.code, reason: s.reason, message: s.message, status: s.status, kind: s.kind }).toEqual({ code: c.code, reason: c.reason, message: c.message, status: 'Failure', kind: 'Status' });
    });
  }
});
