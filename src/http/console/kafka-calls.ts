/**
 * The console's changes and group/transaction reads go through the broker's own Kafka APIs, in-process: each
 * call is encoded as a request frame and handed to the same dispatch a client connection uses (router.ts), so
 * authorization, validation, error codes and messages are exactly what a Kafka admin client would get.
 * The console connects as User:ANONYMOUS: with an authorizer, it may do what ACLs allow that principal.
 */
import { Reader } from '../../protocol/io/reader.js';
import { Writer } from '../../protocol/io/writer.js';
import { decodeResponseHeader, encodeRequestHeader, requestHeaderVersion, responseHeaderVersion } from '../../protocol/generated/headers.js';
import type { ApiDescriptor } from '../../protocol/generated/index.js';
import { errorName } from '../../protocol/error-codes.js';
import { createDispatch } from '../../server/router.js';
import type { BrokerState } from '../../server/handler.js';
import type { ConnectionInfo, Dispatch } from '../../server/connection.js';
import { ANONYMOUS } from '../../security/principal.js';
import { ResourceType } from '../../security/authorizer/acl.js';

export const CONSOLE_CLIENT_ID = 'gregor-console';
/** The console's requests come from the broker's own host, for ACLs that name a host. */
const CONSOLE_HOST = '127.0.0.1';

/** A Kafka error code answered by an API, as the console's JSON API reports it (HTTP 4xx/5xx with this body). */
export class KafkaCallError extends Error {
  readonly errorName: string;
  constructor(readonly code: number, message: string | null = null) {
    super(message === null || message === '' ? errorName(code) : `${errorName(code)}: ${message}`);
    this.errorName = errorName(code);
  }
}

/** A request the console itself refuses, as Kafka's command-line tool would (no Kafka error code). */
export class ConsoleRefusal extends Error {}

/** Throws KafkaCallError for a non-zero code (the first one found), as an admin client's future would fail. */
export function checkError(code: number, message: string | null = null): void {
  if (code !== 0) throw new KafkaCallError(code, message);
}

export class KafkaCalls {
  private readonly dispatch: Dispatch;
  private readonly connection: ConnectionInfo;
  private correlationId = 0;

  constructor(private readonly broker: BrokerState) {
    this.dispatch = createDispatch(broker);
    this.connection = {
      id: -1,
      listenerName: 'CONSOLE',
      principal: ANONYMOUS,
      securityProtocol: 'PLAINTEXT',
      tokenAuthenticated: false,
      remote: `${CONSOLE_HOST}:0`,
      clientId: CONSOLE_CLIENT_ID,
      clientSoftwareName: null,
      clientSoftwareVersion: null,
      closed: new AbortController().signal,
      throttle: () => {},
    };
  }

  /**
   * Whether the console's principal may do `operation` on a topic: what the console reads from the logs itself (the
   * browser, the tail, the topic list) is checked as Fetch (READ) and Metadata (DESCRIBE) check it.
   */
  allowedOnTopic(operation: number, topic: string): boolean {
    return this.broker.authorizer?.authorize({ principal: ANONYMOUS, host: CONSOLE_HOST }, operation, ResourceType.TOPIC, topic) ?? true;
  }

  /** One request of `api` at `version`, answered by the broker's handler for it. */
  async call<Req, Res>(api: ApiDescriptor<Req, Res>, version: number, request: Req): Promise<Res> {
    const correlationId = ++this.correlationId;
    const w = new Writer();
    encodeRequestHeader(w, { requestApiKey: api.apiKey, requestApiVersion: version, correlationId, clientId: CONSOLE_CLIENT_ID },
      requestHeaderVersion(api.apiKey, version));
    api.encodeRequest(w, request, version);
    const frames = await this.dispatch(w.toBuffer(), this.connection);
    if (frames === null) throw new Error(`${api.name} answered nothing`);
    // The frame is size-prefixed; the console reads it whole.
    const frame = Buffer.concat(frames as Buffer[]).subarray(4);
    const r = new Reader(frame);
    decodeResponseHeader(r, responseHeaderVersion(api.apiKey, version));
    return api.decodeResponse(r, version);
  }
}
