import { describe, expect, it } from 'vitest';
import type { ConfigMap } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { apiObjectSource } from './sources.js';

/** A clientset whose configMaps(ns).get answers when released, counting the GETs. */
function fakeClientset() {
  const gets: string[] = [];
  const waiting: (() => void)[] = [];
  let version = 0;
  const cs = {
    core: {
      configMaps: (ns: string) => ({
        get: (name: string) => {
          gets.push(`${ns}/${name}`);
          const rv = String(++version);
          return new Promise<ConfigMap>((resolve) => waiting.push(() => resolve({ metadata: { name, namespace: ns, resourceVersion: rv }, data: {} })));
        },
      }),
    },
  } as unknown as Clientset;
  return { cs, gets, release: () => waiting.splice(0).forEach((r) => r()) };
}

describe('apiObjectSource', () => {
  it('makes one GET for overlapping reads of an object, and a new one for a read after it answered', async () => {
    const { cs, gets, release } = fakeClientset();
    const a = apiObjectSource(cs);
    const b = apiObjectSource(cs); // another sync's source (its own trace context)
    const reads = [a.configMap('ns', 'kube-root-ca.crt'), b.configMap('ns', 'kube-root-ca.crt'), a.configMap('ns', 'other'), a.configMap('other-ns', 'kube-root-ca.crt')];
    release();
    const got = await Promise.all(reads);
    expect(gets).toEqual(['ns/kube-root-ca.crt', 'ns/other', 'other-ns/kube-root-ca.crt']);
    expect(got[0]).toBe(got[1]);
    const later = a.configMap('ns', 'kube-root-ca.crt');
    release();
    expect((await later)?.metadata.resourceVersion).toBe('4');
    expect(gets).toHaveLength(4);
  });
});
