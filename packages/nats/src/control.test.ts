import { describe, expect, it } from 'vitest';
import { controlCommandLine, controlSubject, parseNodeControlRequest } from './control.js';

describe('the node control requests', () => {
  it.each([
    ['a node', 'node-1', 'kubelab.control.node-1'],
    ['dots become underscores (one token)', 'worker.example', 'kubelab.control.worker_example'],
  ])('subject: %s', (_n, node, want) => expect(controlSubject(node)).toBe(want));

  it.each([
    ['stop the kubelet', { action: 'stop', unit: 'kubelet' }, { action: 'stop', unit: 'kubelet' }, 'systemctl stop kubelet'],
    ['start containerd', { action: 'start', unit: 'containerd' }, { action: 'start', unit: 'containerd' }, 'systemctl start containerd'],
    ['stop the scheduler', { action: 'stop', unit: 'kube-scheduler' }, { action: 'stop', unit: 'kube-scheduler' }, 'stop kube-scheduler (static pod)'],
    ['a fault', { action: 'fault', fault: 'kernel-deadlock' }, { action: 'fault', fault: 'kernel-deadlock', clear: false }, 'node-fault kernel-deadlock'],
    ['a fault cleared', { action: 'fault', fault: 'disk-pressure', clear: true }, { action: 'fault', fault: 'disk-pressure', clear: true }, 'node-fault disk-pressure --clear'],
  ])('accepts %s', (_n, body, want, line) => {
    const req = parseNodeControlRequest(body);
    expect(req).toEqual(want);
    expect(controlCommandLine(req)).toBe(line);
  });

  it.each([
    ['not an object', [], 'the request must be a JSON object'],
    ['no action', {}, 'action: stop, start or fault is required, got undefined'],
    ['another action', { action: 'reboot' }, 'action: stop, start or fault is required, got "reboot"'],
    [
      'a unit of no node',
      { action: 'stop', unit: 'sshd' },
      'unit: one of kubelet, containerd, kube-proxy, node-problem-detector, kube-network-policies, kube-scheduler, kube-controller-manager is required, got "sshd"',
    ],
    ['a shell in the fault name', { action: 'fault', fault: 'x; rm -rf /' }, 'fault: a fault name (kubelab fault list) is required, got "x; rm -rf /"'],
    ['clear not a boolean', { action: 'fault', fault: 'disk-pressure', clear: 'yes' }, 'clear: true or false, got "yes"'],
  ])('refuses %s', (_n, body, message) => expect(() => parseNodeControlRequest(body)).toThrow(message));
});
