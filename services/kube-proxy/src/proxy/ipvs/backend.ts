// The IPVS backend (upstream pkg/proxy/ipvs proxier's sync apply): the
// kube-ipvs0 dummy interface, its addresses and the virtual servers, by ip
// and ipvsadm commands; always a full sync.

import { existsSync } from 'node:fs';
import type { ApplyReport, Backend, Rendered } from '../backend.js';
import { mustRun, probeCommand, type CommandRunner } from '@kubelab/component-base';
import type { ProxyConfig, ProxySnapshot } from '../types.js';
import { renderIpvs, toIpvsCommands, toIpvsadmList, type IpvsRuleset } from './renderer.js';

function ipvsRendered(rs: IpvsRuleset): Rendered {
  return {
    mode: 'ipvs',
    text: toIpvsadmList(rs),
    script:
      toIpvsCommands(rs)
        .map((c) => c.join(' '))
        .join('\n') + '\n',
    ruleCount: rs.ruleCount,
  };
}

export class IpvsBackend implements Backend {
  readonly mode = 'ipvs' as const;
  lastApply: ApplyReport | undefined;

  async probe(runner: CommandRunner) {
    if (!existsSync('/proc/net/ip_vs')) return 'IPVS is not available in this kernel (/proc/net/ip_vs is missing; modprobe ip_vs needs a kernel with IPVS)';
    return probeCommand(runner, ['ipvsadm', '-Ln']);
  }

  render(snap: ProxySnapshot, cfg: ProxyConfig): Rendered {
    return ipvsRendered(renderIpvs(snap, cfg));
  }

  async apply(runner: CommandRunner, snap: ProxySnapshot, cfg: ProxyConfig): Promise<Rendered> {
    const rs = renderIpvs(snap, cfg);
    const cmds = toIpvsCommands(rs);
    for (const cmd of cmds) {
      const res = await runner.run(cmd);
      // The dummy interface and its addresses survive from the previous sync.
      if (res.code !== 0 && !/File exists/.test(res.stderr)) await mustRun(runner, cmd);
    }
    this.lastApply = { full: true, unitsWritten: rs.virtualServers.length, transactions: cmds.length, staleChains: 0 };
    return ipvsRendered(rs);
  }

  readBack(runner: CommandRunner) {
    return mustRun(runner, ['ipvsadm', '-Ln']);
  }
}
