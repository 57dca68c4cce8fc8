// The PATCH a kubelet sends for its node's status (upstream
// component-helpers/node/util PatchNodeStatus and
// preparePatchBytesforNodeStatus): a two-way strategic merge patch from the
// Node it read to the Node with the new status, so only what changed travels
// and no resourceVersion is asked for (no 409 against other writers of the
// Node). The spec never goes (it is the status subresource), and addresses,
// whose merge key `type` is not unique, go whole with `$patch: replace`.

import { canonicalJson, createTwoWayMergePatch, type Node } from '@kubelab/api';

type Json = Record<string, unknown>;

/** The strategic merge patch taking `original` to `modified`'s metadata and status. Pure. */
export function nodeStatusPatch(original: Node, modified: Node): Json {
  const oldAddresses = original.status?.addresses ?? [];
  const newAddresses = modified.status?.addresses ?? [];
  // Upstream: NodeStatus.Addresses is wrongly tagged patchStrategy=merge; a change is sent as a replace.
  const manualAddresses = oldAddresses.length > 0 && canonicalJson(oldAddresses) !== canonicalJson(newAddresses);
  const { spec: _ignored, ...rest } = modified;
  const diffNode: Node = { ...rest, ...(original.spec !== undefined ? { spec: original.spec } : {}), ...(manualAddresses ? { status: { ...modified.status, addresses: oldAddresses } } : {}) };
  const patch = createTwoWayMergePatch(original, diffNode, 'Node');
  if (manualAddresses) {
    const status = (patch.status ?? {}) as Json;
    status.addresses = [...newAddresses, { $patch: 'replace' }];
    patch.status = status;
  }
  return patch;
}
