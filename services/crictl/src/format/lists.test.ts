import { describe, expect, it } from 'vitest';
import type { CriContainer__Output, CriImage__Output, CriPodSandbox__Output } from '@kubelab/proto';
import { formatContainers, formatImages, formatPods, normalizeRepoDigest, normalizeRepoTagPairs, truncatedId } from './lists.js';

const NOW = Date.UTC(2026, 11, 1, 13, 36, 15);
const ns = (msAgo: number) => String(BigInt(NOW - msAgo) * 1_000_000n);
const ID = 'a'.repeat(64);
const POD = 'b'.repeat(64);

const container = (over: Partial<CriContainer__Output> = {}): CriContainer__Output =>
  ({
    id: ID,
    podSandboxId: POD,
    metadata: { name: 'nginx', attempt: 1 },
    image: { image: 'docker.io/library/nginx:1.27', annotations: {}, userSpecifiedImage: '', runtimeHandler: '' },
    imageRef: 'sha256:' + 'c'.repeat(64),
    state: 'CONTAINER_RUNNING',
    createdAt: ns(180_000),
    labels: { 'io.kubernetes.pod.name': 'web-1', 'io.kubernetes.pod.namespace': 'default' },
    annotations: {},
    imageId: '',
    ...over,
  }) as CriContainer__Output;

describe('formatContainers (crictl ps)', () => {
  it('prints crictl columns with truncated IDs and a relative CREATED', () => {
    expect(formatContainers([container()], NOW)).toBe(
      'CONTAINER           IMAGE                          CREATED             STATE               NAME                ATTEMPT             POD ID              POD                 NAMESPACE\n' +
        'aaaaaaaaaaaaa       docker.io/library/nginx:1.27   3 minutes ago       Running             nginx               1                   bbbbbbbbbbbbb       web-1               default\n',
    );
  });
  it('shortens a digest image like an ID; missing pod labels read "unknown"', () => {
    const out = formatContainers([container({ image: { image: 'sha256:' + 'd'.repeat(64) } as CriContainer__Output['image'], labels: {}, createdAt: ns(70_000) })], NOW);
    expect(out.split('\n')[1]).toBe(
      'aaaaaaaaaaaaa       ddddddddddddd       About a minute ago   Running             nginx               1                   bbbbbbbbbbbbb       unknown             unknown',
    );
  });
  it('-q prints whole IDs only', () => expect(formatContainers([container()], NOW, { quiet: true })).toBe(`${ID}\n`));
  it('an unknown state is an error', () => expect(() => formatContainers([container({ state: 'BOGUS' as never })], NOW)).toThrow('unknown container state "BOGUS"'));
});

describe('formatPods (crictl pods)', () => {
  const pod = {
    id: POD,
    metadata: { name: 'web-1', uid: 'u1', namespace: 'default', attempt: 0 },
    state: 'SANDBOX_NOTREADY',
    createdAt: ns(2 * 3_600_000),
    labels: {},
    annotations: {},
    runtimeHandler: '',
  } as unknown as CriPodSandbox__Output;
  it('prints POD ID CREATED STATE NAME NAMESPACE ATTEMPT RUNTIME', () => {
    expect(formatPods([pod], NOW)).toBe(
      'POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n' +
        'bbbbbbbbbbbbb       2 hours ago         NotReady            web-1               default             0                   (default)\n',
    );
  });
});

describe('formatImages (crictl images)', () => {
  const image = {
    id: 'sha256:' + 'e'.repeat(64),
    repoTags: ['docker.io/library/nginx:1.27', 'docker.io/library/nginx:latest'],
    repoDigests: ['docker.io/library/nginx@sha256:' + 'f'.repeat(64)],
    size: '75497472',
    uid: null,
    username: '',
    spec: null,
    pinned: false,
  } as unknown as CriImage__Output;
  it('one row per tag, IMAGE TAG IMAGE ID SIZE', () => {
    expect(formatImages([image])).toBe(
      'IMAGE                     TAG                 IMAGE ID            SIZE\n' +
        'docker.io/library/nginx   1.27                eeeeeeeeeeeee       75.5MB\n' +
        'docker.io/library/nginx   latest              eeeeeeeeeeeee       75.5MB\n',
    );
  });
  it('--digests adds DIGEST; an untagged image shows <none>', () => {
    const out = formatImages([{ ...image, repoTags: [] }], { digests: true });
    expect(out.split('\n')[1]).toBe('docker.io/library/nginx   <none>              fffffffffffff       eeeeeeeeeeeee       75.5MB');
  });
});

describe('helpers', () => {
  it.each([
    ['0123456789abcdef', '', '0123456789abc'],
    ['sha256:0123456789abcdef', 'sha256:', '0123456789abc'],
    ['short', '', 'short'],
  ])('truncatedId(%s)', (id, prefix, want) => expect(truncatedId(id, prefix)).toBe(want));
  it('normalizeRepoDigest', () => {
    expect(normalizeRepoDigest([])).toEqual(['<none>', '<none>']);
    expect(normalizeRepoDigest(['a@b@c'])).toEqual(['errorName', 'errorRepoDigest']);
  });
  it('normalizeRepoTagPairs', () =>
    expect(normalizeRepoTagPairs(['<none>:<none>', 'nocolon'], 'img')).toEqual([
      ['img', '<none>'],
      ['errorRepoTag', 'errorRepoTag'],
    ]));
});
