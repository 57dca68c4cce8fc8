// KUBELAB_CPU_PROFILE=<file>: a CPU profile of this process from start to
// shutdown (the hollow-node benchmark's look at where a worker's time goes;
// NODE_OPTIONS does not take --cpu-prof).

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

export function startCpuProfile(file: string | undefined): () => Promise<void> {
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) => new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  const started = post('Profiler.enable').then(() => post('Profiler.start'));
  return async () => {
    await started;
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
