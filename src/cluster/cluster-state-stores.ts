/**
 * Where cluster mode keeps the metadata a single broker keeps in its own files (dynamic broker configs, group and
 * client metrics configs, ACLs, SCRAM credentials, client quotas, delegation tokens): etcd, one EtcdStateStore per area, under
 * /<gregor.cluster.name>/ (layout.ts lists every area). Opened before the dynamic configs are read, so on its own
 * etcd client (etcd-cluster.ts connects later, once the log dir is to be opened). Loaded only in cluster mode.
 */
import type { Etcd3 } from 'etcd3';
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import type { StateEntries } from '../storage/file/state-file.js';
import { EtcdStateStore } from './etcd-state-store.js';
import { ClusterKeys } from './layout.js';

/** The areas under the cluster's root, one per piece of metadata. */
export type StateArea = 'broker-configs' | 'resource-configs' | 'acls' | 'scram-credentials' | 'client-quotas' | 'delegation-tokens';

export class ClusterStateStores {
  private readonly stores: EtcdStateStore<unknown>[] = [];

  private constructor(private readonly client: Etcd3, private readonly keys: ClusterKeys, private readonly log: Log) {}

  /** Reaches etcd (gregor.cluster.etcd.endpoints); a one-line Error when it cannot. */
  static async connect(config: BrokerConfig, log: Log): Promise<ClusterStateStores> {
    const endpoints = config['gregor.cluster.etcd.endpoints'] ?? [];
    const { Etcd3: Client } = await import('etcd3');
    const client = new Client({ hosts: [...endpoints], dialTimeout: 5000 });
    try {
      await client.get('/').exec();
    } catch (err) {
      client.close();
      throw new Error(`gregor.cluster.etcd.endpoints: cannot use etcd at ${endpoints.join(',')}: ${(err as Error).message}`);
    }
    return new ClusterStateStores(client, new ClusterKeys(config['gregor.cluster.name']), log);
  }

  /** The area's store; `seed` is written once, by the first broker of the cluster to load it. */
  store<T>(area: StateArea, form: StateEntries<T>, seed?: T): EtcdStateStore<T> {
    const store = new EtcdStateStore(this.client, `${this.keys.root}${area}/`, form, this.log,
      seed === undefined ? {} : { seed: { formedKey: `${this.keys.root}formed/${area}`, value: seed } });
    this.stores.push(store as EtcdStateStore<unknown>);
    return store;
  }

  async close(): Promise<void> {
    await Promise.all(this.stores.map((store) => store.close()));
    this.client.close();
  }
}
