// The trigger a watch's field selector pins (pure).

import { describe, expect, it } from 'vitest';
import { RESOURCES, type KubeObject } from '@kubelab/api';
import { watchTrigger } from './triggers.js';

const info = (resource: string) => RESOURCES.find((r) => r.resource === resource && r.group === '')!;

describe('watchTrigger', () => {
  it.each([
    ['pods', 'spec.nodeName=node-1', 'node-1'],
    ['pods', 'spec.host=node-2', 'node-2'], // the old label converts to spec.nodeName
    ['pods', 'status.phase!=Succeeded,spec.nodeName=node-3', 'node-3'],
    ['pods', 'spec.nodeName=', ''], // the scheduler's unassigned pods: pinned to ""
    ['pods', 'spec.nodeName!=node-1', undefined],
    ['pods', 'metadata.name=p', undefined],
    ['pods', undefined, undefined],
    ['nodes', 'metadata.name=node-1', 'node-1'],
    ['configmaps', 'metadata.name=a', undefined], // no trigger for this resource
  ])('%s with %j pins %j', (resource, selector, want) => {
    expect(watchTrigger(info(resource), selector)?.value).toBe(want);
  });

  it('reads the pinned field from objects', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'node-1' } } as unknown as KubeObject;
    const unbound = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' }, spec: {} } as unknown as KubeObject;
    const t = watchTrigger(info('pods'), 'spec.nodeName=node-1')!;
    expect([t.valueOf(pod), t.valueOf(unbound)]).toEqual(['node-1', '']);
  });
});
