// The apiserver's --authentication-config as kubelab sets a cluster up: the
// structured AuthenticationConfiguration's anonymous section (KEP-4633, the
// CIS benchmark's 1.2.1) lets requests without credentials reach only the
// health and version endpoints; everything else answers 401 (Unauthorized),
// whatever RBAC grants system:anonymous.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Its name in the state dir (`kubelab up`) or under /etc/kubernetes (compose). */
export const AUTHENTICATION_CONFIG_FILE = 'authentication-config.yaml';

/**
 * What system:public-info-viewer grants, less the trailing-slash twin kubectl
 * never asks for, and the cluster-info ConfigMap that `kubeadm join` reads
 * before it has credentials (RBAC grants it to system:anonymous; kubeadm's
 * docs name this path for a restricted anonymous configuration).
 */
export const ANONYMOUS_PATHS = ['/healthz', '/livez', '/readyz', '/version', '/api/v1/namespaces/kube-public/configmaps/cluster-info'] as const;

export function authenticationConfigYaml(): string {
  return ['apiVersion: apiserver.config.k8s.io/v1', 'kind: AuthenticationConfiguration', 'anonymous:', '  enabled: true', '  conditions:', ...ANONYMOUS_PATHS.map((p) => `    - path: ${p}`), ''].join(
    '\n',
  );
}

/** Writes the file unless it is there (a user's edit is kept, as the encryption config's). */
export function ensureAuthenticationConfig(path: string): { created: boolean } {
  if (existsSync(path)) return { created: false };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, authenticationConfigYaml(), { mode: 0o644 });
  return { created: true };
}
