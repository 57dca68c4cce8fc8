import { describe, expect, it } from 'vitest';
import { parseApiserverOverride, parseNpdCommand } from './options.js';

describe('node-problem-detector flags (upstream cmd/options)', () => {
  it('takes upstream defaults', () => {
    const c = parseNpdCommand(['--config.system-log-monitor=/config/kernel-monitor.json,/config/readonly-monitor.json'], { NODE_NAME: 'node-1' });
    expect(c).toMatchObject({
      systemLogMonitors: ['/config/kernel-monitor.json', '/config/readonly-monitor.json'],
      customPluginMonitors: [],
      nodeName: 'node-1',
      nodeRoot: '/',
      enableK8sExporter: true,
      eventNamespace: '',
      heartbeatPeriodMs: 5 * 60_000,
      apiserverWaitTimeoutMs: 5 * 60_000,
      serverAddress: '127.0.0.1',
      serverPort: 20256,
      prometheusAddress: '127.0.0.1',
      prometheusPort: 20257,
    });
  });

  it('names the node by --hostname-override, then NODE_NAME, then KUBELAB_NODE_NAME', () => {
    const flags = ['--config.custom-plugin-monitor=/c.json'];
    expect(parseNpdCommand([...flags, '--hostname-override=node-2'], { NODE_NAME: 'node-1' }).nodeName).toBe('node-2');
    expect(parseNpdCommand(flags, { KUBELAB_NODE_NAME: 'node-3', KUBELAB_NODE_ROOT: '/tmp/n3' })).toMatchObject({ nodeName: 'node-3', nodeRoot: '/tmp/n3' });
  });

  it('refuses to start without a monitor, as upstream', () => {
    expect(() => parseNpdCommand([], {})).toThrow('No configuration option for any problem daemon is specified.');
  });

  it('reads the apiserver address and identity from --apiserver-override', () => {
    expect(parseApiserverOverride('https://10.0.0.1:6444?inClusterConfig=false&kubeconfig=/etc/kubernetes/npd.conf')).toEqual({ address: '10.0.0.1:6444', kubeconfig: '/etc/kubernetes/npd.conf' });
    expect(() => parseApiserverOverride('::bad')).toThrow('apiserver-override "::bad" is not a valid HTTP URI');
  });
});
