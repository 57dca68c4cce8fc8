import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@kubelab/component-base';
import { waitFor } from '@kubelab/testing';
import { startApiserver, type RunningApiserver } from '../server.js';
import { startTestCluster, type TestCluster } from '../testing/index.js';
import { endpointReconcilerType } from './endpoints.js';
import { encodeMasterLease, masterLeaseKey } from './master-leases.js';

describe('--endpoint-reconciler-type', () => {
  for (const type of ['lease', 'master-count', 'none']) it(`accepts ${type}`, () => expect(endpointReconcilerType(type)).toBe(type));
  it("refuses another value with pflag's text", () =>
    expect(() => endpointReconcilerType('all')).toThrow('invalid argument "all" for "--endpoint-reconciler-type" flag: must be master-count, lease or none'));
});

// Leases renewed every 200 ms and kept 1 s (upstream: 10 s and 15 s), so apiservers come and go within a test.
const FAST = { endpointReconcilerIntervalMs: 200, masterLeaseTtlMs: 1_000 };

describe('the lease endpoint reconciler: the kubernetes Service lists every live apiserver', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster(FAST);
  }, 60_000);
  afterAll(() => cluster?.cleanup(), 30_000);

  const addresses = async () => {
    const registry = cluster.apiserver.registry;
    const ep = (await registry.mustStore('', 'endpoints').get('default', 'kubernetes')) as unknown as { subsets: { addresses: { ip: string }[] }[] };
    const slice = (await registry.mustStore('discovery.k8s.io', 'endpointslices').get('default', 'kubernetes')) as unknown as { endpoints: { addresses: string[] }[] };
    return { endpoints: ep.subsets[0]!.addresses.map((a) => a.ip), slice: slice.endpoints.flatMap((e) => e.addresses) };
  };
  const until = (want: string[]) =>
    waitFor(
      `kubernetes endpoints ${want.join(',')}`,
      async () => {
        const a = await addresses();
        return JSON.stringify(a.endpoints) === JSON.stringify(want) && JSON.stringify(a.slice) === JSON.stringify(want) ? a : undefined;
      },
      { timeoutMs: 10_000, everyMs: 50 },
    );

  it('adds a second apiserver when it starts and removes it when it stops', async () => {
    await until(['127.0.0.1']);
    const serving = await cluster.pki.serving({ ipAddresses: ['127.0.0.1'] });
    let second: RunningApiserver | undefined = await startApiserver({
      ...FAST,
      tls: { certPem: serving.cert, keyPem: serving.key, clientCaPem: cluster.pki.caPem },
      natsUrl: cluster.nats.url,
      natsTls: cluster.nats.apiserverTls,
      bindAddress: '127.0.0.1',
      advertiseAddress: '127.0.0.2',
      securePort: 0,
      grpcPort: 0,
      rest: false,
      logger: createLogger({ component: 'kube-apiserver', level: 'error' }),
    });
    try {
      await second.ready;
      await until(['127.0.0.1', '127.0.0.2']);
      await second.stop();
      second = undefined;
      // RemoveEndpoints on shutdown: gone at once, not after the TTL.
      await until(['127.0.0.1']);
    } finally {
      await second?.stop();
    }
  }, 60_000);

  it('drops an apiserver whose lease was not renewed within the TTL, and deletes its lease', async () => {
    // An apiserver that died without shutting down: its last lease, never renewed.
    await cluster.apiserver.storage.create(masterLeaseKey('127.0.0.9'), encodeMasterLease('127.0.0.9', Date.now() + 1_000));
    await until(['127.0.0.1', '127.0.0.9']);
    await until(['127.0.0.1']);
    await waitFor('the expired lease deleted', async () => ((await cluster.apiserver.storage.get(masterLeaseKey('127.0.0.9'))) ? undefined : true), { timeoutMs: 5_000, everyMs: 50 });
  }, 30_000);
});
