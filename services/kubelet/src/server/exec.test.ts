import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import type { Kubelet } from '../kubelet.js';
import { CriClientError } from '../kuberuntime/cri.js';
import { execOptions, serveAttach, serveExec, streamOptions } from './exec.js';

describe('execOptions (the kubelet /exec query)', () => {
  it.each([
    ['command=ls&output=1&error=1', { ok: true, cmd: ['ls'], stdin: false, stdout: true, stderr: true, tty: false }],
    ['command=sh&input=1&output=1&error=1&tty=1', { ok: true, cmd: ['sh'], stdin: true, stdout: true, stderr: false, tty: true }],
    ['command=sh&command=-c&command=exit%203&output=1', { ok: true, cmd: ['sh', '-c', 'exit 3'], stdin: false, stdout: true, stderr: false, tty: false }],
    ['command=ls', { ok: false, message: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['output=1', { ok: false, message: 'you must specify at least one command for the container' }],
  ])('%s', (query, want) => expect(execOptions(new URLSearchParams(query))).toEqual(want));
});

describe('streamOptions (the kubelet /attach query: no command)', () => {
  it.each([
    ['input=1&output=1&tty=1', { ok: true, stdin: true, stdout: true, stderr: false, tty: true }],
    ['output=1&error=1', { ok: true, stdin: false, stdout: true, stderr: true, tty: false }],
    ['tty=1', { ok: false, message: 'you must specify at least 1 of stdin, stdout, stderr' }],
  ])('%s', (query, want) => expect(streamOptions(new URLSearchParams(query))).toEqual(want));
});

describe('serveExec / serveAttach: the kubelet answers before any stream', () => {
  const pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: {
      containers: [
        { name: 'app', image: 'busybox', tty: true },
        { name: 'idle', image: 'busybox' },
      ],
    },
  } as unknown as Pod;
  const asked: unknown[] = [];
  const kubelet = (rt: Partial<Record<'exec' | 'attach', (r: unknown) => Promise<string>>>) =>
    ({
      findPod: (ns: string, name: string) => (ns === 'default' && name === 'web' ? { uid: 'u1', pod } : undefined),
      runtimeManager: {
        getPodStatus: async () => ({
          containers: [
            { name: 'app', id: 'c-app', state: 'running' },
            { name: 'idle', id: 'c-idle', state: 'exited' },
          ],
        }),
      },
      rt,
    }) as unknown as Kubelet;
  const failing = async (r: unknown) => {
    asked.push(r);
    throw new CriClientError('NotFound', 'no such container');
  };
  const answer = async (serve: typeof serveExec, k: Kubelet, path: string, upgrade = true) => {
    const out = { code: 0, body: '' };
    const req = { headers: upgrade ? { connection: 'Upgrade', upgrade: 'websocket' } : {} } as unknown as IncomingMessage;
    const res = { writeHead: (code: number) => void (out.code = code), end: (body: string) => void (out.body = body), headersSent: false } as unknown as ServerResponse;
    await serve(k, req, res, new URL(`http://node${path}`));
    return out;
  };

  it.each([
    ['/exec/default/web/app?command=ls&output=1', false, 400, 'unable to upgrade: missing upgrade headers in request'],
    ['/exec/default/web/app?output=1', true, 400, 'you must specify at least one command for the container'],
    ['/exec/default/nope/app?command=ls&output=1', true, 404, 'pod does not exist'],
    ['/exec/default/web/idle?command=ls&output=1', true, 500, 'container not found ("idle")'],
    ['/exec/default/web/app?command=ls&output=1', true, 404, 'rpc error: code = NotFound desc = no such container'],
  ])('exec %s (upgrade %s) → %i %s', async (path, upgrade, code, body) => {
    expect(await answer(serveExec, kubelet({ exec: failing }), path, upgrade)).toEqual({ code, body });
  });

  it.each([
    ['/attach/default/web/app?output=1', false, 400, 'unable to upgrade: missing upgrade headers in request'],
    ['/attach/default/web/app', true, 400, 'you must specify at least 1 of stdin, stdout, stderr'],
    ['/attach/default/nope/app?output=1', true, 404, 'pod does not exist'],
    ['/attach/default/web/idle?output=1', true, 500, 'container idle not found in pod web_default'],
    ['/attach/default/web/app?output=1&error=1', true, 404, 'rpc error: code = NotFound desc = no such container'],
  ])('attach %s (upgrade %s) → %i %s', async (path, upgrade, code, body) => {
    expect(await answer(serveAttach, kubelet({ attach: failing }), path, upgrade)).toEqual({ code, body });
  });

  it('asks the runtime with the running container and, for attach, the tty of the spec', async () => {
    asked.length = 0;
    await answer(serveExec, kubelet({ exec: failing }), '/exec/default/web/app?command=ls&input=1&output=1&error=1');
    await answer(serveAttach, kubelet({ attach: failing }), '/attach/default/web/app?output=1&error=1');
    expect(asked).toEqual([
      { containerId: 'c-app', cmd: ['ls'], tty: false, stdin: true, stdout: true, stderr: true },
      { containerId: 'c-app', tty: true, stdin: false, stdout: true, stderr: false },
    ]);
  });

  it('a runtime without Exec or Attach says so', async () => {
    expect(await answer(serveExec, kubelet({}), '/exec/default/web/app?command=ls&output=1')).toEqual({ code: 500, body: 'the container runtime does not implement Exec' });
    expect(await answer(serveAttach, kubelet({}), '/attach/default/web/app?output=1')).toEqual({ code: 500, body: 'the container runtime does not implement Attach' });
  });
});
