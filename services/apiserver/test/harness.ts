// Helpers for this package's tests that start a real cluster. They register
// vitest hooks, so they live here rather than in src/testing (which other
// packages import as @kubelab/apiserver/testing).

import { afterAll, beforeAll } from 'vitest';
import type { ResourceServiceClient } from '@kubelab/proto';
import { api, startTestCluster, type TestCluster } from '../src/testing/index.js';

export interface SharedCluster {
  readonly c: TestCluster;
  /** A raw ResourceService client of the cluster. */
  readonly client: ResourceServiceClient;
  /** The typed API over `client`. */
  readonly k: ReturnType<typeof api>;
}

/** One cluster for the calling describe block: started before its tests, cleaned up after; read its fields inside tests. */
export function useTestCluster(opts: Parameters<typeof startTestCluster>[0] = {}): SharedCluster {
  let shared: SharedCluster | undefined;
  let cluster: TestCluster | undefined;
  beforeAll(async () => {
    const c = await startTestCluster(opts);
    cluster = c;
    const client = c.client();
    shared = { c, client, k: api(client) };
  });
  afterAll(async () => {
    await cluster?.cleanup();
  });
  const get = (): SharedCluster => {
    if (!shared) throw new Error('the test cluster is read before beforeAll started it');
    return shared;
  };
  return {
    get c() {
      return get().c;
    },
    get client() {
      return get().client;
    },
    get k() {
      return get().k;
    },
  };
}
