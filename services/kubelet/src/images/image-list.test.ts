import { describe, expect, it } from 'vitest';
import type { Image } from '../kuberuntime/cri.js';
import { ImageList } from './image-list.js';

const image = (tag: string): Image => ({ id: `sha256:${tag}`, repoTags: [tag], repoDigests: [], size: 1, pinned: false }) as Image;

/** A runtime whose ListImages answers from `answers` in turn (an Error is a failed call), counting calls. */
function runtime(answers: Array<Image[] | Error>) {
  const rt = {
    calls: 0,
    listImages: async (): Promise<Image[]> => {
      const a = answers[Math.min(rt.calls++, answers.length - 1)]!;
      if (a instanceof Error) throw a;
      return a;
    },
  };
  return rt;
}

describe("the image manager's image list (what the Node's status.images reports)", () => {
  it('asks the runtime once, then answers from the list until the next refresh', async () => {
    const rt = runtime([[image('pause:3.10')], [image('pause:3.10'), image('busybox:1.36')]]);
    const list = new ImageList(rt);
    expect((await list.get()).map((i) => i.repoTags[0])).toEqual(['pause:3.10']);
    await list.get();
    expect(rt.calls).toBe(1);
    await list.refresh();
    expect((await list.get()).map((i) => i.repoTags[0])).toEqual(['pause:3.10', 'busybox:1.36']);
    expect(rt.calls).toBe(2);
  });

  it('keeps the last list when a refresh fails', async () => {
    const rt = runtime([[image('pause:3.10')], new Error('runtime down')]);
    const list = new ImageList(rt);
    await list.get();
    await expect(list.refresh()).rejects.toThrow('runtime down');
    expect((await list.get()).map((i) => i.repoTags[0])).toEqual(['pause:3.10']);
  });
});
