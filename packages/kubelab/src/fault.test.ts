import { describe, expect, it } from 'vitest';
import { composeFaultCommand, parseFaultArgs } from './fault.js';

describe('kubelab fault arguments', () => {
  it.each([
    [['list'], 'list'],
    [['node-1', 'kernel-deadlock'], { node: 'node-1', fault: 'kernel-deadlock', clear: false }],
    [['node-2', 'disk-pressure', '--clear', '--state-dir', '/tmp/s'], { node: 'node-2', fault: 'disk-pressure', clear: true, stateDir: '/tmp/s' }],
    [['node-1', 'oom-kill', '--pod=hog', '--compose'], { node: 'node-1', fault: 'oom-kill', clear: false, pod: 'hog', compose: true }],
  ])('%j', (argv, want) => expect(parseFaultArgs(argv)).toMatchObject(want as object));

  it.each([
    [['node-1'], 'usage: kubelab fault list | kubelab fault <node> <fault> [--clear] [--pod NAME] [--compose] [--state-dir DIR]'],
    [['node-1', 'kernel-deadlock', '--force'], 'unknown flag --force'],
  ])('refuses %j', (argv, msg) => expect(() => parseFaultArgs(argv)).toThrow(msg));
});

describe('kubelab fault --compose: the command run for it', () => {
  it.each<[string, Parameters<typeof composeFaultCommand>[0], string[]]>([
    ['a node fault: node-fault in the node container', { node: 'node-1', fault: 'oom-kill', clear: false, pod: 'hog' }, ['exec', '-T', 'node-1', 'node-fault', 'oom-kill', '--pod', 'hog']],
    ['cleared', { node: 'node-2', fault: 'disk-pressure', clear: true }, ['exec', '-T', 'node-2', 'node-fault', 'disk-pressure', '--clear']],
    ["etcd's role lost: the NATS container frozen", { node: 'node-1', fault: 'etcd-lost', clear: false }, ['pause', 'nats']],
    ['and thawed', { node: 'node-1', fault: 'etcd-lost', clear: true }, ['unpause', 'nats']],
  ])('%s', (_n, args, want) => expect(composeFaultCommand(args)).toEqual(want));
});
