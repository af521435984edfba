// The formats the registry serves, loaded on first use: Avro (avsc), JSON Schema (ajv) and Protobuf (protobufjs).
import type { Providers } from './registry.js';

export async function loadProviders(): Promise<Providers> {
  const [{ avroProvider }, { jsonProvider }, { protobufProvider }] = await Promise.all([
    import('./avro/avro-schema.js'), import('./json/json-schema.js'), import('./protobuf/protobuf-schema.js'),
  ]);
  return { AVRO: avroProvider, JSON: jsonProvider, PROTOBUF: protobufProvider };
}
