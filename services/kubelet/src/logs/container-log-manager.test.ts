import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import { createLogger } from '@kubelab/component-base';
import { ContainerLogManager, planRotatedFiles, rotationTimestamp } from './container-log-manager.js';
import { logRotatePolicy } from '../kubelet-config.js';

describe('rotation decisions', () => {
  it('stamps rotated files with Go layout 20060102-150405 (UTC)', () => {
    expect(rotationTimestamp(Date.UTC(2026, 11, 1, 13, 33, 5))).toBe('20261201-133305');
  });

  it.each([
    ['nothing rotated yet', [], 5, { remove: [], compress: [] }],
    ['one rotated: kept uncompressed (the runtime may still write it)', ['0.log.20261201-100000'], 5, { remove: [], compress: [] }],
    ['older ones compressed, the newest left as is', ['0.log.20261201-100000.gz', '0.log.20261201-110000', '0.log.20261201-120000'], 5, { remove: [], compress: ['0.log.20261201-110000'] }],
    [
      'beyond maxFiles-2 the oldest go',
      ['0.log.20261201-120000', '0.log.20261201-100000.gz', '0.log.20261201-110000.gz', '0.log.20261201-090000.gz'],
      5,
      { remove: ['0.log.20261201-090000.gz'], compress: [] },
    ],
    ['maxFiles 2 keeps no rotated file', ['0.log.20261201-100000'], 2, { remove: ['0.log.20261201-100000'], compress: [] }],
  ])('%s', (_name, rotated, maxFiles, want) => {
    expect(planRotatedFiles(rotated, maxFiles)).toEqual(want);
  });

  it.each([
    [{}, { maxSizeBytes: 10 * 1024 * 1024, maxFiles: 5 }],
    [
      { containerLogMaxSize: '1Ki', containerLogMaxFiles: 2 },
      { maxSizeBytes: 1024, maxFiles: 2 },
    ],
  ])('policy %j', (c, want) => {
    expect(logRotatePolicy(c)).toEqual(want);
  });
  it('rejects what upstream validation rejects', () => {
    expect(() => logRotatePolicy({ containerLogMaxFiles: 1 })).toThrow('invalid configuration: containerLogMaxFiles (--container-log-max-files) 1 must be greater than 1');
    expect(() => logRotatePolicy({ containerLogMaxSize: 'ten' })).toThrow('invalid configuration: containerLogMaxSize (--container-log-max-size) ten must be a valid resource quantity');
  });
});

describe('ContainerLogManager', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubelab-logrotate-'));
    mkdirSync(join(dir, 'web'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A runtime with one running container whose log is dir/web/0.log; reopen makes a new empty file as the runtime would. */
  const runtime = (state = 'CONTAINER_RUNNING') => {
    const logPath = join(dir, 'web', '0.log');
    const reopened: string[] = [];
    const rt = {
      listContainers: async () => [{ id: 'c1', state }] as never,
      containerStatus: async () => ({ logPath }) as never,
      reopenContainerLog: async (id: string) => {
        reopened.push(id);
        writeFileSync(logPath, '');
      },
    };
    return { rt, logPath, reopened };
  };

  it('rotates a log over the limit, compresses the older, keeps at most maxFiles and reopens the runtime log', async () => {
    const { rt, logPath, reopened } = runtime();
    const clock = new FakeClock(Date.UTC(2026, 11, 1, 13, 0, 0));
    const m = new ContainerLogManager({ rt, clock, policy: { maxSizeBytes: 100, maxFiles: 4 }, log: createLogger({ component: 't', level: 'error', write: () => {} }) });
    for (let i = 0; i < 4; i++) {
      writeFileSync(logPath, `round ${i} `.padEnd(200, 'x'));
      await m.rotateLogs();
      await clock.advance(60_000);
    }
    // Under the limit: left alone.
    writeFileSync(logPath, 'small');
    await m.rotateLogs();
    expect(reopened).toEqual(['c1', 'c1', 'c1', 'c1']);
    const files = readdirSync(join(dir, 'web')).sort();
    // maxFiles 4: the live log, the newest rotated one as written, the one before it compressed; the oldest is gone.
    expect(files).toEqual(['0.log', '0.log.20261201-130100.gz', '0.log.20261201-130200', '0.log.20261201-130300']);
    expect(gunzipSync(readFileSync(join(dir, 'web', '0.log.20261201-130100.gz'))).toString()).toMatch(/^round 1 x+$/);
    expect(readFileSync(join(dir, 'web', '0.log.20261201-130300'), 'utf8')).toMatch(/^round 3 /);
    expect(statSync(logPath).size).toBe(5);
  });

  it.each([
    ['asks the runtime once per container', undefined, 1],
    ['asks nothing when the kubelet knows the path', () => join(dir, 'web', '0.log'), 0],
  ])("%s for the log's path, not on every pass", async (_name, knownLogPath, asked) => {
    const { rt, logPath, reopened } = runtime();
    let statusCalls = 0;
    const counted = { ...rt, containerStatus: async () => (statusCalls++, rt.containerStatus()) };
    const m = new ContainerLogManager({
      rt: counted,
      clock: new FakeClock(0),
      policy: { maxSizeBytes: 100, maxFiles: 5 },
      log: createLogger({ component: 't', level: 'error', write: () => {} }),
      ...(knownLogPath ? { knownLogPath } : {}),
    });
    for (let i = 0; i < 3; i++) {
      writeFileSync(logPath, 'x'.repeat(200));
      await m.rotateLogs();
    }
    expect(reopened).toEqual(['c1', 'c1', 'c1']);
    expect(statusCalls).toBe(asked);
  });

  it('puts the log back when the runtime cannot reopen it', async () => {
    const { rt, logPath } = runtime();
    rt.reopenContainerLog = async () => {
      throw new Error('container is not running');
    };
    writeFileSync(logPath, 'x'.repeat(200));
    const errors: string[] = [];
    const m = new ContainerLogManager({ rt, clock: new FakeClock(0), policy: { maxSizeBytes: 100, maxFiles: 5 }, log: createLogger({ component: 't', format: 'text', write: (l) => errors.push(l) }) });
    await m.rotateLogs();
    expect(readdirSync(join(dir, 'web'))).toEqual(['0.log']);
    expect(errors[0]).toMatch(/"Failed to rotate log for container" err="container is not running" containerID="c1"$/);
  });
});
