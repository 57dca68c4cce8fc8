import { afterEach, describe, expect, it } from 'vitest';
import { startProcess, type StartedProcess } from './testing/process.js';

let s: StartedProcess | undefined;
afterEach(() => s?.p.kill());

const POD = {
  '/etc/os-release': 'NAME="BusyBox"\nID=busybox\n',
  '/etc/hostname': 'web-0\n',
  '/etc/hosts': '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n10.244.1.5\tweb-0\n',
};
const start = (argv: string[], network = false) => startProcess(argv, { programs: ['ip', 'ifconfig', 'netstat', 'nginx'], files: POD, network });
const exec = async (cmd: string[]) => s!.p.execSync(cmd, 5000);

describe("a pod's network as busybox shows it", () => {
  it('ip addr: lo and eth0 with the pod IP/24, the bridge plugin MAC and the VXLAN MTU', async () => {
    s = start(['sleep', '3600']);
    const out = (await exec(['ip', 'addr'])).stdout;
    expect(out).toContain('1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n');
    expect(out).toMatch(
      /\n2: eth0@if\d+: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 1450 qdisc noqueue \n {4}link\/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff\n {4}inet 10\.244\.1\.5\/24 brd 10\.244\.1\.255 scope global eth0\n/,
    );
    expect((await exec(['ip', 'a'])).stdout).toBe(out);
    expect((await exec(['ip', 'route'])).stdout).toBe('default via 10.244.1.1 dev eth0 \n10.244.1.0/24 dev eth0 scope link  src 10.244.1.5 \n');
    expect(await exec(['ip', 'bogus'])).toMatchObject({ exitCode: 1, stderr: "ip: unknown command or invalid argument 'bogus'\n" });
  });

  it('ifconfig and hostname -i', async () => {
    s = start(['sleep', '3600']);
    const out = (await exec(['ifconfig'])).stdout;
    expect(out).toMatch(
      /^eth0 {6}Link encap:Ethernet {2}HWaddr 0A:58:0A:F4:01:05 {2}\n {10}inet addr:10\.244\.1\.5 {2}Bcast:10\.244\.1\.255 {2}Mask:255\.255\.255\.0\n {10}UP BROADCAST RUNNING MULTICAST {2}MTU:1450 {2}Metric:1\n/,
    );
    expect(out).toContain('\nlo        Link encap:Local Loopback  \n          inet addr:127.0.0.1  Mask:255.0.0.0\n');
    expect(await exec(['ifconfig', 'eth1'])).toMatchObject({ exitCode: 1, stderr: 'ifconfig: eth1: error fetching interface information: Device not found\n' });
    expect((await exec(['hostname'])).stdout).toBe('web-0\n');
    expect((await exec(['hostname', '-i'])).stdout).toBe('10.244.1.5 \n');
  });

  it("netstat -tln lists the ports the container's programs listen on", async () => {
    s = start(['nginx', '-g', 'daemon off;'], true);
    for (let i = 0; i < 50 && !s.ports.has(80); i++) await new Promise((r) => setTimeout(r, 10));
    expect((await exec(['netstat', '-tln'])).stdout).toBe(
      'Active Internet connections (only servers)\n' +
        'Proto Recv-Q Send-Q Local Address           Foreign Address         State       \n' +
        'tcp        0      0 0.0.0.0:80              0.0.0.0:*               LISTEN      \n',
    );
    expect((await exec(['netstat', '-uln'])).stdout).toBe('Active Internet connections (only servers)\nProto Recv-Q Send-Q Local Address           Foreign Address         State       \n');
    expect((await exec(['netstat', '-tn'])).stdout).toBe('Active Internet connections (w/o servers)\nProto Recv-Q Send-Q Local Address           Foreign Address         State       \n');
  });
});
