/**
 * java.util.PriorityQueue's binary heap (siftUp on add, the last element sifted down from the root on poll): the
 * order in which it returns equal elements is Kafka's, where a coordinator's choice depends on it (streams' sticky
 * task assignor).
 */
export class JavaPriorityQueue<T> {
  private readonly heap: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.heap.length;
  }

  add(item: T): void {
    let k = this.heap.length;
    this.heap.push(item);
    while (k > 0) {
      const parent = (k - 1) >>> 1;
      const e = this.heap[parent]!;
      if (this.compare(item, e) >= 0) break;
      this.heap[k] = e;
      k = parent;
    }
    this.heap[k] = item;
  }

  poll(): T | undefined {
    if (this.heap.length === 0) return undefined;
    const result = this.heap[0]!;
    const last = this.heap.pop()!;
    const n = this.heap.length;
    if (n > 0) {
      let k = 0;
      const half = n >>> 1;
      while (k < half) {
        let child = 2 * k + 1;
        let c = this.heap[child]!;
        const right = child + 1;
        if (right < n && this.compare(c, this.heap[right]!) > 0) c = this.heap[(child = right)]!;
        if (this.compare(last, c) <= 0) break;
        this.heap[k] = c;
        k = child;
      }
      this.heap[k] = last;
    }
    return result;
  }
}
