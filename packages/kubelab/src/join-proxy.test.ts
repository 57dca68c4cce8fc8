import { mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKubeconfig } from '@kubelab/pki/kubeconfig';
import { afterAll, describe, expect, it } from 'vitest';
import { boundTokenClaim, findServiceAccountVolume, kubeProxyKubeconfig, linkServiceAccountMount, SERVICE_ACCOUNT_MOUNT } from './join-proxy.js';

const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const bound = (ns: string, sa: string, pod: { name: string; uid: string }) =>
  jwt({ sub: `system:serviceaccount:${ns}:${sa}`, 'kubernetes.io': { namespace: ns, serviceaccount: { name: sa, uid: 'u' }, pod } });

describe("a joined node's kube-proxy identity", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-join-proxy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a bound token', bound('kube-system', 'kube-proxy', { name: 'kube-proxy-x', uid: '1' }), { namespace: 'kube-system', name: 'kube-proxy' }],
    ['a legacy token (no kubernetes.io claim)', jwt({ sub: 'system:serviceaccount:a:b' }), undefined],
    ['not a JWT', 'abcdef.0123456789abcdef', undefined],
    ['empty', '', undefined],
  ])('reads the claim of %s', (_what, token, want) => {
    const k = boundTokenClaim(token);
    expect(k && { namespace: k.namespace, name: k.serviceaccount.name }).toEqual(want);
  });

  it("finds the kube-proxy pod's projected volume among the node's pods, and links the mount to it", () => {
    const kubelet = join(dir, 'kubelet');
    const volume = (uid: string, name: string, token: string, ca = true) => {
      const d = join(kubelet, 'pods', uid, 'volumes', 'kubernetes.io~projected', name);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'token'), token);
      if (ca) writeFileSync(join(d, 'ca.crt'), 'CA');
      return d;
    };
    expect(findServiceAccountVolume(kubelet, 'kube-system', 'kube-proxy')).toBeUndefined();
    volume('u-web', 'kube-api-access-a', bound('default', 'default', { name: 'web', uid: 'u-web' }));
    // A token naming another pod's UID is not this pod's.
    volume('u-other', 'kube-api-access-b', bound('kube-system', 'kube-proxy', { name: 'kube-proxy-old', uid: 'u-gone' }));
    volume('u-half', 'kube-api-access-c', bound('kube-system', 'kube-proxy', { name: 'kube-proxy-half', uid: 'u-half' }), false);
    expect(findServiceAccountVolume(kubelet, 'kube-system', 'kube-proxy')).toBeUndefined();
    const want = volume('u-kp', 'kube-api-access-d', bound('kube-system', 'kube-proxy', { name: 'kube-proxy-7xk2p', uid: 'u-kp' }));
    expect(findServiceAccountVolume(kubelet, 'kube-system', 'kube-proxy')).toEqual({ dir: want, pod: 'kube-proxy-7xk2p' });

    const root = join(dir, 'root');
    expect(linkServiceAccountMount(root, want)).toBe(true);
    expect(linkServiceAccountMount(root, want)).toBe(false);
    expect(readlinkSync(join(root, SERVICE_ACCOUNT_MOUNT))).toBe(want);
  });

  it("writes kubeadm's kubeconfig.conf: the mount's CA and token file, no client certificate", () => {
    const root = join(dir, 'root');
    const mount = join(root, SERVICE_ACCOUNT_MOUNT);
    const creds = parseKubeconfig(kubeProxyKubeconfig('https://10.0.0.1:6443', root));
    expect(creds).toEqual({
      server: 'https://10.0.0.1:6443',
      insecureSkipTlsVerify: false,
      caPem: 'CA',
      token: bound('kube-system', 'kube-proxy', { name: 'kube-proxy-7xk2p', uid: 'u-kp' }),
      tokenFile: join(mount, 'token'),
    });
  });
});
