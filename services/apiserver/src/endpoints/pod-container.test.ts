import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { validateContainer } from './pod-container.js';

const pod = (containers: string[], extra: { init?: string[]; ephemeral?: string[] } = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    containers: containers.map((name) => ({ name, image: 'nginx' })),
    ...(extra.init ? { initContainers: extra.init.map((name) => ({ name, image: 'busybox' })) } : {}),
    ...(extra.ephemeral ? { ephemeralContainers: extra.ephemeral.map((name) => ({ name, image: 'busybox' })) } : {}),
  },
});

describe('validateContainer', () => {
  it.each<[string, Pod, string | null, string]>([
    ['the named container', pod(['app', 'sidecar']), 'sidecar', 'sidecar'],
    ['an init container by name', pod(['app'], { init: ['setup'] }), 'setup', 'setup'],
    ['an ephemeral container by name', pod(['app'], { ephemeral: ['debugger'] }), 'debugger', 'debugger'],
    ['the only container when none is named', pod(['app'], { init: ['setup'] }), null, 'app'],
    ['an empty name counts as none', pod(['app']), '', 'app'],
  ])('%s', (_name, p, requested, want) => expect(validateContainer(p, requested)).toBe(want));

  it.each<[string, Pod, string | null, string]>([
    ['a name the pod lacks', pod(['app']), 'db', 'container db is not valid for pod web'],
    ['no name and no containers', pod([]), null, 'a container name must be specified for pod web'],
    ['no name and several containers, all listed', pod(['app', 'sidecar'], { init: ['setup'] }), null, 'a container name must be specified for pod web, choose one of: [setup app sidecar]'],
  ])('400: %s', (_name, p, requested, message) => expect(() => validateContainer(p, requested)).toThrow(expect.objectContaining({ code: 400, message })));
});
