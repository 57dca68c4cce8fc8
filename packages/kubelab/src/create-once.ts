// kubeadm's upload phases create their objects once: one already there is
// kept as it is (a second `up` on the same state dir finds them).

import { isAlreadyExists } from '@kubelab/api';

export async function createUnlessPresent(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
}
