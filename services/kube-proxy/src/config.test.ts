import { describe, expect, it } from 'vitest';
import { kubeProxyConfigMap, parseKubeProxyConfiguration, renderKubeProxyConfig } from './config.js';
import { parseKubeProxyCommand } from './options.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('KubeProxyConfiguration', () => {
  it('publishes config.conf with mode iptables and the cluster CIDR, and parses it back', () => {
    const text = renderKubeProxyConfig();
    expect(text).toContain('apiVersion: kubeproxy.config.k8s.io/v1alpha1\n');
    expect(text).toContain('kind: KubeProxyConfiguration\n');
    expect(text).toContain('mode: iptables\n');
    expect(text).toContain('clusterCIDR: 10.244.0.0/16\n');
    expect(text).toContain('  minSyncPeriod: 1s\n  syncPeriod: 30s\n');
    const cfg = parseKubeProxyConfiguration(text);
    expect(cfg.mode).toBe('iptables');
    expect(cfg.iptables).toEqual({ masqueradeAll: false, masqueradeBit: 14, minSyncPeriodMs: 1000, syncPeriodMs: 30_000, localhostNodePorts: true });
    expect(kubeProxyConfigMap({ mode: 'nftables' })).toMatchObject({
      metadata: { namespace: 'kube-system', name: 'kube-proxy' },
      data: { 'config.conf': expect.stringContaining('mode: nftables\n') },
    });
  });

  it('reads JSON too', () => {
    expect(parseKubeProxyConfiguration('{"apiVersion":"kubeproxy.config.k8s.io/v1alpha1","kind":"KubeProxyConfiguration","mode":"ipvs","ipvs":{"scheduler":"lc"}}')).toMatchObject({
      mode: 'ipvs',
      ipvs: { scheduler: 'lc' },
    });
  });

  it.each([
    ['mode: userspace', 'KubeProxyConfiguration.mode: Unsupported value: "userspace": supported values: "iptables", "ipvs", "nftables"'],
    ['kind: Pod', 'KubeProxyConfiguration.kind: Unsupported value: "Pod": supported values: "KubeProxyConfiguration"'],
    ['iptables:\n  syncPeriod: soon', 'KubeProxyConfiguration.iptables.syncPeriod: Invalid value: "soon": time: invalid duration "soon"'],
    ['iptables:\n  masqueradeBit: 40', 'KubeProxyConfiguration.iptables.masqueradeBit: Invalid value: 40: must be within the range [0, 31]'],
    ['iptables:\n  minSyncPeriod: 1m\n  syncPeriod: 30s', 'KubeProxyConfiguration.iptables.minSyncPeriod: Invalid value: "1m0s": must be less than or equal to iptables.syncPeriod'],
  ])('rejects %j naming the field', (text, msg) => {
    expect(() => parseKubeProxyConfiguration(text)).toThrow(msg);
  });

  it('takes the mode from --config, and an explicit --proxy-mode overrides it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kp-config-'));
    const file = join(dir, 'config.conf');
    writeFileSync(file, renderKubeProxyConfig({ mode: 'nftables' }));
    expect(parseKubeProxyCommand([`--config=${file}`, '--hostname-override=Node-1'], {}).config.mode).toBe('nftables');
    expect(parseKubeProxyCommand([`--config=${file}`, '--hostname-override=Node-1'], {}).nodeName).toBe('node-1');
    expect(parseKubeProxyCommand([`--config=${file}`, '--proxy-mode=ipvs'], {}).config.mode).toBe('ipvs');
    expect(parseKubeProxyCommand(['--proxy-mode', 'nftables', '--iptables-min-sync-period=2s'], {}).config).toMatchObject({ mode: 'nftables', nftables: { minSyncPeriodMs: 2000 } });
    expect(() => parseKubeProxyCommand(['--proxy-mode=kernelspace'], {})).toThrow('KubeProxyConfiguration.mode: Unsupported value: "kernelspace"');
  });
});
