// The node's image store (containerd's image service): what has been pulled,
// resolution of a reference/ID/digest to a pulled image, and pulls from the
// built-in catalog with registry-like errors, auth and size-based pull time.

import { status } from '@grpc/grpc-js';
import { CATALOG, imageDigest, imageId, lookupCatalog, repositoryKnown, type ImageDef } from '@kubelab/images';
import { RuntimeError } from './errors.js';
import { parseReference } from './reference.js';

export interface StoredImage {
  id: string;
  def: ImageDef;
  /** repo:tag names pulled so far. */
  repoTags: string[];
  /** repo@digest. */
  repoDigests: string[];
}

export interface PullAuth {
  username?: string;
  password?: string;
  auth?: string;
}

export interface ImageStoreOptions {
  /** Simulated registry bandwidth in bytes per second; 0 pulls instantly. */
  pullBytesPerSecond: number;
  catalog?: ImageDef[];
  sleep?: (ms: number) => Promise<void>;
}

function credentials(auth: PullAuth | undefined): { username: string; password: string } | undefined {
  if (!auth) return undefined;
  if (auth.username || auth.password) return { username: auth.username ?? '', password: auth.password ?? '' };
  if (auth.auth) {
    const text = Buffer.from(auth.auth, 'base64').toString('utf8');
    const i = text.indexOf(':');
    if (i > 0) return { username: text.slice(0, i), password: text.slice(i + 1) };
  }
  return undefined;
}

/** Pull time for an image: size over bandwidth. */
export function pullDurationMs(size: number, bytesPerSecond: number): number {
  return bytesPerSecond > 0 ? Math.round((size / bytesPerSecond) * 1000) : 0;
}

export class ImageStore {
  private readonly images = new Map<string, StoredImage>();
  private readonly catalog: ImageDef[];
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ImageStoreOptions) {
    this.catalog = opts.catalog ?? CATALOG;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  list(): StoredImage[] {
    return [...this.images.values()];
  }

  /** Resolves an image ID, `sha256:` prefix, repo:tag, short name or repo@digest; undefined when not pulled. */
  resolve(ref: string): StoredImage | undefined {
    if (!ref) return undefined;
    const byId = this.images.get(ref) ?? this.images.get(`sha256:${ref}`);
    if (byId) return byId;
    let parsed;
    try {
      parsed = parseReference(ref);
    } catch {
      return undefined;
    }
    for (const img of this.images.values()) {
      if (parsed.digest && img.repoDigests.includes(`${parsed.repository}@${parsed.digest}`)) return img;
      if (!parsed.digest && img.repoTags.includes(`${parsed.repository}:${parsed.tag}`)) return img;
    }
    return undefined;
  }

  /** Pulls from the catalog, as containerd's PullImage; returns the image ID (the CRI image_ref). */
  async pull(ref: string, auth?: PullAuth): Promise<StoredImage> {
    let parsed;
    try {
      parsed = parseReference(ref);
    } catch (e) {
      throw new RuntimeError(status.INVALID_ARGUMENT, `failed to pull and unpack image "${ref}": ${(e as Error).message}`);
    }
    const named = parsed.digest ? `${parsed.repository}@${parsed.digest}` : `${parsed.repository}:${parsed.tag}`;
    const prefix = `failed to pull and unpack image "${named}": failed to resolve reference "${named}"`;
    const match = lookupCatalog(parsed.repository, parsed.tag, parsed.digest, this.catalog);
    if (!match) {
      // Docker Hub answers an unknown repository as if it were private.
      if (parsed.repository.startsWith('docker.io/') && !repositoryKnown(parsed.repository, this.catalog)) {
        throw new RuntimeError(status.NOT_FOUND, `${prefix}: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`);
      }
      throw new RuntimeError(status.NOT_FOUND, `${prefix}: ${named}: not found`);
    }
    const { def } = match;
    if (def.auth) {
      const given = credentials(auth);
      if (!given) {
        throw new RuntimeError(
          status.UNKNOWN,
          `${prefix}: failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://${parsed.repository.split('/')[0]}/token: 401 Unauthorized`,
        );
      }
      if (given.username !== def.auth.username || given.password !== def.auth.password) {
        throw new RuntimeError(
          status.UNKNOWN,
          `${prefix}: failed to authorize: failed to fetch oauth token: unexpected status from POST request to https://${parsed.repository.split('/')[0]}/token: 401 Unauthorized`,
        );
      }
    }
    const wait = pullDurationMs(def.size, this.opts.pullBytesPerSecond);
    if (wait > 0) await this.sleep(wait);
    return this.register(def, parsed.tag);
  }

  /** Records an image as present (pull, or recovery from the state file). */
  register(def: ImageDef, tag: string | undefined): StoredImage {
    const id = imageId(def);
    let img = this.images.get(id);
    if (!img) {
      img = { id, def, repoTags: [], repoDigests: [`${def.repository}@${imageDigest(def)}`] };
      this.images.set(id, img);
    }
    const name = `${def.repository}:${tag ?? def.tags[0]}`;
    if (tag && !img.repoTags.includes(name)) img.repoTags.push(name);
    return img;
  }

  /** Removes an image by any of its names; unknown images are fine (idempotent). */
  remove(ref: string): StoredImage | undefined {
    const img = this.resolve(ref);
    if (img) this.images.delete(img.id);
    return img;
  }

  /** Catalog definition for a stored image ID (recovery). */
  defForId(id: string): ImageDef | undefined {
    return this.catalog.find((d) => imageId(d) === id);
  }

  totalBytes(): number {
    let n = 0;
    for (const img of this.images.values()) n += img.def.size;
    return n;
  }
}
