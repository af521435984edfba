/**
 * Cluster mode's StateStore: a piece of the cluster-wide metadata (dynamic broker configs, group and client metrics
 * configs, ACLs, SCRAM credentials, client quotas) kept in etcd under one prefix, one key per entry of its
 * StateEntries form, so every broker reads the same and a change made through any broker reaches the others through
 * the watch. Loaded only in cluster mode, with the etcd3 client.
 *
 * A save writes the difference between the value the change was made from and the new one (puts and deletes), in
 * txns of at most etcd's --max-txn-ops (128) operations, so another broker's change to other entries made meanwhile
 * stays. It resolves once this broker's watch has seen its writes; the owner then takes the merged value from the
 * listener. A watch that etcd cancels (its start revision compacted away while it was disconnected) is resumed by
 * reading the prefix again and watching from that read's revision: the listener hears the value as then stored.
 */
import type { Etcd3, IKeyValue, IWatchResponse, Watcher } from 'etcd3';
import type { Log } from '../log.js';
import type { StateEntries, StateStore } from '../storage/file/state-file.js';

/** etcd's default --max-txn-ops: more operations in one txn are refused. */
export const ETCD_MAX_TXN_OPS = 128;

interface Entry {
  readonly value: string;
  readonly createRevision: bigint;
}

interface RevisionWaiter {
  readonly revision: bigint;
  readonly resolve: () => void;
}

export interface EtcdStateStoreOptions<T> {
  /**
   * Written once per cluster, when the first broker loads this store (a create-if-absent txn on `formedKey`), as a
   * Kafka controller writes its bootstrap records when the cluster is formed.
   */
  readonly seed?: { readonly formedKey: string; readonly value: T };
}

export class EtcdStateStore<T> implements StateStore<T> {
  readonly description: string;
  private readonly mirror = new Map<string, Entry>();
  /** The last revision the mirror holds everything of. */
  private revision = 0n;
  private watcher: Watcher | undefined;
  private readonly listeners: ((value: T) => void | Promise<void>)[] = [];
  private waiters: RevisionWaiter[] = [];
  private closed = false;

  constructor(
    private readonly client: Etcd3,
    /** Ends with '/'. */
    private readonly prefix: string,
    private readonly form: StateEntries<T>,
    private readonly log: Log,
    private readonly options: EtcdStateStoreOptions<T> = {},
  ) {
    this.description = `${form.holds} in etcd under ${prefix}`;
  }

  /** Reads the prefix (seeding it first when asked) and follows it from then on; undefined while nothing is stored. */
  async load(): Promise<T | undefined> {
    const seed = this.options.seed;
    if (seed !== undefined) {
      const puts = [...this.form.toEntries(seed.value)].map(([name, value]) => this.client.put(this.prefix + name).value(value));
      await this.client.if(seed.formedKey, 'Create', '==', 0).then(this.client.put(seed.formedKey).value(''), ...puts).commit();
    }
    await this.follow();
    return this.mirror.size === 0 && seed === undefined ? undefined : this.value();
  }

  /** The stored value, its entries in the order they were first stored. */
  private value(): T {
    const ordered = [...this.mirror].sort(([a, x], [b, y]) => (x.createRevision < y.createRevision ? -1 : x.createRevision > y.createRevision ? 1 : a < b ? -1 : a > b ? 1 : 0));
    return this.form.fromEntries(ordered.map(([name, entry]) => [name, entry.value]));
  }

  async save(value: T, previous?: T): Promise<void> {
    // Without `previous`, the change is taken from what this broker last heard etcd hold.
    const before = previous === undefined ? this.form.toEntries(this.value()) : this.form.toEntries(previous);
    const after = this.form.toEntries(value);
    const ops = [
      ...[...after].filter(([name, text]) => before.get(name) !== text).map(([name, text]) => this.client.put(this.prefix + name).value(text)),
      ...[...before.keys()].filter((name) => !after.has(name)).map((name) => this.client.delete().key(this.prefix + name)),
    ];
    let written = 0n;
    for (let at = 0; at < ops.length; at += ETCD_MAX_TXN_OPS) {
      // A txn needs a comparison: a key's version is never negative.
      const txn = await this.client.if(this.prefix, 'Version', '>', -1).then(...ops.slice(at, at + ETCD_MAX_TXN_OPS)).commit();
      // A txn that changed nothing (it deleted only what another broker had deleted) made no revision of its own: its
      // header names the store's latest, which this prefix's watch may never see.
      const changed = txn.responses.some((r) => r.response_put !== undefined && r.response_put !== null || Number(r.response_delete_range?.deleted ?? 0) > 0);
      if (changed) written = BigInt(txn.header.revision);
    }
    if (written === 0n) return;
    await this.seen(written);
    // After the owner's continuation (which takes `value`) has run: it then takes what etcd holds, this change and
    // any other broker's made before it.
    setImmediate(() => this.notify());
  }

