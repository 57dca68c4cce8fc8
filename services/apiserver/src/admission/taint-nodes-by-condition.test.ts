// TaintNodesByCondition: a new Node carries the not-ready NoSchedule taint.
import type { Taint } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { withNotReadyTaint } from './taint-nodes-by-condition.js';

const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

describe('withNotReadyTaint', () => {
  it.each<{ name: string; given: Taint[] | undefined; want: Taint[] }>([
    { name: 'no taints: the not-ready one', given: undefined, want: [notReady] },
    {
      name: "the kubelet's --register-with-taints kept, the not-ready one after them",
      given: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      want: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, notReady],
    },
    { name: 'already there: unchanged', given: [notReady], want: [notReady] },
    {
      name: 'the NoExecute one is another taint',
      given: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      want: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }, notReady],
    },
  ])('$name', ({ given, want }) => expect(withNotReadyTaint(given)).toEqual(want));
});
