// The plugin registry (framework/runtime/registry.go): one map from plugin
// name to factory; registering a name twice is a programming error.

import type { Plugin } from './interface.js';
import type { Handle } from './handle.js';

export type PluginFactory = (args: unknown, handle: Handle) => Plugin;

export class Registry {
  private readonly factories = new Map<string, PluginFactory>();

  constructor(entries: Record<string, PluginFactory> = {}) {
    for (const [name, f] of Object.entries(entries)) this.register(name, f);
  }

  register(name: string, factory: PluginFactory): void {
    if (this.factories.has(name)) throw new Error(`a plugin named ${name} already exists`);
    this.factories.set(name, factory);
  }

  unregister(name: string): void {
    if (!this.factories.delete(name)) throw new Error(`no plugin named ${name} exists`);
  }

  get(name: string): PluginFactory | undefined {
    return this.factories.get(name);
  }

  names(): string[] {
    return [...this.factories.keys()];
  }

  /** Another registry's plugins added to this one, refusing duplicates. */
  merge(other: Registry): void {
    for (const name of other.names()) this.register(name, other.get(name)!);
  }
}