  watch(listener: (value: T) => void | Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Stops following etcd (the client is closed by its owner). */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
    await this.watcher?.cancel().catch(() => undefined);
  }

  /** Resolves once the mirror holds `revision`. */
  private seen(revision: bigint): Promise<void> {
    if (this.revision >= revision || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision, resolve }));
  }

  /** The prefix as of one revision, then a watch from the next one, so no change falls between the two. */
  private async follow(): Promise<void> {
    const snapshot = await this.client.getAll().prefix(this.prefix).exec();
    const changed = this.replaceMirror(snapshot.kvs);
    this.advance(BigInt(snapshot.header.revision));
    const watcher = this.client.watch().prefix(this.prefix).startRevision(String(this.revision + 1n)).watcher();
    this.watcher = watcher;
    watcher.on('data', (response: IWatchResponse) => this.apply(response));
    watcher.on('error', (err: Error) => {
      if (this.closed || this.watcher !== watcher) return;
      // etcd cancels a watch whose start revision was compacted (it was away that long): read everything again.
      this.log.warn({ prefix: this.prefix, reason: err.message }, `etcd ended the watch of ${this.form.holds} (${err.message}); reading them again`);
      this.watcher = undefined;
      void watcher.cancel().catch(() => undefined);
      void this.resume(1);
    });
    if (changed) this.notify();
  }

  private async resume(attempt: number): Promise<void> {
    if (this.closed) return;
    try {
      await this.follow();
    } catch (err) {
      this.log.warn({ err, prefix: this.prefix }, `Could not read ${this.form.holds} from etcd again; retrying`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** attempt)));
      await this.resume(attempt + 1);
    }
  }

  /** The mirror becomes exactly `kvs`; whether anything differed. */
  private replaceMirror(kvs: readonly IKeyValue[]): boolean {
    const next = new Map(kvs.map((kv) => [kv.key.toString().slice(this.prefix.length), { value: kv.value.toString(), createRevision: BigInt(kv.create_revision) }]));
    const changed = next.size !== this.mirror.size || [...next].some(([name, entry]) => this.mirror.get(name)?.value !== entry.value);
    this.mirror.clear();
    for (const [name, entry] of next) this.mirror.set(name, entry);
    return changed;
  }

  private apply(response: IWatchResponse): void {
    let changed = false;
    for (const event of response.events) {
      const name = event.kv.key.toString().slice(this.prefix.length);
      if (event.type === 'Put') this.mirror.set(name, { value: event.kv.value.toString(), createRevision: BigInt(event.kv.create_revision) });
      else this.mirror.delete(name);
      changed = true;
      this.advance(BigInt(event.kv.mod_revision));
    }
    // A progress notice (no events) says everything up to its revision was sent; a batch of events caught up after a
    // reconnect may name etcd's latest revision while more of the backlog follows, so it counts by its events alone.
    if (response.events.length === 0) this.advance(BigInt(response.header.revision));
    if (changed) this.notify();
  }

  private advance(revision: bigint): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.revision > revision) return true;
      waiter.resolve();
      return false;
    });
  }

  /** The listeners hear the stored value; one that fails is logged (what it held stays), never awaited here. */
  private notify(): void {
    if (this.listeners.length === 0 || this.closed) return;
    let value: T;
    try {
      value = this.value();
    } catch (err) {
      this.log.error({ err, prefix: this.prefix }, `${this.form.holds} in etcd cannot be read: ${(err as Error).message}`);
      return;
    }
    for (const listener of this.listeners) {
      void Promise.resolve().then(() => listener(value))
        .catch((err: unknown) => this.log.error({ err, prefix: this.prefix }, `Could not apply ${this.form.holds} changed in etcd: ${(err as Error).message}`));
    }
  }
}
