// Delegation tokens as Kafka 4.3.1's DelegationTokenControlManager keeps them: enabled by delegation.token.secret.key;
// a token's HMAC is HMAC-SHA512 of its id under that key (never stored: recomputed at load, as Kafka's records hold
// no HMAC), its lifetime bounded by delegation.token.max.lifetime.ms, its expiry moved by renewals within
// delegation.token.expiry.time.ms. Kept in <log.dir>/gregor-delegation-tokens.json (memory engine: in memory; cluster
// mode: etcd, one key per token (TOKEN_ENTRIES), every broker following every change);
// expired tokens are removed every delegation.token.expiry.check.interval.ms, as Kafka's controller sweeps them.
// A client authenticates with one through SCRAM (tokenauth=true): user name the token id, password the HMAC in
// base64, checked against a credential made from it at the mechanism's minimum iterations (DelegationTokenCache).
import { createHmac, randomBytes } from 'node:crypto';
import { entryObject, fileStateStore, memoryStateStore, parseStateFile, type StateEntries, type StateStore } from '../storage/file/state-file.js';
import { randomUuid } from '../protocol/uuid.js';
import { systemScheduler, type Scheduler } from '../storage/scheduler.js';
import { credentialFromSaltedPassword, saltedPassword, type ScramCredential, type ScramMechanism } from './sasl/scram-formatter.js';

export const DELEGATION_TOKENS_FILE = 'gregor-delegation-tokens.json';
const FORMAT_VERSION = 1;

/** A principal as Kafka's KafkaPrincipal: type (User) and name. */
export interface Principal { readonly type: string; readonly name: string }

export interface TokenInformation {
  readonly tokenId: string;
  readonly owner: Principal;
  readonly requester: Principal;
  readonly renewers: readonly Principal[];
  readonly issueTimestamp: number;
  readonly maxTimestamp: number;
  readonly expiryTimestamp: number;
}

export interface DelegationToken extends TokenInformation {
  readonly hmac: Buffer;
}

export type DelegationTokenStore = StateStore<readonly TokenInformation[]>;

export function memoryDelegationTokenStore(): DelegationTokenStore {
  return memoryStateStore('stored delegation tokens', (tokens) => [...tokens]);
}

export function fileDelegationTokenStore(logDir: string): DelegationTokenStore {
  return fileStateStore(logDir, DELEGATION_TOKENS_FILE, (tokens) => JSON.stringify({ version: FORMAT_VERSION, tokens }, null, 2) + '\n', parseTokens);
}

const TOKEN_FIELDS = 'must hold tokenId, owner, requester, renewers and the issue, max and expiry timestamps';

function parseTokens(text: string, path: string): TokenInformation[] {
  const { record, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the delegation tokens');
  const tokens = record['tokens'];
  if (!Array.isArray(tokens)) return fail('"tokens" must be an array');
  return tokens.map((t: unknown, i) => tokenOf(t) ?? fail(`tokens[${i}] ${TOKEN_FIELDS}`));
}

function tokenOf(entry: unknown): TokenInformation | undefined {
  const t = entry as Record<string, unknown>;
  const principal = (p: unknown): p is Principal => typeof p === 'object' && p !== null && typeof (p as Principal).type === 'string' && typeof (p as Principal).name === 'string';
  if (typeof t !== 'object' || t === null || typeof t['tokenId'] !== 'string' || !principal(t['owner']) || !principal(t['requester']) ||
      !Array.isArray(t['renewers']) || !t['renewers'].every(principal) ||
      !['issueTimestamp', 'maxTimestamp', 'expiryTimestamp'].every((k) => Number.isSafeInteger(t[k]))) {
    return undefined;
  }
  return t as unknown as TokenInformation;
}

/** Cluster mode: one entry per token, named by its id (no HMAC: each broker computes it from the shared secret). */
export const TOKEN_ENTRIES: StateEntries<readonly TokenInformation[]> = {
  holds: 'the delegation tokens',
  toEntries: (tokens) => new Map(tokens.map((t) => [encodeURIComponent(t.tokenId), JSON.stringify(t)])),
  fromEntries: (entries) => [...entries].map(([name, value]) =>
    tokenOf(entryObject('the delegation tokens', name, value)) ?? ((): never => { throw new Error(`the delegation tokens: entry ${name} ${TOKEN_FIELDS}`); })()),
};

export interface DelegationTokenSettings {
  /** delegation.token.secret.key; null: tokens disabled. */
  readonly secretKey: string | null;
  readonly maxLifetimeMs: number;
  readonly expiryTimeMs: number;
}

export type TokenResult<T> = { readonly error: 'NONE'; readonly value: T } | { readonly error: 'DELEGATION_TOKEN_AUTH_DISABLED' | 'DELEGATION_TOKEN_NOT_FOUND' | 'DELEGATION_TOKEN_EXPIRED' | 'DELEGATION_TOKEN_OWNER_MISMATCH' | 'INVALID_PRINCIPAL_TYPE' };

/** What SCRAM authentication with a token checks: the credential, whose the token is, when it expires. */
export interface TokenCredential {
  readonly credential: ScramCredential;
  readonly owner: string;
  readonly expiryTimestamp: number;
}

const samePrincipal = (a: Principal, b: Principal) => a.type === b.type && a.name === b.name;
const sum = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER);

