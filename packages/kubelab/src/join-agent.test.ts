import { describe, expect, it } from 'vitest';
import { joinedNodeRunner } from './join-agent.js';

describe("a joined node's agent", () => {
  it.each([
    ['a fault', { action: 'fault', fault: 'kernel-hang', clear: false }, 'faults are injected on the nodes kubelab up runs; far-1 joined from another machine\n'],
    ['a control-plane component', { action: 'stop', unit: 'kube-scheduler' }, 'kube-scheduler is a static pod of the control-plane node, not a unit of far-1\n'],
  ] as const)('refuses %s', async (_name, req, output) => {
    expect(await joinedNodeRunner('/nonexistent')('far-1', req)).toEqual({ ok: false, output });
  });
});
