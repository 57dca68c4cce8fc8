import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_DIR, parseCustomPluginConfig } from '../config.js';
import { countMatches, logCounterVerdict, parseLogCounterArgs } from './log-counter.js';

const cfg = parseCustomPluginConfig(readFileSync(join(DEFAULT_CONFIG_DIR, 'systemd-monitor-counter.json'), 'utf8'));
const args = (condition: string) => parseLogCounterArgs(cfg.rules.find((r) => r.condition === condition)!.args);
const lines = (...messages: string[]) => messages.map((message, i) => ({ timestamp: i, message }));

const STARTED = 'Started kubelet.service - kubelet: The Kubernetes Node Agent.';
const STOPPING = 'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...';

describe('log-counter (upstream systemd-monitor-counter.json)', () => {
  it('reads upstream arguments', () => {
    expect(args('FrequentKubeletRestart')).toEqual({
      journaldSource: 'systemd',
      lookbackMs: 20 * 60_000,
      delayMs: 5 * 60_000,
      pattern: 'Started (Kubernetes kubelet|kubelet.service|kubelet.service - .*).',
      revertPattern: 'Stopping (Kubernetes kubelet|kubelet.service|kubelet.service - .*)...',
      count: 5,
    });
  });

  it.each([
    ['five crash restarts of the kubelet', 'FrequentKubeletRestart', lines(STARTED, STARTED, STARTED, STARTED, STARTED), 5],
    ['restarts asked for (Stopping before Started) do not count', 'FrequentKubeletRestart', lines(STOPPING, STARTED, STOPPING, STARTED, STARTED), 1],
    ['other units do not count', 'FrequentKubeletRestart', lines('Started containerd.service - containerd container runtime.'), 0],
    ['containerd starting', 'FrequentContainerdRestart', lines(...Array(6).fill('Starting containerd.service - containerd container runtime...')), 6],
  ])('%s', (_name, condition, input, want) => {
    const o = args(condition);
    expect(countMatches(input, o.pattern, o.revertPattern)).toBe(want);
  });

  it('prints upstream verdict at the threshold', () => {
    expect(logCounterVerdict(5, 5)).toEqual({ exitStatus: 1, output: 'Found 5 matching logs, which meets the threshold of 5' });
    expect(logCounterVerdict(4, 5)).toEqual({ exitStatus: 0, output: '' });
  });
});
