// What a call answered, for table tests of refusals: 'ok', or the Status
// code and message it failed with ("403 pods is forbidden: ..."). An error
// that is not a Status is the test's failure and is thrown on.

import { StatusError } from '@kubelab/api';

export async function outcome(f: () => unknown): Promise<string> {
  try {
    await f();
    return 'ok';
  } catch (e) {
    if (StatusError.isInstance(e)) return `${e.code} ${e.status.message ?? ''}`;
    throw e;
  }
}
