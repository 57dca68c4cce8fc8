// One image of the simulated registry: its OCI image config (entrypoint,
// cmd, env, working dir, user, exposed ports) as `docker inspect` shows it,
// the files its rootfs seeds into each container and the simulated programs
// it ships. Digests and IDs are derived from the definition, so they stay
// stable across runs as a registry's would.

import { createHash } from 'node:crypto';

export interface ImageDef {
  /** Repository with its registry domain: docker.io/library/nginx. */
  repository: string;
  /** Tags naming this exact image (the first is its canonical tag). */
  tags: string[];
  /** Compressed size in bytes (drives pull time). */
  size: number;
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  workingDir: string;
  /** Image config `User` (uid). */
  uid: number;
  /** Image config `User` when it names the user (`www-data`, `www-data:1004`): ImageStatus reports the name and no uid. */
  username?: string;
  /** The group of an image config `User` of the form `user:group` (uid or name, then gid). */
  gid?: number;
  /** The manifest digest when the registry's is pinned elsewhere (critest names test-image-digest by digest). */
  digest?: string;
  /** Image config `ExposedPorts`, as `80/tcp`. */
  exposedPorts?: string[];
  /** Files of the image rootfs, seeded into every container's filesystem. */
  files: Record<string, string>;
  /** Simulated programs (binaries) this image ships, beside the shell utilities. */
  programs: string[];
  /** Resident memory of the idle main process, for stats. */
  baseMemoryBytes: number;
  /** What running it does, for `kubelab images` and the README. */
  description: string;
  /** The teaching images exist to make a failure mode observable. */
  teaching?: true;
  /** Registry credentials required to pull (the private teaching image). */
  auth?: { username: string; password: string };
  /** Pinned images are exempt from image GC (upstream: the sandbox image). */
  pinned?: boolean;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Registry digest of the image manifest (`repo@sha256:...`). */
export function imageDigest(def: ImageDef): string {
  if (def.digest) return def.digest;
  return `sha256:${sha(`manifest\n${def.repository}:${def.tags[0]}`)}`;
}

/** Image ID: the digest of its config blob, as containerd reports it. */
export function imageId(def: ImageDef): string {
  return `sha256:${sha(`config\n${def.repository}:${def.tags[0]}\n${def.entrypoint.join(' ')}\n${def.cmd.join(' ')}`)}`;
}

export interface CatalogMatch {
  def: ImageDef;
  /** The tag that was asked for (or the canonical one for digest refs). */
  tag: string;
}

/** Finds an image by normalised repository and tag or digest. */
export function lookupCatalog(repository: string, tag: string | undefined, digest: string | undefined, catalog: readonly ImageDef[]): CatalogMatch | undefined {
  for (const def of catalog) {
    if (def.repository !== repository) continue;
    if (digest && imageDigest(def) === digest) return { def, tag: def.tags[0]! };
    if (tag && def.tags.includes(tag)) return { def, tag };
  }
  return undefined;
}

export function repositoryKnown(repository: string, catalog: readonly ImageDef[]): boolean {
  return catalog.some((d) => d.repository === repository);
}

/** How people write a repository: Docker Hub's `docker.io/library/` dropped. */
export function shortRepository(repository: string): string {
  return repository.replace(/^docker\.io\/(library\/)?/, '');
}
