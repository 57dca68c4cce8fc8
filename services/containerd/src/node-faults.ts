// The node's read-only remount as the containers meet it: while the node's
// fault state (@kubelab/systemd's node-faults, written by `kubelab fault`)
// says the filesystem is read-only, every write to a container's filesystem
// fails with EROFS, as writes to an overlayfs on a filesystem the kernel
// remounted read-only do. The runtime learns of it through a watch.

import { watchNodeFaults } from '@kubelab/systemd';
import { SecurityReadOnlyError } from './security/filesystem.js';

let readOnly = false;

/** Follows the node's fault state under `root` (KUBELAB_NODE_ROOT); returns the function that stops. */
export function followNodeFaults(root: string): () => void {
  return watchNodeFaults(root, (s) => {
    readOnly = s.readonlyFilesystem === true;
  });
}

/** Sets the state directly (tests). */
export function setNodeReadOnly(on: boolean): void {
  readOnly = on;
}

/** A write refused by a read-only filesystem (errno EROFS); the message is strerror's, as tools print it. */
const MARKER = Symbol.for('kubelab.containerd.ReadOnlyFileSystemError');

export class ReadOnlyFileSystemError extends Error {
  readonly code = 'EROFS';
  readonly [MARKER] = true;
  constructor(readonly path: string) {
    super('Read-only file system');
    this.name = 'ReadOnlyFileSystemError';
  }
  static isInstance(e: unknown): e is ReadOnlyFileSystemError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Pipes and devices (/proc/N/fd/*, /dev/null) are no files of the remounted filesystem. */
function onFilesystem(path: string): boolean {
  return !(path.startsWith('/proc/') || path.startsWith('/dev/'));
}

/** Throws EROFS for a write to `paths` while the node's filesystem is read-only. */
export function assertWritable(...paths: string[]): void {
  if (!readOnly) return;
  const p = paths.find(onFilesystem);
  if (p !== undefined) throw new ReadOnlyFileSystemError(p);
}

/** What the shell prints for an error that ended a command line: bash's `bash: PATH: Read-only file system` for EROFS. */
export function shellErrorText(err: unknown): string {
  if (SecurityReadOnlyError.isInstance(err)) return err.shellText;
  return ReadOnlyFileSystemError.isInstance(err) ? `bash: ${err.path}: ${err.message}` : (err as Error).message;
}
