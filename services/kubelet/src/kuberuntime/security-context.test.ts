import type { Container, Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MASKED_PATHS, DEFAULT_READONLY_PATHS, linuxContainerSecurityContext, linuxPodSandboxConfig, verifyRunAsNonRoot, type ImageUser } from './security-context.js';

const podWith = (spec: Partial<NonNullable<Pod['spec']>> = {}, c: Partial<Container> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'lab', uid: 'u-1' },
  spec: { containers: [{ name: 'c', image: 'busybox', ...c }], ...spec },
});
const only = (pod: Pod) => pod.spec!.containers[0]!;

describe('the container security context the kubelet sends', () => {
  it('without any securityContext: root from the image, default paths, Unconfined seccomp', () => {
    const pod = podWith();
    expect(linuxContainerSecurityContext(pod, only(pod), { uid: 0 })).toEqual({
      privileged: false,
      namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' },
      runAsUser: { value: 0 },
      runAsUsername: '',
      readonlyRootfs: false,
      supplementalGroups: [],
      noNewPrivs: false,
      maskedPaths: DEFAULT_MASKED_PATHS,
      readonlyPaths: DEFAULT_READONLY_PATHS,
      seccomp: { profileType: 'Unconfined', localhostRef: '' },
    });
  });

  it.each<[string, Partial<NonNullable<Pod['spec']>>, Partial<Container>, ImageUser, Record<string, unknown>]>([
    [
      'pod runAsUser/runAsGroup, fsGroup before supplementalGroups',
      { securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000] } },
      {},
      { uid: 0 },
      { runAsUser: { value: 1000 }, runAsGroup: { value: 3000 }, supplementalGroups: [2000, 4000] },
    ],
    ['the container overrides the pod', { securityContext: { runAsUser: 1000 } }, { securityContext: { runAsUser: 2000 } }, {}, { runAsUser: { value: 2000 } }],
    ['an image user name goes as run_as_username', {}, {}, { username: 'nginx' }, { runAsUsername: 'nginx' }],
    [
      'capabilities, read-only root, allowPrivilegeEscalation false',
      {},
      { securityContext: { capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] }, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false } },
      {},
      { capabilities: { addCapabilities: ['NET_ADMIN'], dropCapabilities: ['ALL'] }, readonlyRootfs: true, noNewPrivs: true },
    ],
    ['procMount Unmasked', {}, { securityContext: { procMount: 'Unmasked' } }, {}, { maskedPaths: [], readonlyPaths: [] }],
    ['pod seccomp RuntimeDefault', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }, {}, {}, { seccomp: { profileType: 'RuntimeDefault', localhostRef: '' } }],
    [
      'container seccomp Localhost',
      {},
      { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } } },
      {},
      { seccomp: { profileType: 'Localhost', localhostRef: 'p.json' } },
    ],
    ['shareProcessNamespace: one PID namespace', { shareProcessNamespace: true }, {}, {}, { namespaceOptions: { network: 'POD', pid: 'POD', ipc: 'POD' } }],
    ['hostPID and hostIPC', { hostPID: true, hostIPC: true }, {}, {}, { namespaceOptions: { network: 'POD', pid: 'NODE', ipc: 'NODE' } }],
  ])('%s', (_name, spec, c, image, want) => {
    const pod = podWith(spec, c);
    expect(linuxContainerSecurityContext(pod, only(pod), image)).toMatchObject(want);
  });

  it('the sandbox: sysctls as a map, privileged when a container is', () => {
    const pod = podWith({ securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }], runAsUser: 1000 } }, { securityContext: { privileged: true } });
    expect(linuxPodSandboxConfig(pod)).toEqual({
      securityContext: {
        namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' },
        privileged: true,
        runAsUser: { value: 1000 },
        supplementalGroups: [],
        seccomp: { profileType: 'Unconfined', localhostRef: '' },
      },
      sysctls: { 'net.core.somaxconn': '1024' },
    });
  });
});

describe('runAsNonRoot against the image user', () => {
  it.each<[string, Partial<NonNullable<Pod['spec']>>, Partial<Container>, ImageUser, string | undefined]>([
    ['not asked', {}, {}, { uid: 0 }, undefined],
    ['an image running as root', { securityContext: { runAsNonRoot: true } }, {}, { uid: 0 }, 'container has runAsNonRoot and image will run as root (pod: "p_lab(u-1)", container: c)'],
    ['a non-root image', { securityContext: { runAsNonRoot: true } }, {}, { uid: 101 }, undefined],
    [
      'a non-numeric image user',
      {},
      { securityContext: { runAsNonRoot: true } },
      { username: 'nginx' },
      'container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root (pod: "p_lab(u-1)", container: c)',
    ],
    ['runAsUser 0', { securityContext: { runAsNonRoot: true, runAsUser: 0 } }, {}, { uid: 1000 }, `container's runAsUser breaks non-root policy (pod: "p_lab(u-1)", container: c)`],
    ['runAsUser over a root image', { securityContext: { runAsNonRoot: true } }, { securityContext: { runAsUser: 1000 } }, { uid: 0 }, undefined],
  ])('%s', (_name, spec, c, image, want) => {
    const pod = podWith(spec, c);
    expect(verifyRunAsNonRoot(pod, only(pod), image)).toBe(want);
  });
});
