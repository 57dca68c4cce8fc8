// @ts-check
// The load loop the apiserver benches share: `total` jobs, `inflight` at a time.

/**
 * Runs `total` jobs with `inflight` at a time; returns jobs/s. Each job's latency (ms) is pushed to `latencies` if given.
 * @param {number} total @param {number} inflight @param {(i: number) => Promise<unknown>} job @param {number[]} [latencies]
 */
export async function pump(total, inflight, job, latencies) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next < total) {
        const start = performance.now();
        await job(next++);
        latencies?.push(performance.now() - start);
      }
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}
