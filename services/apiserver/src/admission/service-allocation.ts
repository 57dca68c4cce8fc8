// ClusterIP and NodePort allocation for Services (upstream does this in the
// service REST storage with bitmap allocators persisted in etcd). Here the
// allocated set is derived from the stored Services in the watch cache plus
// in-flight reservations, so it survives restarts and frees on delete
// without a second source of truth.

import { formatIpv4, internalError, invalid, type FieldError, type KubeObject } from '@kubelab/api';
import { offsetInRange, pickFreeOffset, type Cidr, type PortRange } from './ipalloc.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

interface ServicePort {
  name?: string;
  port?: number;
  protocol?: string;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean;
}

type Service = KubeObject & { spec?: ServiceSpec };

export interface ServiceAllocatorDeps {
  serviceRange: Cidr;
  nodePortRange: PortRange;
  /** Every stored Service (from the watch cache). */
  services(): Iterable<KubeObject>;
  /** Resolves once the cache has applied `rev` (then the reservation is visible there). */
  waitForRev(rev: number): Promise<void>;
  /** Resolves once the cache shows every write this apiserver acknowledged (undefined: it does already). */
  ownWritesApplied(): Promise<void> | undefined;
}

const needsNodePorts = (t: string | undefined) => t === 'NodePort' || t === 'LoadBalancer';
/** Only a LoadBalancer with externalTrafficPolicy Local gets a health check port (apiservice.NeedsHealthCheck). */
const needsHealthCheck = (spec: ServiceSpec | undefined) => spec?.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
/** A LoadBalancer with allocateLoadBalancerNodePorts false keeps only the node ports its user asked for. */
const allocatesNodePorts = (spec: ServiceSpec) => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);

export class ServiceAllocator implements AdmissionPlugin {
  readonly name = 'ServiceIPAllocation';
  private readonly pendingIps = new Set<string>();
  private readonly pendingPorts = new Set<number>();

  constructor(private readonly deps: ServiceAllocatorDeps) {}

  private usedIps(): Set<string> {
    const s = new Set(this.pendingIps);
    for (const svc of this.deps.services()) for (const ip of (svc as Service).spec?.clusterIPs ?? []) s.add(ip);
    return s;
  }

  private usedPorts(): Set<number> {
    const s = new Set(this.pendingPorts);
    for (const svc of this.deps.services()) {
      const spec = (svc as Service).spec;
      for (const p of spec?.ports ?? []) if (p.nodePort) s.add(p.nodePort);
      // Health check ports come from the same node port range (upstream's one allocator).
      if (spec?.healthCheckNodePort) s.add(spec.healthCheckNodePort);
    }
    return s;
  }

  admit(a: AdmissionAttributes): void | Promise<void> {
    if (a.info.resource !== 'services' || a.info.group !== '' || a.subresource || !a.object) return;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    // The used set comes from the cache: a Service this apiserver just deleted
    // must be gone from it first, or its IP and ports still look taken
    // (upstream releases them in the delete itself).
    const behind = this.deps.ownWritesApplied();
    return behind ? behind.then(() => this.allocate(a)) : this.allocate(a);
  }

