import { describe, expect, it } from 'vitest';
import { kubeletHealthzURL, parseHealthCheckerArgs, parseSystemdTimestamp, repairService, unhealthyOutput, type NodeCommand } from './health-checker.js';

const kubeletArgs = ['--component=kubelet', '--enable-repair=true', '--cooldown-time=1m', '--loopback-time=0', '--health-check-timeout=10s'];
const criArgs = ['--component=cri', '--enable-repair=true', '--cooldown-time=2m', '--cri-timeout=10s', '--health-check-timeout=60s'];

describe('health-checker (upstream health-checker-kubelet.json, health-checker-containerd.json)', () => {
  it.each([
    [kubeletArgs, 'kubelet:kubelet was found unhealthy; repair flag : true'],
    [criArgs, 'cri:containerd was found unhealthy; repair flag : true'],
    [['--component=kubelet', '--enable-repair=false'], 'kubelet:kubelet was found unhealthy; repair flag : false'],
  ])('%j prints %s when unhealthy', (args, line) => {
    expect(unhealthyOutput(parseHealthCheckerArgs(args))).toEqual({ exitStatus: 1, output: line });
  });

  it('checks the kubelet at HOST_ADDRESS:KUBELET_PORT, localhost:10248 by default', () => {
    expect(kubeletHealthzURL({})).toBe('http://localhost:10248/healthz');
    expect(kubeletHealthzURL({ HOST_ADDRESS: '127.0.0.1', KUBELET_PORT: '10250' })).toBe('http://127.0.0.1:10250/healthz');
  });

  it('reads systemd timestamps', () => {
    expect(parseSystemdTimestamp('Wed 2026-12-02 05:34:10 UTC')).toBe(Date.parse('2026-12-02T05:34:10Z'));
    expect(parseSystemdTimestamp('n/a')).toBeNaN();
  });

  describe('repair', () => {
    const o = parseHealthCheckerArgs(criArgs);
    const now = Date.parse('2026-12-02T06:00:00Z');
    const node = (started: string): { run: NodeCommand; calls: string[] } => {
      const calls: string[] = [];
      return {
        calls,
        run: async (cmd, args) => {
          calls.push([cmd, ...args].join(' '));
          return args[0] === 'show' ? `InactiveExitTimestamp=${started}` : '';
        },
      };
    };

    it('kills the main process of a service up longer than the cooldown', async () => {
      const n = node('Wed 2026-12-02 05:50:00 UTC');
      expect(await repairService(o, now, n.run)).toBe('cri cooldown period of 120000ms exceeded, repairing');
      expect(n.calls).toEqual(['systemctl show containerd --property=InactiveExitTimestamp', 'systemctl kill --kill-who=main containerd']);
    });

    it('repairs nothing without the node systemctl', async () => {
      expect(await repairService(o, now, undefined)).toBe('repair of containerd skipped: no node systemctl (KUBELAB_SYSTEMCTL)');
    });

    it('leaves a service alone within its cooldown', async () => {
      const n = node('Wed 2026-12-02 05:59:00 UTC');
      await repairService(o, now, n.run);
      expect(n.calls).toEqual(['systemctl show containerd --property=InactiveExitTimestamp']);
    });
  });
});
