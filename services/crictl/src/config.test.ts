import { describe, expect, it } from 'vitest';
import { grpcTarget, nodePath, parseServerConfig, resolveEndpoints } from './config.js';

describe('crictl endpoint resolution', () => {
  it.each([
    ['the flag wins', { flag: 'unix:///a.sock', env: 'unix:///b.sock', file: { runtimeEndpoint: 'unix:///c.sock' } }, 'unix:///a.sock'],
    ['then the config file', { env: 'unix:///b.sock', file: { runtimeEndpoint: 'unix:///c.sock' } }, 'unix:///c.sock'],
    ['then CONTAINER_RUNTIME_ENDPOINT', { env: 'unix:///b.sock' }, 'unix:///b.sock'],
    ['else containerd', {}, 'unix:///run/containerd/containerd.sock'],
  ])('%s', (_n, inputs, want) => expect(resolveEndpoints(inputs).runtime).toBe(want));

  it('the image endpoint defaults to the runtime one', () => {
    expect(resolveEndpoints({ flag: 'unix:///a.sock' }).image).toBe('unix:///a.sock');
    expect(resolveEndpoints({ flag: 'unix:///a.sock', imageEnv: 'unix:///i.sock' }).image).toBe('unix:///i.sock');
  });

  it('reads /etc/crictl.yaml keys', () => {
    expect(parseServerConfig('runtime-endpoint: unix:///run/containerd/containerd.sock\ntimeout: 10\ndebug: true\n')).toEqual({
      runtimeEndpoint: 'unix:///run/containerd/containerd.sock',
      timeoutMs: 10_000,
      debug: true,
    });
    expect(parseServerConfig('')).toEqual({});
  });

  it('targets and node paths', () => {
    expect(grpcTarget('unix:///run/x.sock')).toBe('unix:///run/x.sock');
    expect(grpcTarget('/run/x.sock')).toBe('unix:///run/x.sock');
    expect(grpcTarget('tcp://127.0.0.1:1234')).toBe('127.0.0.1:1234');
    expect(nodePath('/etc/crictl.yaml', {})).toBe('/etc/crictl.yaml');
    expect(nodePath('/etc/crictl.yaml', { KUBELAB_NODE_ROOT: '/state/nodes/node-1/root' })).toBe('/state/nodes/node-1/root/etc/crictl.yaml');
  });
});
