import { describe, expect, it } from 'vitest';
import { configFromFlags, controllerManagerFlags, defaultConfig } from './options.js';

describe('kube-controller-manager --time-scale (kubelab)', () => {
  it.each([
    [[], {}, 1],
    [['--time-scale=10'], {}, 10],
    [[], { KUBELAB_TIME_SCALE: '5' }, 5],
  ] as const)('%j %j → %d', (argv, env, want) => {
    expect(configFromFlags(controllerManagerFlags().parse([...argv], { ...env }).values).timeScale).toBe(want);
  });

  it.each(['0', '-2'])('refuses %s with the flag error', (v) => {
    expect(() => configFromFlags(controllerManagerFlags().parse([`--time-scale=${v}`], {}).values)).toThrow(`invalid argument "${Number(v)}" for "--time-scale" flag: must be a positive number`);
  });

  it('defaults to wall time', () => {
    expect(defaultConfig().timeScale).toBe(1);
  });
});
