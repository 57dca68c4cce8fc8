// Image references normalised as containerd's reference.ParseDockerRef does:
// `nginx` → `docker.io/library/nginx:latest`, `user/app` → `docker.io/user/app:latest`.

export interface ParsedRef {
  /** Repository with domain, e.g. docker.io/library/nginx */
  repository: string;
  /** Tag when given or implied (`latest`), undefined for digest-only refs. */
  tag?: string;
  /** `sha256:...` when the reference pins a digest. */
  digest?: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?::[0-9]+)?(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;

/** Parses a reference; throws with a readable reason when it is malformed. */
export function parseReference(ref: string): ParsedRef {
  if (!ref) throw new Error('empty image reference');
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw new Error(`invalid reference format: invalid digest "${digest}"`);
  }
  let tag: string | undefined;
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) throw new Error(`invalid reference format: invalid tag "${tag}"`);
  }
  if (!NAME.test(rest)) throw new Error(`invalid reference format: repository name must be lowercase: "${ref}"`);
  const first = rest.split('/')[0]!;
  const hasDomain = rest.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  let repository = hasDomain ? rest : `docker.io/${rest}`;
  if (repository.startsWith('docker.io/') && repository.split('/').length === 2) {
    repository = `docker.io/library/${repository.slice('docker.io/'.length)}`;
  }
  if (!tag && !digest) tag = 'latest';
  return { repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** The normalised string form: repository:tag or repository@digest. */
export function normalizeReference(ref: string): string {
  const p = parseReference(ref);
  return p.digest ? `${p.repository}@${p.digest}` : `${p.repository}:${p.tag}`;
}
