// A leader's ISR change written to etcd as Kafka's AlterPartition is applied by its controller: accepted only while
// the partition is as the leader knows it (same leader, leader epoch and partition epoch: else
// FENCED_LEADER_EPOCH / INVALID_UPDATE_VERSION), the new ISR a subset of the replicas holding the leader, the
// partition epoch bumped; one txn comparing the key's mod revision, so no concurrent change is lost.
import type { Etcd3 } from 'etcd3';
import type { ClusterKeys, PartitionRecord } from './layout.js';

export type AlterPartitionResult =
  | { readonly ok: true; readonly record: PartitionRecord }
  | { readonly ok: false; readonly error: 'UNKNOWN_TOPIC_OR_PARTITION' | 'FENCED_LEADER_EPOCH' | 'INVALID_UPDATE_VERSION' | 'INVALID_REQUEST' };

export async function alterPartitionIsr(client: Etcd3, keys: ClusterKeys, topic: string, index: number, known: PartitionRecord, isr: readonly number[]): Promise<AlterPartitionResult> {
  const key = keys.partition(topic, index);
  const kv = (await client.get(key).exec()).kvs[0];
  if (kv === undefined) return { ok: false, error: 'UNKNOWN_TOPIC_OR_PARTITION' };
  const current = JSON.parse(kv.value.toString()) as PartitionRecord;
  if (current.leader !== known.leader || current.leaderEpoch !== known.leaderEpoch) return { ok: false, error: 'FENCED_LEADER_EPOCH' };
  if (current.partitionEpoch !== known.partitionEpoch) return { ok: false, error: 'INVALID_UPDATE_VERSION' };
  if (!isr.includes(current.leader) || isr.some((r) => !current.replicas.includes(r))) return { ok: false, error: 'INVALID_REQUEST' };
  // The ISR in the leader's order (a replica that joins goes last), as Kafka's controller takes it.
  // A replica back in the ISR leaves the ELR (the controller's pass clears the rest once the ISR reaches min.insync.replicas).
  const elr = current.elr === undefined ? {} : { elr: current.elr.filter((r) => !isr.includes(r)) };
  const record: PartitionRecord = { ...current, isr: [...isr], ...elr, partitionEpoch: current.partitionEpoch + 1 };
  const written = await client.if(key, 'Mod', '==', kv.mod_revision).then(client.put(key).value(JSON.stringify(record))).commit();
  return written.succeeded ? { ok: true, record } : { ok: false, error: 'INVALID_UPDATE_VERSION' };
}
