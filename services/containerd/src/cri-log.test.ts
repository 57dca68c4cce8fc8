import { describe, expect, it } from 'vitest';
import { criLogLines } from './cri-log.js';

describe('containerd CRI log lines', () => {
  it.each([
    [
      'RunPodSandbox',
      { config: { metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 } } },
      { podSandboxId: 'sb1' },
      'RunPodSandbox for &PodSandboxMetadata{Name:web,Uid:u1,Namespace:default,Attempt:0,}',
      'RunPodSandbox for &PodSandboxMetadata{Name:web,Uid:u1,Namespace:default,Attempt:0,} returns sandbox id "sb1"',
    ],
    [
      'CreateContainer',
      { podSandboxId: 'sb1', config: { metadata: { name: 'web', attempt: 1 } } },
      { containerId: 'c1' },
      'CreateContainer within sandbox "sb1" for container &ContainerMetadata{Name:web,Attempt:1,}',
      'CreateContainer within sandbox "sb1" for &ContainerMetadata{Name:web,Attempt:1,} returns container id "c1"',
    ],
    ['StartContainer', { containerId: 'c1' }, {}, 'StartContainer for "c1"', 'StartContainer for "c1" returns successfully'],
    ['StopContainer', { containerId: 'c1', timeout: 30 }, {}, 'StopContainer for "c1" with timeout 30 (s)', 'StopContainer for "c1" returns successfully'],
    ['RemoveContainer', { containerId: 'c1' }, {}, 'RemoveContainer for "c1"', 'RemoveContainer for "c1" returns successfully'],
    ['PullImage', { image: { image: 'nginx:1.25' } }, { imageRef: 'sha256:abc' }, 'PullImage "nginx:1.25"', 'PullImage "nginx:1.25" returns image reference "sha256:abc"'],
  ])('%s', (method, req, res, start, done) => {
    const l = criLogLines(method, req)!;
    expect(l.start).toBe(start);
    expect(l.done(res)).toBe(done);
  });

  it('read-only calls have no info lines', () => {
    expect(criLogLines('ListContainers', {})).toBeUndefined();
  });
});
