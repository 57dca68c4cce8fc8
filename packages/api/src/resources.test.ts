import { describe, expect, it } from 'vitest';
import { escapeKeyName, lookupResource, storageKey, unescapeKeyName } from './resources.js';

describe('storage keys', () => {
  it.each([
    ['web-7d4b9c', 'web-7d4b9c'],
    ['kube-proxy.v1', 'kube-proxy.v1'],
    ['system:node', 'system=3Anode'],
    ['system::leader-locking-kube-scheduler', 'system=3A=3Aleader-locking-kube-scheduler'],
    ['a=b', 'a=3Db'],
    ['Jane Doe@example.com', 'Jane=20Doe=40example.com'],
    ['a..b.', 'a=2E.b=2E'],
    ['grüß', 'gr=C3=BC=C3=9F'],
  ])('%s is stored as %s and read back', (name, key) => {
    expect(escapeKeyName(name)).toBe(key);
    expect(unescapeKeyName(key)).toBe(name);
    expect(/^[-/=.\w]+$/.test(key) && !key.endsWith('.') && !key.includes('..')).toBe(true);
  });

  it('the name is escaped in the key, the namespace and prefix are not', () => {
    expect(storageKey(lookupResource('rbac.authorization.k8s.io', 'v1', 'rolebindings')!, 'kube-system', 'system:controller:token-cleaner')).toBe(
      '/registry/rbac.authorization.k8s.io/rolebindings/kube-system/system=3Acontroller=3Atoken-cleaner',
    );
    expect(storageKey(lookupResource('', 'v1', 'pods')!, 'default', 'web')).toBe('/registry/pods/default/web');
  });
});
