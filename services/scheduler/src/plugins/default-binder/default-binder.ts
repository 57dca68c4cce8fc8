// DefaultBinder (Bind): posts a Binding to the pod's binding subresource.

import type { Pod } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import type { Handle } from '../../framework/handle.js';
import type { BindPlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import { asStatus, Code, newStatus, type Status } from '../../framework/status.js';

export class DefaultBinder implements BindPlugin {
  readonly name = Names.DefaultBinder;

  constructor(private readonly handle: Handle) {}

  async bind(_state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined> {
    const bind = this.handle.actions.bind;
    if (!bind) return newStatus(Code.Error, 'no API client to bind with');
    try {
      await bind(pod, nodeName);
      return undefined;
    } catch (err) {
      return asStatus(err);
    }
  }
}

export const newDefaultBinder = (_args: unknown, handle: Handle): DefaultBinder => new DefaultBinder(handle);