export class DelegationTokens {
  /** SCRAM credentials made from a token's HMAC, by token id and mechanism; made on first use. */
  private readonly credentials = new Map<string, ScramCredential>();

  private constructor(private readonly store: DelegationTokenStore, private readonly settings: DelegationTokenSettings,
    private tokens: Map<string, TokenInformation>, private readonly now: () => number) {}

  static async open(store: DelegationTokenStore, settings: DelegationTokenSettings, now: () => number = Date.now): Promise<DelegationTokens> {
    const loaded = (await store.load()) ?? [];
    const tokens = new DelegationTokens(store, settings, new Map(loaded.map((t) => [t.tokenId, t])), now);
    // Cluster mode: a token created, renewed or expired through another broker counts here too.
    store.watch?.((stored) => tokens.take(new Map(stored.map((t) => [t.tokenId, t]))));
    return tokens;
  }

  /** The tokens as now held; the credentials of those gone are dropped. */
  private take(next: Map<string, TokenInformation>): void {
    this.tokens = next;
    for (const key of [...this.credentials.keys()]) if (!next.has(key.slice(0, key.lastIndexOf('/')))) this.credentials.delete(key);
  }

  get enabled(): boolean {
    return this.settings.secretKey !== null && this.settings.secretKey !== '';
  }

  /** Kafka's createHmac: HMAC-SHA512 of the token id, keyed by the secret's UTF-8 bytes. */
  private hmacOf(tokenId: string): Buffer {
    return createHmac('sha512', Buffer.from(this.settings.secretKey!, 'utf8')).update(tokenId, 'utf8').digest();
  }

  private byHmac(hmac: Buffer): TokenInformation | undefined {
    for (const token of this.tokens.values()) if (this.hmacOf(token.tokenId).equals(hmac)) return token;
    return undefined;
  }

  private async replace(token: TokenInformation | null, removeId?: string): Promise<void> {
    const next = new Map(this.tokens);
    if (removeId !== undefined) next.delete(removeId);
    if (token !== null) next.set(token.tokenId, token);
    await this.store.save([...next.values()], [...this.tokens.values()]);
    this.take(next);
  }

  async create(requester: Principal, owner: Principal, renewers: readonly Principal[], maxLifetimeMs: number): Promise<TokenResult<DelegationToken>> {
    if (!this.enabled) return { error: 'DELEGATION_TOKEN_AUTH_DISABLED' };
    const now = this.now();
    const maxLifetime = maxLifetimeMs > 0 ? Math.min(this.settings.maxLifetimeMs, maxLifetimeMs) : this.settings.maxLifetimeMs;
    const maxTimestamp = sum(now, maxLifetime);
    const expiryTimestamp = Math.min(maxTimestamp, sum(now, this.settings.expiryTimeMs));
    if (renewers.some((r) => r.type !== 'User')) return { error: 'INVALID_PRINCIPAL_TYPE' };
    // Kafka's Uuid.toString() for the id, as its controller makes it.
    const token: TokenInformation = { tokenId: randomUuid(), owner, requester, renewers: [...renewers], issueTimestamp: now, maxTimestamp, expiryTimestamp };
    await this.replace(token);
    return { error: 'NONE', value: { ...token, hmac: this.hmacOf(token.tokenId) } };
  }

