// --authentication-config: upstream's structured AuthenticationConfiguration
// (apiserver.config.k8s.io). kubelab reads its `anonymous` section
// (KEP-4633, stable in 1.34): anonymous requests only for the listed paths,
// 401 elsewhere, so an RBAC mistake that grants system:anonymous more opens
// nothing. JWT authenticators are not implemented and are refused by name.

import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

const API_VERSIONS = ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1'];
const KIND = 'AuthenticationConfiguration';

/** Who may be anonymous: nobody, anyone (upstream's --anonymous-auth=true), or only on these exact paths. */
export type AnonymousAuth = { enabled: false } | { enabled: true; paths?: ReadonlySet<string> };

/** An --authentication-config that cannot be used: the apiserver does not start. */
export class AuthenticationConfigError extends Error {
  override name = 'AuthenticationConfigError';
}

/** The `anonymous` section of the file's text (YAML or JSON); undefined when the file has none. */
export function parseAuthenticationConfig(text: string): AnonymousAuth | undefined {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new AuthenticationConfigError(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new AuthenticationConfigError('the authentication configuration is not a JSON or YAML object');
  const { apiVersion, kind, anonymous, jwt } = doc as Record<string, unknown>;
  if (kind !== KIND || !API_VERSIONS.includes(String(apiVersion))) {
    throw new AuthenticationConfigError(`no kind "${String(kind ?? '')}" is registered for version "${String(apiVersion ?? '')}" (want kind: ${KIND}, apiVersion: ${API_VERSIONS[0]})`);
  }
  if (Array.isArray(jwt) && jwt.length > 0) throw new AuthenticationConfigError('jwt: kubelab does not implement JWT authenticators');
  if (anonymous === undefined || anonymous === null) return undefined;
  const a = anonymous as { enabled?: unknown; conditions?: unknown };
  const enabled = a.enabled === true;
  const conditions = Array.isArray(a.conditions) ? (a.conditions as { path?: unknown }[]) : [];
  // Upstream's validation (apiserver/pkg/apis/apiserver/validation): conditions need enabled, each a unique non-empty path.
  if (!enabled && conditions.length > 0) throw new AuthenticationConfigError('anonymous.conditions: Invalid value: enabled should be set to true when conditions are defined');
  const paths = new Set<string>();
  conditions.forEach((c, i) => {
    const path = typeof c?.path === 'string' ? c.path : '';
    if (path === '') throw new AuthenticationConfigError(`anonymous.conditions[${i}].path: Required value`);
    if (paths.has(path)) throw new AuthenticationConfigError(`anonymous.conditions[${i}].path: Duplicate value: ${JSON.stringify(path)}`);
    paths.add(path);
  });
  if (!enabled) return { enabled: false };
  return conditions.length > 0 ? { enabled: true, paths } : { enabled: true };
}

/**
 * What --anonymous-auth and the file decide together. Upstream refuses both
 * at once; kubelab cannot tell a flag left at its default from one set to
 * true, so it refuses only --anonymous-auth=false beside an anonymous section.
 */
export function anonymousAuthFrom(anonymousAuthFlag: boolean, configFile: string | undefined): AnonymousAuth {
  const fromFile = configFile ? parseAuthenticationConfig(readAuthenticationConfig(configFile)) : undefined;
  if (fromFile === undefined) return { enabled: anonymousAuthFlag };
  if (!anonymousAuthFlag) throw new AuthenticationConfigError('--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file');
  return fromFile;
}

function readAuthenticationConfig(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new AuthenticationConfigError(`failed to read authentication config file ${JSON.stringify(file)}: ${(err as Error).message}`);
  }
}

/** Whether a request without credentials to this path is system:anonymous (else 401). */
export function anonymousAllowed(a: AnonymousAuth, path: string): boolean {
  return a.enabled && (a.paths === undefined || a.paths.has(path));
}
