import { describe, expect, it } from 'vitest';
import type { NodeControlRequest } from '@kubelab/nats';
import { answerControl } from './node-control.js';

describe("a node agent's answer", () => {
  const seen: string[] = [];
  const run = async (node: string, req: NodeControlRequest) => {
    seen.push(`${node} ${JSON.stringify(req)}`);
    if (req.action === 'fault' && req.fault === 'boom') throw new Error('the node root is gone');
    return { ok: req.action !== 'start', output: `ran ${req.action}\n` };
  };

  it.each([
    ['a stop: the command runs, its output comes back', '{"action":"stop","unit":"kubelet"}', { ok: true, output: 'ran stop\n' }],
    ['a command that fails: ok false with its output', '{"action":"start","unit":"containerd"}', { ok: false, output: 'ran start\n' }],
    ['malformed JSON: refused, nothing runs', '{', { ok: false, output: expect.stringMatching(/^refused: /) }],
    ['a unit the node has not: refused', '{"action":"stop","unit":"sshd"}', { ok: false, output: expect.stringContaining('refused: unit: one of kubelet') }],
    ['a command that throws: its message', '{"action":"fault","fault":"boom"}', { ok: false, output: 'node-fault boom: the node root is gone\n' }],
  ])('%s', async (_n, payload, want) => expect(await answerControl('node-1', payload, run)).toEqual(want));

  it('ran only the valid requests', () =>
    expect(seen).toEqual(['node-1 {"action":"stop","unit":"kubelet"}', 'node-1 {"action":"start","unit":"containerd"}', 'node-1 {"action":"fault","fault":"boom","clear":false}']));
});