  async renew(requester: Principal, hmac: Buffer, renewPeriodMs: number): Promise<TokenResult<number>> {
    if (!this.enabled) return { error: 'DELEGATION_TOKEN_AUTH_DISABLED' };
    const now = this.now();
    const token = this.byHmac(hmac);
    if (token === undefined) return { error: 'DELEGATION_TOKEN_NOT_FOUND' };
    if (token.maxTimestamp < now || token.expiryTimestamp < now) return { error: 'DELEGATION_TOKEN_EXPIRED' };
    if (!this.allowedToRenew(token, requester)) return { error: 'DELEGATION_TOKEN_OWNER_MISMATCH' };
    const period = renewPeriodMs > 0 ? Math.min(this.settings.expiryTimeMs, renewPeriodMs) : this.settings.expiryTimeMs;
    const expiryTimestamp = Math.min(token.maxTimestamp, sum(now, period));
    await this.replace({ ...token, expiryTimestamp });
    return { error: 'NONE', value: expiryTimestamp };
  }

  async expire(requester: Principal, hmac: Buffer, expiryTimePeriodMs: number): Promise<TokenResult<number>> {
    if (!this.enabled) return { error: 'DELEGATION_TOKEN_AUTH_DISABLED' };
    const now = this.now();
    const token = this.byHmac(hmac);
    if (token === undefined) return { error: 'DELEGATION_TOKEN_NOT_FOUND' };
    if (!this.allowedToRenew(token, requester)) return { error: 'DELEGATION_TOKEN_OWNER_MISMATCH' };
    if (expiryTimePeriodMs < 0) {
      await this.replace(null, token.tokenId);
      return { error: 'NONE', value: now };
    }
    if (token.maxTimestamp < now || token.expiryTimestamp < now) return { error: 'DELEGATION_TOKEN_EXPIRED' };
    const expiryTimestamp = Math.min(token.maxTimestamp, sum(now, expiryTimePeriodMs));
    await this.replace({ ...token, expiryTimestamp });
    return { error: 'NONE', value: expiryTimestamp };
  }

  /** Every token (with its HMAC) that `include` keeps, in the order they were made. */
  describe(include: (token: TokenInformation) => boolean): DelegationToken[] {
    return [...this.tokens.values()].filter(include).map((t) => ({ ...t, hmac: this.hmacOf(t.tokenId) }));
  }

  /** Kafka's sweepExpiredDelegationTokens: removes tokens past their expiry or maximum; returns their ids. */
  async sweep(): Promise<TokenInformation[]> {
    const now = this.now();
    const expired = [...this.tokens.values()].filter((t) => t.maxTimestamp < now || t.expiryTimestamp < now);
    if (expired.length === 0) return [];
    const next = new Map(this.tokens);
    for (const t of expired) next.delete(t.tokenId);
    await this.store.save([...next.values()], [...this.tokens.values()]);
    this.take(next);
    return expired;
  }

  /** Sweeps every `intervalMs` (delegation.token.expiry.check.interval.ms) while the broker runs; returns the stop. */
  startSweeping(intervalMs: number, onExpired: (token: TokenInformation) => void, scheduler: Scheduler = systemScheduler): () => void {
    return scheduler.every(Math.min(intervalMs, 2 ** 31 - 1), () => {
      this.sweep().then((expired) => expired.forEach(onExpired), () => {
        // A failed save keeps the tokens; the next sweep tries again.
      });
    });
  }

  /** The SCRAM credential of a token, for authentication with tokenauth=true; undefined when there is no such token. */
  credential(tokenId: string, mechanism: ScramMechanism): TokenCredential | undefined {
    if (!this.enabled) return undefined;
    const token = this.tokens.get(tokenId);
    if (token === undefined) return undefined;
    const key = `${tokenId}/${mechanism.name}`;
    let credential = this.credentials.get(key);
    if (credential === undefined) {
      const salt = randomBytes(16);
      const password = this.hmacOf(tokenId).toString('base64');
      credential = credentialFromSaltedPassword(mechanism, salt, saltedPassword(mechanism, password, salt, mechanism.minIterations), mechanism.minIterations);
      this.credentials.set(key, credential);
    }
    return { credential, owner: token.owner.name, expiryTimestamp: token.expiryTimestamp };
  }

  private allowedToRenew(token: TokenInformation, principal: Principal): boolean {
    return samePrincipal(token.owner, principal) || token.renewers.some((r) => samePrincipal(r, principal));
  }
}

/** A KafkaPrincipal's text ("User:alice") as type and name. */
export function principalOf(text: string): Principal {
  const at = text.indexOf(':');
  return { type: text.slice(0, at), name: text.slice(at + 1) };
}