  private allocate(a: AdmissionAttributes): void {
    const svc = a.object as Service;
    const old = a.oldObject as Service | undefined;
    svc.spec ??= {};
    const spec = svc.spec;
    const errs: FieldError[] = [];
    const reservedIps: string[] = [];
    const reservedPorts: number[] = [];
    const release = () => {
      for (const ip of reservedIps) this.pendingIps.delete(ip);
      for (const p of reservedPorts) this.pendingPorts.delete(p);
    };

    if (old?.spec) {
      // Allocated values carry over when an update leaves them out (upstream: patchAllocatedValues).
      if (!spec.clusterIP && old.spec.clusterIP) spec.clusterIP = old.spec.clusterIP;
      if (!spec.clusterIPs && old.spec.clusterIPs) spec.clusterIPs = old.spec.clusterIPs;
      if (!spec.ipFamilies && old.spec.ipFamilies) spec.ipFamilies = old.spec.ipFamilies;
      if (!spec.ipFamilyPolicy && old.spec.ipFamilyPolicy) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
      if (needsNodePorts(spec.type) && needsNodePorts(old.spec.type)) {
        for (const p of spec.ports ?? []) {
          if (p.nodePort) continue;
          const match = (old.spec.ports ?? []).find((o) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
          if (match?.nodePort) p.nodePort = match.nodePort;
        }
      }
      if (needsHealthCheck(spec) && needsHealthCheck(old.spec) && !spec.healthCheckNodePort && old.spec.healthCheckNodePort) {
        spec.healthCheckNodePort = old.spec.healthCheckNodePort;
      }
    } else if (spec.type !== 'ExternalName') {
      this.allocateIp(spec, errs, reservedIps);
    }

    // A Service that no longer needs a health check port gives it back (upstream's dropTypeDependentFields).
    if (!needsHealthCheck(spec) && needsHealthCheck(old?.spec) && spec.healthCheckNodePort === old?.spec?.healthCheckNodePort) delete spec.healthCheckNodePort;

    const oldPorts = new Set((old?.spec?.ports ?? []).map((p) => p.nodePort).filter((p): p is number => !!p));
    if (old?.spec?.healthCheckNodePort) oldPorts.add(old.spec.healthCheckNodePort);
    const used = needsNodePorts(spec.type) || needsHealthCheck(spec) ? this.usedPorts() : new Set<number>();
    const r = this.deps.nodePortRange;
    /** Reserves a requested port, or picks a free one when `requested` is 0; undefined after an error. */
    const take = (requested: number | undefined, field: string): number | undefined => {
      if (requested) {
        if (oldPorts.has(requested)) return requested;
        if (requested < r.base || requested >= r.base + r.size) {
          errs.push({ type: 'FieldValueInvalid', field, badValue: requested, detail: `provided port is not in the valid range. The range of valid ports is ${r.text}` });
          return undefined;
        }
        if (used.has(requested)) {
          errs.push({ type: 'FieldValueInvalid', field, badValue: requested, detail: 'provided port is already allocated' });
          return undefined;
        }
      }
      let port = requested;
      if (!port) {
        const off = pickFreeOffset({ base: r.base, bits: 0, size: r.size + 2, text: r.text }, (o) => used.has(r.base + o - 1));
        if (off === undefined) {
          release();
          throw internalError(new Error('failed to allocate a nodePort: range is full'));
        }
        port = r.base + off - 1;
      }
      used.add(port);
      this.pendingPorts.add(port);
      reservedPorts.push(port);
      return port;
    };

    if (needsNodePorts(spec.type)) {
      (spec.ports ?? []).forEach((p, i) => {
        // allocateLoadBalancerNodePorts: false leaves unset node ports unset (upstream's allocNodePorts).
        if (!p.nodePort && !allocatesNodePorts(spec)) return;
        const port = take(p.nodePort, `spec.ports[${i}].nodePort`);
        if (port !== undefined) p.nodePort = port;
      });
    }
    if (needsHealthCheck(spec)) {
      const port = take(spec.healthCheckNodePort, 'spec.healthCheckNodePort');
      if (port !== undefined) spec.healthCheckNodePort = port;
    }

    if (errs.length > 0) {
      release();
      throw invalid('Service', '', svc.metadata.name ?? '', errs);
    }
    a.onRollback(release);
    a.onCommit((rev) => void this.deps.waitForRev(rev).then(release, release));
  }

  private allocateIp(spec: ServiceSpec, errs: FieldError[], reserved: string[]): void {
    const range = this.deps.serviceRange;
    const requested = spec.clusterIP || spec.clusterIPs?.[0];
    if (requested === 'None') {
      spec.clusterIP = 'None';
      spec.clusterIPs = ['None'];
    } else if (requested) {
      const off = offsetInRange(range, requested);
      if (off === undefined) {
        errs.push({
          type: 'FieldValueInvalid',
          field: 'spec.clusterIPs',
          badValue: [requested],
          detail: `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${range.text}`,
        });
        return;
      }
      if (this.usedIps().has(requested)) {
        errs.push({ type: 'FieldValueInvalid', field: 'spec.clusterIPs', badValue: [requested], detail: `failed to allocate IP ${requested}: provided IP is already allocated` });
        return;
      }
      spec.clusterIP = requested;
      spec.clusterIPs = [requested];
    } else {
      const used = this.usedIps();
      const off = pickFreeOffset(range, (o) => used.has(formatIpv4(range.base + o)));
      if (off === undefined) throw internalError(new Error('failed to allocate a serviceIP: range is full'));
      spec.clusterIP = formatIpv4(range.base + off);
      spec.clusterIPs = [spec.clusterIP];
    }
    this.pendingIps.add(spec.clusterIP);
    reserved.push(spec.clusterIP);
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
  }
}
