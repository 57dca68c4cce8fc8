import { describe, expect, it } from 'vitest';
import { parsePodCidr } from './ipam.js';
import { podRangeRefusal } from './pod-range.js';

describe('podRangeRefusal', () => {
  it.each([
    ['loopback mode takes any range', '10.244.1.0/24', 'loopback', [], false],
    ['pod-ip: the fallback range', '127.88.0.0/16', 'pod-ip', [], false],
    ['pod-ip: another loopback range', '127.10.0.0/24', 'pod-ip', [], false],
    ['pod-ip: a routed range on the host', '10.244.1.0/24', 'pod-ip', ['127.0.0.1', '192.168.1.20'], true],
    ['pod-ip: a range whose addresses are on this namespace', '10.244.1.0/24', 'pod-ip', ['127.0.0.1', '10.244.1.1'], false],
    ['pod-ip: only the network address is no pod address', '10.244.1.0/24', 'pod-ip', ['10.244.1.0'], true],
    ['pod-ip: the range just below loopback', '126.0.0.0/8', 'pod-ip', [], true],
  ] as const)('%s', (_name, text, mode, local, refused) => {
    const refusal = podRangeRefusal(parsePodCidr(text)!, text, mode, [...local]);
    expect(refusal !== undefined).toBe(refused);
    if (refused)
      expect(refusal).toBe(
        `pod CIDR ${text} is not a loopback range and none of its addresses is on this network namespace's interfaces: pod IPs bound here would be routed off the machine; use a loopback range such as 127.88.0.0/16`,
      );
  });
});
