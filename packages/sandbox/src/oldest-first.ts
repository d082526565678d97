/**
 * Items in the order they were added, the oldest looked at and taken first,
 * each in amortised constant time: how the sandbox's bounded maps know what
 * to forget. Not the map's own order: V8 leaves a hole for every deleted
 * entry until the table is rebuilt, and `map.keys().next()` walks every hole
 * from the front, so forgetting the oldest of a map held at its bound cost
 * tens of µs a request once 50,000 sessions were kept.
 */
export class OldestFirst<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, left in place. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** Takes the oldest item out. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    // Drop the taken slots once they are half the array, so it stays within twice what is kept.
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
