/**
 * The metadata hash Kafka 4.3.1 records with a consumer group's epoch (Utils.computeTopicHash/computeGroupHash): a
 * change of any subscribed topic's id, name, partition count or racks changes it, and a new group epoch follows.
 * The bytes hashed are hash4j's stream encoding (little-endian numbers; a string as its UTF-16 code units then its
 * length), hashed with XXH3-64.
 */
import type { TopicImage, TopicsImage } from './topics-image.js';
import { xxh3 } from './xxh3.js';

class HashInput {
  private readonly parts: Buffer[] = [];

  byte(v: number): this {
    this.parts.push(Buffer.from([v & 0xff]));
    return this;
  }

  int(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v | 0);
    this.parts.push(b);
    return this;
  }

  long(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt.asUintN(64, v));
    this.parts.push(b);
    return this;
  }

  string(s: string): this {
    this.parts.push(Buffer.from(s, 'utf16le'));
    return this.int(s.length);
  }

  hash(): bigint {
    return BigInt.asIntN(64, xxh3(Buffer.concat(this.parts)));
  }
}

/** The topic's hash (a signed 64-bit value, as Kafka's long): magic byte 0, id, name, partitions and their sorted racks. */
export function topicHash(topic: TopicImage): bigint {
  const id = Buffer.from(topic.id, 'base64url');
  const input = new HashInput().byte(0).long(id.readBigUInt64BE(0)).long(id.readBigUInt64BE(8)).string(topic.name).int(topic.numPartitions);
  for (let p = 0; p < topic.numPartitions; p++) {
    input.int(p);
    for (const rack of [...topic.racks(p)].sort()) input.int(rack.length).string(rack);
  }
  return input.hash();
}

/** The group's hash over its topics' hashes in topic name order; 0 for none. */
export function groupHash(topicHashes: ReadonlyMap<string, bigint>): bigint {
  if (topicHashes.size === 0) return 0n;
  const input = new HashInput();
  for (const name of [...topicHashes.keys()].sort()) input.long(topicHashes.get(name)!);
  return input.hash();
}

/** The hash of the subscribed topics that exist in the image (Kafka's ModernGroup.computeMetadataHash). */
export function computeMetadataHash(subscribedTopicNames: Iterable<string>, image: TopicsImage): bigint {
  const hashes = new Map<string, bigint>();
  for (const name of subscribedTopicNames) {
    const topic = image.byName(name);
    if (topic !== undefined) hashes.set(name, topicHash(topic));
  }
  return groupHash(hashes);
}
