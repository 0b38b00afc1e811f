/**
 * Runs tasks with the same key one after another (in this process); different keys run in
 * parallel. Login attempts for one e-mail from one IP go through it, so concurrent guesses can't
 * all pass the "5 failures" check before any of them is recorded.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with queued or running tasks (tests). */
  get size(): number {
    return this.tails.size;
  }
}
