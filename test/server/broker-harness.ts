// Starts an in-process broker on an ephemeral loopback port, and speaks to it with the generated codec.
import { resolveBrokerConfig } from '../../src/config/index.js';
import type { ApiDescriptor } from '../../src/protocol/generated/index.js';
import { decodeResponseHeader, encodeRequestHeader, requestHeaderVersion, responseHeaderVersion } from '../../src/protocol/generated/headers.js';
import { Reader } from '../../src/protocol/io/reader.js';
import { Writer } from '../../src/protocol/io/writer.js';
import { startBroker, type Broker, type BrokerOptions } from '../../src/server/broker.js';
import { httpServer } from '../../src/http/lazy-start.js';
import { RawClient } from './raw-client.js';

export async function startTestBroker(settings: Record<string, string> = {}, options: BrokerOptions = {}): Promise<Broker & { port: number }> {
  // Memory engine unless a test asks otherwise: tests must not share the configured log.dirs.
  const config = resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory', ...settings });
  const broker = await startBroker(config, { httpServer, ...options });
  return Object.assign(broker, { port: broker.addresses[0]!.port });
}

/** A request frame body: header (the version the API and version call for) then the encoded request. */
export function encodeRequest<Req>(api: ApiDescriptor<Req, unknown>, version: number, request: Req, correlationId: number, clientId: string | null = 'test-client'): Buffer {
  const w = new Writer();
  encodeRequestHeader(w, { requestApiKey: api.apiKey, requestApiVersion: version, correlationId, clientId }, requestHeaderVersion(api.apiKey, version));
  api.encodeRequest(w, request, version);
  return w.toBuffer();
}

/** Decodes a response frame; checks that the whole frame was consumed. */
export function decodeResponse<Res>(api: ApiDescriptor<unknown, Res>, version: number, frame: Buffer): { correlationId: number; response: Res } {
  const r = new Reader(frame);
  const { correlationId } = decodeResponseHeader(r, responseHeaderVersion(api.apiKey, version));
  const response = api.decodeResponse(r, version);
  if (r.remaining !== 0) throw new Error(`${r.remaining} bytes left after the ${api.name} v${version} response`);
  return { correlationId, response };
}

let nextCorrelationId = 1;

/** Sends one request and reads its response. */
export async function roundTrip<Req, Res>(client: RawClient, api: ApiDescriptor<Req, Res>, version: number, request: Req): Promise<Res> {
  const correlationId = nextCorrelationId++;
  client.send(encodeRequest(api, version, request, correlationId));
  const decoded = decodeResponse(api, version, await client.read());
  if (decoded.correlationId !== correlationId) throw new Error(`correlation id ${decoded.correlationId}, expected ${correlationId}`);
  return decoded.response;
}
