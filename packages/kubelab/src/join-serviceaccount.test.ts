import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKubeconfig } from '@kubelab/pki/kubeconfig';
import { afterAll, describe, expect, it } from 'vitest';
import {
  boundTokenClaim,
  daemonSetUnitPaths,
  findServiceAccountVolume,
  JOINED_DAEMONSET_UNITS,
  linkServiceAccountMount,
  serviceAccountKubeconfig,
  serviceAccountUser,
  SERVICE_ACCOUNT_MOUNT,
  writeServiceAccountKubeconfig,
} from './join-serviceaccount.js';
import { networkPolicyAddonObjects } from './network-policy-addon.js';

const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const bound = (ns: string, sa: string, pod: { name: string; uid: string }) =>
  jwt({ sub: `system:serviceaccount:${ns}:${sa}`, 'kubernetes.io': { namespace: ns, serviceaccount: { name: sa, uid: 'u' }, pod } });

describe("a joined node's DaemonSet units' identities", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-join-sa-'));
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

    // The node-problem-detector pod's volume sits beside it; each unit's mount follows its own pod.
    const npd = volume('u-npd', 'kube-api-access-e', bound('kube-system', 'node-problem-detector', { name: 'node-problem-detector-q8w4z', uid: 'u-npd' }));
    expect(findServiceAccountVolume(kubelet, 'kube-system', 'node-problem-detector')).toEqual({ dir: npd, pod: 'node-problem-detector-q8w4z' });

    const root = join(dir, 'root');
    const proxyMount = daemonSetUnitPaths(root, 'kube-proxy').mount;
    const npdMount = daemonSetUnitPaths(root, 'node-problem-detector').mount;
    expect(linkServiceAccountMount(proxyMount, want)).toBe(true);
    expect(linkServiceAccountMount(proxyMount, want)).toBe(false);
    expect(linkServiceAccountMount(npdMount, npd)).toBe(true);
    expect([readlinkSync(proxyMount), readlinkSync(npdMount)]).toEqual([want, npd]);
    // A new pod (another UID): the mount is swapped to its volume.
    const next = volume('u-npd2', 'kube-api-access-f', bound('kube-system', 'node-problem-detector', { name: 'node-problem-detector-b7t2m', uid: 'u-npd2' }));
    expect(linkServiceAccountMount(npdMount, next)).toBe(true);
    expect(readlinkSync(npdMount)).toBe(next);
  });

  it.each([
    ['kube-proxy', 'system:serviceaccount:kube-system:kube-proxy', '/r/run/kubelab/units/kube-proxy/var/run/secrets/kubernetes.io/serviceaccount', '/r/var/lib/kube-proxy/kubeconfig.conf'],
    [
      'node-problem-detector',
      'system:serviceaccount:kube-system:node-problem-detector',
      '/r/run/kubelab/units/node-problem-detector/var/run/secrets/kubernetes.io/serviceaccount',
      '/r/var/lib/node-problem-detector/kubeconfig.conf',
    ],
    [
      'kube-network-policies',
      'system:serviceaccount:kube-system:kube-network-policies',
      '/r/run/kubelab/units/kube-network-policies/var/run/secrets/kubernetes.io/serviceaccount',
      '/r/var/lib/kube-network-policies/kubeconfig.conf',
    ],
  ] as const)('runs %s as %s, its mount at %s and kubeconfig at %s', (unit, user, mount, kubeconfig) => {
    const du = JOINED_DAEMONSET_UNITS.find((u) => u.unit === unit)!;
    expect(serviceAccountUser(du)).toBe(user);
    expect(daemonSetUnitPaths('/r', unit)).toEqual({ mount, kubeconfig });
    expect(mount.endsWith(`/${SERVICE_ACCOUNT_MOUNT}`)).toBe(true);
  });

  it('starts kube-proxy, then the Node Problem Detector, then the NetworkPolicy agent', () => {
    expect(JOINED_DAEMONSET_UNITS.map((u) => u.unit)).toEqual(['kube-proxy', 'node-problem-detector', 'kube-network-policies']);
  });

  it("runs each unit as its addon's ServiceAccount (the DaemonSet's serviceAccountName)", () => {
    expect(JOINED_DAEMONSET_UNITS.find((u) => u.unit === 'kube-network-policies')).toEqual({
      unit: 'kube-network-policies',
      namespace: networkPolicyAddonObjects('local').daemonSet.metadata!.namespace,
      serviceAccount: networkPolicyAddonObjects('local').daemonSet.spec!.template.spec!.serviceAccountName,
    });
  });

  it("writes kubeadm's kubeconfig.conf: the mount's CA and token file, no client certificate", () => {
    const paths = daemonSetUnitPaths(join(dir, 'root'), 'kube-proxy');
    const mount = paths.mount;
    expect(writeServiceAccountKubeconfig('https://10.0.0.1:6443', paths)).toBe(paths.kubeconfig);
    expect(readFileSync(paths.kubeconfig, 'utf8')).toBe(serviceAccountKubeconfig('https://10.0.0.1:6443', mount));
    const creds = parseKubeconfig(serviceAccountKubeconfig('https://10.0.0.1:6443', mount));
    expect(creds).toEqual({
      server: 'https://10.0.0.1:6443',
      insecureSkipTlsVerify: false,
      caPem: 'CA',
      token: bound('kube-system', 'kube-proxy', { name: 'kube-proxy-7xk2p', uid: 'u-kp' }),
      tokenFile: join(mount, 'token'),
    });
  });
});
