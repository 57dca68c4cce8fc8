import { ROOT_CONTEXT, type Context } from '@kubelab/tracing';
import { describe, expect, it } from 'vitest';
import { CriClientError, type RuntimeService } from './cri.js';
import { instrumentRuntime } from './instrumented.js';

type Call = [operation: string, seconds: number, failed: boolean];

function fakeRuntime(): RuntimeService {
  return {
    execSync: async (_id: string, cmd: string[]) => ({ stdout: Buffer.from(''), stderr: Buffer.from(''), exitCode: cmd[0] === 'false' ? 1 : 0 }),
    startContainer: async (id: string) => {
      if (id === 'gone') throw new CriClientError('NotFound', `container "${id}" not found`);
    },
    listPodSandbox: async () => [],
    close: () => {},
  } as unknown as RuntimeService;
}

describe('instrumentRuntime', () => {
  const setup = () => {
    const calls: Call[] = [];
    let t = 0;
    const rt = instrumentRuntime(
      fakeRuntime(),
      (...c) => calls.push(c),
      () => (t += 250),
    );
    return { rt, calls };
  };

  it('counts each call under its upstream operation_type with its duration', async () => {
    const { rt, calls } = setup();
    await rt.listPodSandbox();
    await rt.startContainer('c1');
    expect(calls).toEqual([
      ['list_podsandbox', 0.25, false],
      ['start_container', 0.25, false],
    ]);
  });

  it('counts a failed call as an error and still rethrows it', async () => {
    const { rt, calls } = setup();
    await expect(rt.startContainer('gone')).rejects.toThrow('container "gone" not found');
    expect(calls).toEqual([['start_container', 0.25, true]]);
  });

  it('counts an ExecSync with a non-zero exit code as an error, as upstream', async () => {
    const { rt, calls } = setup();
    expect((await rt.execSync('c1', ['false'], 1)).exitCode).toBe(1);
    expect((await rt.execSync('c1', ['true'], 1)).exitCode).toBe(0);
    expect(calls).toEqual([
      ['exec_sync', 0.25, true],
      ['exec_sync', 0.25, false],
    ]);
  });

  it("a traced view (a sync's calls under its span) is counted too, and its calls reach the view", async () => {
    const calls: Call[] = [];
    const reached: string[] = [];
    const ctx = ROOT_CONTEXT.setValue(Symbol('sync'), 'pod-a');
    const base = {
      ...fakeRuntime(),
      startContainer: async (id: string) => void reached.push(`base:${id}`),
      withTraceContext: (c: Context) => ({ ...base, startContainer: async (id: string) => void reached.push(`view(${c === ctx}):${id}`) }),
    } as unknown as RuntimeService;
    const rt = instrumentRuntime(
      base,
      (...c) => calls.push(c),
      () => 0,
    );
    await rt.withTraceContext!(ctx).startContainer('c1');
    await rt.startContainer('c2');
    expect(reached).toEqual(['view(true):c1', 'base:c2']);
    expect(calls).toEqual([
      ['start_container', 0, false],
      ['start_container', 0, false],
    ]);
    expect(instrumentRuntime(fakeRuntime(), () => {}).withTraceContext).toBeUndefined();
  });

  it('leaves methods without an operation type untouched', () => {
    const { rt, calls } = setup();
    rt.close();
    expect(calls).toEqual([]);
  });
});
