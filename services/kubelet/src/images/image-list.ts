// The node's image list as the kubelet reports it (upstream realImageGCManager's
// imageCache): the runtime is asked every 30 s, and the Node's status.images
// is built from the last answer, not from a ListImages call per status sync.

import type { Image, RuntimeService } from '../kuberuntime/cri.js';

/** How often the list is refreshed (upstream: 30 s, a fixed period). */
export const IMAGE_LIST_REFRESH_MS = 30_000;

export class ImageList {
  private images: Image[] | undefined;

  constructor(private readonly rt: Pick<RuntimeService, 'listImages'>) {}

  /** Asks the runtime again; on failure the last list stays. */
  async refresh(): Promise<void> {
    this.images = await this.rt.listImages();
  }

  /** The list of the last refresh (the first call refreshes). */
  async get(): Promise<Image[]> {
    if (!this.images) await this.refresh();
    return this.images!;
  }
}
