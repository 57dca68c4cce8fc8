import type { Secret } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { TokenCleaner } from './tokencleaner.js';

const token = (id: string, expiration?: string, type = 'bootstrap.kubernetes.io/token'): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system', uid: `uid-${id}` },
  type: type as Secret['type'],
  data: { 'token-id': Buffer.from(id).toString('base64'), ...(expiration ? { expiration: Buffer.from(expiration).toString('base64') } : {}) },
});

describe('token cleaner', () => {
  it('deletes expired bootstrap tokens and keeps the others', async () => {
    const env = fakeEnv(); // the clock reads 2026-01-01T00:00:00Z
    env.fake.seed(GVR.secrets, token('old000', '2025-12-31T00:00:00Z'), token('new000', '2026-01-02T00:00:00Z'), token('never0'), token('opaque', '2025-01-01T00:00:00Z', 'Opaque'));
    const c = new TokenCleaner(env.ctx);
    await env.sync();
    for (const n of ['old000', 'new000', 'never0', 'opaque']) await c.sync(`bootstrap-token-${n}`);
    expect(env.fake.actionLines()).toEqual(['delete secrets kube-system/bootstrap-token-old000']);
    await env.stop();
  });

  it('deletes a token once its expiration passes', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.secrets, token('soon00', '2026-01-01T00:01:00Z'));
    const c = new TokenCleaner(env.ctx);
    await env.sync();
    await c.processItem((await c.queue.get())!);
    expect(env.fake.actionLines()).toEqual([]);
    await env.clock.advance(61_000);
    expect(await c.queue.get()).toBe('bootstrap-token-soon00');
    await c.processItem('bootstrap-token-soon00');
    expect(env.fake.actionLines()).toEqual(['delete secrets kube-system/bootstrap-token-soon00']);
    await env.stop();
  });
});
