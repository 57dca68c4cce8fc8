import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { composeExecArgs, isComposeStateDir, parseSshArgs } from './ssh.js';

describe('kubelab ssh for the compose stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-ssh-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['node-1', '--compose'], { node: 'node-1', compose: true, command: [] }],
    [['node-2', '--compose', '--', 'systemctl', 'status', 'kubelet'], { node: 'node-2', compose: true, command: ['systemctl', 'status', 'kubelet'] }],
    [['node-1', 'crictl', 'ps'], { node: 'node-1', compose: false, command: ['crictl', 'ps'] }],
  ])('parses %j', (argv, want) => expect(parseSshArgs(argv)).toMatchObject(want));

  it.each([
    [
      ['node-1', [], true],
      ['exec', 'node-1', 'bash'],
    ],
    [
      ['node-1', [], false],
      ['exec', '-T', 'node-1', 'bash'],
    ],
    [
      ['node-2', ['journalctl', '-u', 'kubelet', '-n', '5'], false],
      ['exec', '-T', 'node-2', 'bash', '-c', 'journalctl -u kubelet -n 5'],
    ],
  ] as const)('docker compose %j', ([node, command, tty], want) => expect(composeExecArgs(node, [...command], tty)).toEqual(want));

  it("knows the compose stack's state dir (cluster.json, no nodes/) from the runner's", () => {
    const compose = join(dir, 'compose');
    const local = join(dir, 'local');
    mkdirSync(compose);
    mkdirSync(join(local, 'nodes'), { recursive: true });
    for (const d of [compose, local]) writeFileSync(join(d, 'cluster.json'), '{}');
    expect([isComposeStateDir(compose), isComposeStateDir(local), isComposeStateDir(join(dir, 'none'))]).toEqual([true, false, false]);
  });
});
