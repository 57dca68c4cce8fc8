import { ROOT_CONTEXT } from '@kubelab/tracing';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import { FakeRuntimeService, type FakeRuntimeOptions } from '../testing/fake-runtime.js';
import { LABEL_CONTAINER_NAME } from './cri.js';
import { instrumentRuntime } from './instrumented.js';

type Call = [operation: string, seconds: number, failed: boolean];

/** The in-memory runtime with one container (named app) to call; `false` exits 1 in it. */
async function fakeRuntime(opts: FakeRuntimeOptions = {}): Promise<{ fake: FakeRuntimeService; id: string }> {
  const fake = new FakeRuntimeService(new FakeClock(), opts);
  const sandbox = await fake.runPodSandbox({
    metadata: { name: 'web', namespace: 'default', uid: 'u1', attempt: 0 },
    hostname: 'web',
    logDirectory: '',
    portMappings: [],
    labels: {},
    annotations: {},
  });
  const id = await fake.createContainer(sandbox, {
    metadata: { name: 'app', attempt: 0 },
    image: { image: 'busybox:1.36' },
    command: [],
    args: [],
    workingDir: '',
    envs: [],
    labels: { [LABEL_CONTAINER_NAME]: 'app' },
    annotations: {},
    logPath: '',
    stdin: false,
    tty: false,
  });
  fake.execExitCodes.set('false', 1);
  fake.calls.length = 0;
  fake.callContexts.length = 0;
  return { fake, id };
}

describe('instrumentRuntime', () => {
  const setup = async () => {
    const calls: Call[] = [];
    let t = 0;
    const { fake, id } = await fakeRuntime();
    const rt = instrumentRuntime(
      fake,
      (...c) => calls.push(c),
      () => (t += 250),
    );
    return { rt, calls, id };
  };

  it('counts each call under its upstream operation_type with its duration', async () => {
    const { rt, calls, id } = await setup();
    await rt.listPodSandbox();
    await rt.startContainer(id);
    expect(calls).toEqual([
      ['list_podsandbox', 0.25, false],
      ['start_container', 0.25, false],
    ]);
  });

  it('counts a failed call as an error and still rethrows it', async () => {
    const { rt, calls } = await setup();
    await expect(rt.startContainer('gone')).rejects.toThrow('container "gone": not found');
    expect(calls).toEqual([['start_container', 0.25, true]]);
  });

  it('counts an ExecSync with a non-zero exit code as an error, as upstream', async () => {
    const { rt, calls, id } = await setup();
    expect((await rt.execSync(id, ['false'], 1)).exitCode).toBe(1);
    expect((await rt.execSync(id, ['true'], 1)).exitCode).toBe(0);
    expect(calls).toEqual([
      ['exec_sync', 0.25, true],
      ['exec_sync', 0.25, false],
    ]);
  });

  it("a traced view (a sync's calls under its span) is counted too, and its calls reach the view", async () => {
    const calls: Call[] = [];
    const ctx = ROOT_CONTEXT.setValue(Symbol('sync'), 'pod-a');
    const { fake: base, id } = await fakeRuntime({ traced: true });
    const rt = instrumentRuntime(
      base,
      (...c) => calls.push(c),
      () => 0,
    );
    await rt.withTraceContext!(ctx).startContainer(id);
    await rt.stopContainer(id, 0);
    const reached = base.calls.map((c, i) => `${base.callContexts[i] ? `view(${base.callContexts[i] === ctx})` : 'base'}:${c}`);
    expect(reached).toEqual(['view(true):StartContainer app', 'base:StopContainer app']);
    expect(calls).toEqual([
      ['start_container', 0, false],
      ['stop_container', 0, false],
    ]);
    expect(instrumentRuntime((await fakeRuntime()).fake, () => {}).withTraceContext).toBeUndefined();
  });

  it('leaves methods without an operation type untouched', async () => {
    const { rt, calls } = await setup();
    rt.close();
    expect(calls).toEqual([]);
  });
});
