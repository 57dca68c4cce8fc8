// A container's environment (upstream makeEnvironmentVariables in
// kubelet_pods.go): envFrom first (ConfigMaps and Secrets, with prefix), then
// env, whose entries replace same-named ones; `$(VAR)` in values expands
// against what is defined so far, then the service variables; those are
// added last where no other source set the name. Missing objects and keys fail with the
// manager's or upstream's text; invalid envFrom names are skipped with an
// InvalidEnvironmentVariableNames event.

import type { ConfigMap, Container, Pod, Secret, Service } from '@kubelab/api';
import { podFieldValue, resourceFieldValue } from '../volumemanager/downward.js';
import { ObjectNotFoundError, getConfigMap, getSecret, type ObjectSource } from '../volumemanager/sources.js';
import type { KeyValue } from './cri.js';
import { serviceEnvVars, servicesForPod } from './service-env.js';

export const REASON_INVALID_ENV_NAMES = 'InvalidEnvironmentVariableNames';

export interface EnvContext {
  pod: Pod;
  container: Container;
  podIPs: string[];
  hostIPs: string[];
  /** Node allocatable, the limit of containers that set none (resourceFieldRef). */
  allocatable: Record<string, string>;
  sources?: ObjectSource;
  /** RelaxedEnvironmentVariableValidation (beta, on by default in 1.32): any printable ASCII but '='. */
  relaxedNames: boolean;
  /** All Services the kubelet knows (its informer); absent: no service variables. */
  services?: readonly Service[];
}

export interface EnvResult {
  envs: KeyValue[];
  /** One per envFrom source that had invalid names: the event message to record. */
  warnings: string[];
}

/** Whether name is a valid environment variable name (upstream IsRelaxedEnvVarName / IsEnvVarName). */
export function isValidEnvName(name: string, relaxed: boolean): boolean {
  if (relaxed) return name.length > 0 && /^[\x20-\x7e]+$/.test(name) && !name.includes('=');
  return /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name);
}

/** Expands $(VAR) references (upstream expansion.Expand): `$$` is a literal `$`, unknown names stay as written. */
export function expandVars(s: string, env: Map<string, string>, fallback?: Map<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    return env.get(name!) ?? fallback?.get(name!) ?? m;
  });
}

function decode(v: string): string {
  return Buffer.from(v, 'base64').toString();
}

export async function makeEnvironmentVariables(ctx: EnvContext): Promise<EnvResult> {
  const { pod, container: c } = ctx;
  const ns = pod.metadata.namespace ?? 'default';
  const env = new Map<string, string>();
  const warnings: string[] = [];
  const serviceEnv = ctx.services ? serviceEnvVars(servicesForPod(ctx.services, ns, pod.spec?.enableServiceLinks !== false)) : new Map<string, string>();

  /** A getter of the pod's ConfigMaps or Secrets, each read once per container; a missing optional one is undefined. */
  const reader = <T>(kind: 'configMap' | 'secret', get: (src: ObjectSource, namespace: string, name: string) => Promise<T>) => {
    const read = new Map<string, T>();
    return async (name: string, optional: boolean): Promise<T | undefined> => {
      if (read.has(name)) return read.get(name);
      if (!ctx.sources) throw new Error(`couldn't get ${kind} ${ns}/${name}, no kubeClient defined`);
      try {
        const o = await get(ctx.sources, ns, name);
        read.set(name, o);
        return o;
      } catch (e) {
        if (ObjectNotFoundError.isInstance(e) && optional) return undefined;
        throw e;
      }
    };
  };
  const configMap = reader<ConfigMap>('configMap', getConfigMap);
  const secret = reader<Secret>('secret', getSecret);
  /** A key selector's (raw) value; undefined, the variable left out, when an optional object or key is missing. */
  const keyValue = async (
    read: (name: string, optional: boolean) => Promise<ConfigMap | Secret | undefined>,
    kind: 'ConfigMap' | 'Secret',
    sel: { name?: string; key: string; optional?: boolean },
  ) => {
    const optional = sel.optional === true;
    const o = await read(sel.name ?? '', optional);
    const v = o?.data?.[sel.key];
    if (o && v === undefined && !optional) throw new Error(`couldn't find key ${sel.key} in ${kind} ${ns}/${sel.name ?? ''}`);
    return v;
  };

  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const name = ref.name ?? '';
    let data: Record<string, string>;
    if (from.configMapRef) {
      const cm = await configMap(name, ref.optional === true);
      if (!cm) continue;
      data = cm.data ?? {};
    } else {
      const s = await secret(name, ref.optional === true);
      if (!s) continue;
      data = Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, decode(v)]));
    }
    const invalid: string[] = [];
    // Go ranges over a map in random order; kubelab takes the keys sorted so runs are repeatable.
    for (const key of Object.keys(data).sort()) {
      const k = (from.prefix ?? '') + key;
      if (!isValidEnvName(k, ctx.relaxedNames)) {
        invalid.push(k);
        continue;
      }
      env.set(k, data[key]!);
    }
    if (invalid.length) {
      const kind = from.configMapRef ? 'configMap' : 'secret';
      warnings.push(`Keys [${invalid.sort().join(', ')}] from the EnvFrom ${kind} ${ns}/${name} were skipped since they are considered invalid environment variable names.`);
    }
  }

  for (const e of c.env ?? []) {
    let value = e.value ?? '';
    const from = e.valueFrom;
    if (value !== '') value = expandVars(value, env, serviceEnv);
    else if (from?.fieldRef) value = podFieldValue(pod, from.fieldRef.fieldPath, { podIPs: ctx.podIPs, hostIPs: ctx.hostIPs });
    else if (from?.resourceFieldRef) value = resourceFieldValue(from.resourceFieldRef, pod, c, ctx.allocatable);
    else if (from?.configMapKeyRef) {
      const v = await keyValue(configMap, 'ConfigMap', from.configMapKeyRef);
      if (v === undefined) continue;
      value = v;
    } else if (from?.secretKeyRef) {
      const v = await keyValue(secret, 'Secret', from.secretKeyRef);
      if (v === undefined) continue;
      value = decode(v);
    }
    env.set(e.name, value);
  }
  for (const [k, v] of serviceEnv) if (!env.has(k)) env.set(k, v);
  return { envs: [...env].map(([key, value]) => ({ key, value })), warnings };
}
