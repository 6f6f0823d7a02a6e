import { EventEmitter } from 'node:events';

/** An EventEmitter whose event names and payloads are checked by the compiler. */
export class TypedEmitter<Events extends Record<string, unknown>> {
  private readonly emitter = new EventEmitter();

  constructor() {
    // A job has a handful of listeners; more is a leak worth a warning, but not at 10.
    this.emitter.setMaxListeners(50);
  }

  on<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): this {
    this.emitter.on(event, listener);
    return this;
  }

  once<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): this {
    this.emitter.once(event, listener);
    return this;
  }

  off<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): this {
    this.emitter.off(event, listener);
    return this;
  }

  protected emit<K extends keyof Events & string>(event: K, payload: Events[K]): void {
    this.emitter.emit(event, payload);
  }
}
