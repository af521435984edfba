// A raw SASL client for the authenticator tests: each step sends one request (or raw token) and records what came
// back, decoded to the fields that matter, or that the connection was closed. The same steps run against Kafka
// 4.3.1's reference broker gave the observations the tests assert.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { apiVersionsApi, createApiVersionsRequest } from '../../src/protocol/generated/api-versions.js';
import { createMetadataRequest, metadataApi } from '../../src/protocol/generated/metadata.js';
import { saslAuthenticateApi } from '../../src/protocol/generated/sasl-authenticate.js';
import { saslHandshakeApi } from '../../src/protocol/generated/sasl-handshake.js';
import type { ApiDescriptor } from '../../src/protocol/generated/api-descriptor.js';
import { decodeResponse, encodeRequest } from './broker-harness.js';
import { RawClient } from './raw-client.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';

export type Observation = string;

let correlation = 1000;

export class SaslProbe {
  private constructor(readonly client: RawClient) {}

  static async connect(port: number): Promise<SaslProbe> {
    return new SaslProbe(await RawClient.connect(port));
  }

  private async request<Req, Res>(api: ApiDescriptor<Req, Res>, version: number, request: Req, show: (res: Res) => string): Promise<Observation> {
    this.client.send(encodeRequest(api, version, request, ++correlation));
    try {
      return show(decodeResponse(api, version, await this.client.read()).response);
    } catch (err) {
      if (this.client.closed) return 'closed';
      throw err;
    }
  }

  apiVersions(version = 3): Promise<Observation> {
    return this.request(apiVersionsApi, version, { ...createApiVersionsRequest(), clientSoftwareName: 'probe', clientSoftwareVersion: '1' },
      (r) => `ApiVersions error ${r.errorCode}`);
  }

  metadata(version = 12): Promise<Observation> {
    return this.request(metadataApi, version, { ...createMetadataRequest(), topics: [{ topicId: ZERO_UUID, name: 'probe-topic' }], allowAutoTopicCreation: false },
      (r) => `Metadata topics ${r.topics.map((t) => `${t.name}:${t.errorCode}`).join(',')}`);
  }

  handshake(mechanism: string, version = 1): Promise<Observation> {
    return this.request(saslHandshakeApi, version, { mechanism }, (r) => `SaslHandshake error ${r.errorCode} mechanisms ${r.mechanisms.join(',')}`);
  }

  /** One SaslAuthenticate; the answer's bytes are kept in `lastAuthBytes`. */
  lastAuthBytes: Buffer = Buffer.alloc(0);
  authenticate(token: Buffer, version = 2): Promise<Observation> {
    return this.request(saslAuthenticateApi, version, { authBytes: token }, (r) => {
      this.lastAuthBytes = r.authBytes;
      return `SaslAuthenticate error ${r.errorCode} message ${r.errorMessage} lifetime ${version >= 1 ? r.sessionLifetimeMs : '-'}`;
    });
  }

  /** A raw token after a v0 handshake: its answer is a size-prefixed raw token. */
  async rawToken(token: Buffer): Promise<Observation> {
    this.client.send(token);
    try {
      this.lastAuthBytes = await this.client.read();
      return `raw ${this.lastAuthBytes.length} bytes`;
    } catch (err) {
      if (this.client.closed) return 'closed';
      throw err;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

export function plainToken(user: string, password: string, authzid = ''): Buffer {
  return Buffer.from(`${authzid}\u0000${user}\u0000${password}`, 'utf8');
}

/** The client side of SCRAM (RFC 5802), to drive the exchange by hand. */
export class ScramClient {
  private readonly nonce = randomBytes(18).toString('base64');
  private clientFirstBare = '';
  constructor(private readonly hash: 'sha256' | 'sha512', private readonly user: string, private readonly password: string, private readonly extensions = '') {}

  first(): Buffer {
    this.clientFirstBare = `n=${this.user},r=${this.nonce}${this.extensions}`;
    return Buffer.from(`n,,${this.clientFirstBare}`);
  }

  /** `nonce` rewrites the nonce the final message carries (and signs), to play a client that gets it wrong. */
  final(serverFirst: Buffer, nonce: (serverNonce: string) => string = (n) => n): Buffer {
    const text = serverFirst.toString();
    const fields = new Map(text.split(',').map((f) => [f[0]!, f.slice(2)]));
    const salted = pbkdf2Sync(this.password, Buffer.from(fields.get('s')!, 'base64'), Number(fields.get('i')), this.hash === 'sha256' ? 32 : 64, this.hash);
    const clientKey = createHmac(this.hash, salted).update('Client Key').digest();
    const storedKey = createHash(this.hash).update(clientKey).digest();
    const withoutProof = `c=biws,r=${nonce(fields.get('r')!)}`;
    const signature = createHmac(this.hash, storedKey).update(`${this.clientFirstBare},${text},${withoutProof}`).digest();
    const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!));
    return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`);
  }
}

/** Runs each scenario on a connection of its own and keeps what it observed, by name. */
export async function runEach(port: number, scenarios: Record<string, (p: SaslProbe) => Promise<Observation[]>>): Promise<Record<string, Observation[]>> {
  const results: Record<string, Observation[]> = {};
  for (const [name, scenario] of Object.entries(scenarios)) {
    const probe = await SaslProbe.connect(port);
    try {
      results[name] = await scenario(probe);
    } finally {
      await probe.close();
    }
  }
  return results;
}
