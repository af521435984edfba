/** Java's String.hashCode (UTF-16 code units, int32 overflow), which Kafka uses to place a group. */
export function javaStringHashCode(value: string): number {
  let hash = 0;
  for (let i = 0; i < value.length; i++) hash = (Math.imul(hash, 31) + value.charCodeAt(i)) | 0;
  return hash;
}

/** Integer.hashCode. */
export function javaIntegerHash(value: number): number {
  return value | 0;
}

/** Kafka's Uuid.hashCode over its text form: the xor of the four big-endian int32 words of its 16 bytes (0 for text that is no uuid). */
export function javaUuidHash(uuid: string): number {
  const b = Buffer.from(uuid, 'base64url');
  if (b.length !== 16) return 0;
  return b.readInt32BE(0) ^ b.readInt32BE(4) ^ b.readInt32BE(8) ^ b.readInt32BE(12);
}

/** Kafka's Utils.abs: Integer.MIN_VALUE maps to 0 rather than staying negative. */
export function kafkaAbs(value: number): number {
  return value === -2147483648 ? 0 : Math.abs(value);
}

/** The __consumer_offsets partition that owns a group: Utils.abs(groupId.hashCode()) % partitions. */
export function partitionForGroup(groupId: string, partitions: number): number {
  return kafkaAbs(javaStringHashCode(groupId)) % partitions;
}
