// Producer id blocks from etcd in cluster mode: one counter (layout: producer-ids) holds the next block's start and
// each reservation is a txn comparing its mod revision (creating it when absent), so two brokers reserving at once
// get different blocks: the loser reads again. The reservation is in etcd before any id of it is used.
import type { Etcd3 } from 'etcd3';
import type { ProducerIdBlockStore } from '../coordinator/producer-ids.js';
import type { ClusterKeys } from './layout.js';

export class EtcdProducerIdBlocks implements ProducerIdBlockStore {
  constructor(
    private readonly client: Etcd3,
    private readonly keys: ClusterKeys,
  ) {}

  async reserve(size: number): Promise<number> {
    const key = this.keys.producerIds;
    for (;;) {
      const kv = (await this.client.get(key).exec()).kvs[0];
      const start = kv === undefined ? 0 : Number(kv.value.toString());
      if (!Number.isSafeInteger(start) || start < 0) throw new Error(`etcd ${key}: not a producer id block start: ${JSON.stringify(kv!.value.toString())}`);
      const next = String(start + size);
      const reserved = kv === undefined
        ? await this.client.if(key, 'Create', '==', 0).then(this.client.put(key).value(next)).commit()
        : await this.client.if(key, 'Mod', '==', kv.mod_revision).then(this.client.put(key).value(next)).commit();
      if (reserved.succeeded) return start;
    }
  }
}
