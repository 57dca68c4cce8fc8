// containerd's own lines for the CRI calls that change things (pkg/cri/server's
// instrumented service): "<call> for <what>" at info when it starts, "... returns ..."
// when it succeeds, "... failed" at error with the error. Go's %q and %+v of the metadata.

interface Meta {
  name?: string;
  uid?: string;
  namespace?: string;
  attempt?: number;
}

/** gogo-protobuf's String() of a metadata message, as %+v of its pointer prints it. */
export function podSandboxMetadata(m: Meta | null | undefined): string {
  return `&PodSandboxMetadata{Name:${m?.name ?? ''},Uid:${m?.uid ?? ''},Namespace:${m?.namespace ?? ''},Attempt:${m?.attempt ?? 0},}`;
}
export function containerMetadata(m: Meta | null | undefined): string {
  return `&ContainerMetadata{Name:${m?.name ?? ''},Attempt:${m?.attempt ?? 0},}`;
}

const q = (s: string | undefined): string => JSON.stringify(s ?? '');

export interface CriLogLines {
  start: string;
  /** The success line, given the call's response. */
  done: (res: unknown) => string;
  failed: string;
}

type Req = Record<string, unknown> & {
  config?: { metadata?: Meta | null } | null;
  podSandboxId?: string;
  containerId?: string;
  timeout?: number | string;
  image?: { image?: string } | null;
};

/** The lines of one call, or undefined for the read-only calls containerd logs only at debug. */
export function criLogLines(method: string, req: Req): CriLogLines | undefined {
  switch (method) {
    case 'RunPodSandbox': {
      const what = `RunPodSandbox for ${podSandboxMetadata(req.config?.metadata)}`;
      return { start: what, done: (r) => `${what} returns sandbox id ${q((r as { podSandboxId?: string }).podSandboxId)}`, failed: `${what} failed, error` };
    }
    case 'StopPodSandbox':
    case 'RemovePodSandbox': {
      const what = `${method} for ${q(req.podSandboxId)}`;
      return { start: what, done: () => `${what} returns successfully`, failed: `${what} failed` };
    }
    case 'CreateContainer': {
      const what = `CreateContainer within sandbox ${q(req.podSandboxId)} for`;
      const meta = containerMetadata(req.config?.metadata);
      return {
        start: `${what} container ${meta}`,
        done: (r) => `${what} ${meta} returns container id ${q((r as { containerId?: string }).containerId)}`,
        failed: `${what} ${meta} failed`,
      };
    }
    case 'StartContainer':
    case 'RemoveContainer':
    case 'ReopenContainerLog': {
      const what = `${method} for ${q(req.containerId)}`;
      return { start: what, done: () => `${what} returns successfully`, failed: `${what} failed` };
    }
    case 'StopContainer': {
      const what = `StopContainer for ${q(req.containerId)}`;
      return { start: `${what} with timeout ${Number(req.timeout ?? 0)} (s)`, done: () => `${what} returns successfully`, failed: `${what} failed` };
    }
    case 'PullImage': {
      const what = `PullImage ${q(req.image?.image)}`;
      return { start: what, done: (r) => `${what} returns image reference ${q((r as { imageRef?: string }).imageRef)}`, failed: `${what} failed` };
    }
    default:
      return undefined;
  }
}
