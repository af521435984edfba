/**
 * One client connection: framing, strictly ordered responses, backpressure and the idle timer.
 *
 * Requests are dispatched synchronously in arrival order. Each gets a slot in a response queue
 * (advanced by an index cursor, never shift()); a slot completes when its handler's response is
 * encoded, and completed slots are written from the head only, so responses leave in request order
 * even when a later handler finishes first. A request with no response (acks=0 Produce) completes
 * its slot at once with nothing to write.
 *
 * Reading pauses while `maxInFlight` requests, or `maxInFlightBytes` of request frames, await their
 * turn; while the responses queued for the client (the socket's unsent bytes plus responses done but
 * held behind an earlier one) reach the socket's write high-water mark, until the client drains them;
 * while a request of a `oneAtATime` API (Fetch: its response is as large as the client asks) is being
 * handled; and while the broker-wide RequestBudget (queued.max.requests) is spent. It resumes when all
 * clear. So a pipelining client (librdkafka keeps up to a million requests in flight) makes the broker
 * hold bounded bytes, and one that never reads holds at most the high-water mark plus one response of
 * each kind in flight; one request of any allowed size is always taken. Kafka reads one request at a time
 * per connection and mutes it while a response is unsent; gregor keeps pipelining within these bounds.
 * A client over its quota is muted as Kafka mutes its channel (KIP-219): throttle(ms) stops reading for that long,
 * the response that says so leaving at once.
 * A closed connection drops its queues and aborts `info.closed`, which cancels its parked long polls.
 */
import type { Socket } from 'node:net';
import type { Log } from '../log.js';
import { FrameDecoder, FrameError } from './frame-decoder.js';
import { UNBOUNDED_REQUESTS, type RequestBudget } from './request-budget.js';

/** What the server knows about the peer; client fields fill in as requests arrive. */
export interface ConnectionInfo {
  readonly id: number;
  readonly listenerName: string;
  /**
   * Who the peer is, as Kafka's KafkaPrincipal prints it: User:<name> once SASL authentication completes
   * (server/sasl-gate.ts), else from the client certificate on an SSL listener (ssl.principal.mapping.rules), else
   * User:ANONYMOUS. The authorizer reads it.
   */
  principal: string;
  /** The listener's security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL). */
  readonly securityProtocol: string;
  /** Authenticated with a delegation token (Kafka's KafkaPrincipal.tokenAuthenticated): it may not ask for tokens. */
  tokenAuthenticated: boolean;
  /** "host:port" of the peer. */
  readonly remote: string;
  clientId: string | null;
  clientSoftwareName: string | null;
  clientSoftwareVersion: string | null;
  /** Aborted once the connection is closed: a handler that waits (a long poll) stops waiting. */
  readonly closed: AbortSignal;
  /** Mutes the connection: no request is read for `ms` (a quota's throttle time; server/throttle.ts). */
  readonly throttle: (ms: number) => void;
}

/** Encoded response bytes (size prefix included), or null for a request that gets no response. */
export type ResponseBytes = readonly Buffer[] | null;

/** Thrown by a dispatcher to close this connection (and only it), with a reason for the log. */
export class CloseConnection extends Error {
  /** `injected`: a fault rule closes it (server/faults/), logged there, so no warning here. */
  constructor(reason: string, readonly injected = false) {
    super(reason);
    this.name = 'CloseConnection';
  }
}

/** Turns one frame into its response. Runs synchronously at arrival; may finish later via the promise. */
export type Dispatch = (frame: Buffer, connection: ConnectionInfo) => ResponseBytes | Promise<ResponseBytes>;

export interface ConnectionLimits {
  /** socket.request.max.bytes: largest frame accepted, checked from the size prefix. */
  readonly maxRequestBytes: number;
  /** Requests dispatched but not yet written before reading pauses. */
  readonly maxInFlight: number;
  /** Bytes of the frames of those requests before reading pauses. */
  readonly maxInFlightBytes: number;
  /** connections.max.idle.ms; 0 or less disables the idle close. */
  readonly idleMs: number;
  /** Api keys taken one request at a time: nothing more is read while one is being handled. */
  readonly oneAtATime?: ReadonlySet<number>;
  /** Broker-wide bound on requests being handled (queued.max.requests). */
  readonly requests?: RequestBudget;
}

interface Slot {
  done: boolean;
  bytes: ResponseBytes;
  /** Bytes of the response once done, counted in heldBytes until written. */
  size: number;
  /** Size of the request frame, counted in inFlightBytes until the response is written. */
  frameSize: number;
}

export class Connection {
  private readonly decoder: FrameDecoder;
  private slots: Slot[] = [];
  private head = 0;
  private inFlightBytes = 0;
  /** Bytes of responses done but waiting behind an earlier one. */
  private heldBytes = 0;
  /** A oneAtATime request is being handled. */
  private soloInProgress = false;
  private writeBlocked = false;
  /** Muted for a quota's throttle time: nothing is read until the timer ends it. */
  private throttleTimer: NodeJS.Timeout | null = null;
  private throttledUntil = 0;
  private pumping = false;
  private closed = false;
  /** Set by close(): stop taking requests, finish the ones in flight, then end. */
  private draining = false;
  /** The last responses are handed to the socket, its end is under way. */
  private ending = false;
  /** Resolves once the socket is closed, for whatever reason. */
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  readonly info: ConnectionInfo;
  private readonly closedController = new AbortController();
  private readonly requests: RequestBudget;
  private readonly wake = () => this.pump();

  constructor(
    private readonly socket: Socket,
    info: Omit<ConnectionInfo, 'closed' | 'throttle'>,
    private readonly dispatch: Dispatch,
    private readonly limits: ConnectionLimits,
    private readonly log: Log,
  ) {
    this.info = Object.assign(info, { closed: this.closedController.signal, throttle: (ms: number) => this.throttle(ms) });
    this.requests = limits.requests ?? UNBOUNDED_REQUESTS;
    this.decoder = new FrameDecoder(limits.maxRequestBytes);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      this.writeBlocked = false;
      this.pump();
    });
    socket.on('error', (err) => this.log.debug({ client: this.describe(), err: err.message }, 'socket error'));
    socket.on('close', () => this.onClosed());
    if (limits.idleMs > 0) {
      socket.setTimeout(limits.idleMs);
      socket.on('timeout', () => this.onIdle());
    }
  }

  /** Requests taken off the wire whose responses are not yet written. */
  get inFlight(): number {
    return this.slots.length - this.head;
  }

  /**
   * Response bytes the client has not taken: unsent socket bytes plus responses done and held behind an
   * earlier one. Reading pauses while this reaches the socket's write high-water mark.
   */
  get queuedResponseBytes(): number {
    return this.closed ? 0 : this.socket.writableLength + this.heldBytes;
  }

  /** Stops reading, answers what is in flight, then closes. Resolves once the socket is closed. */
  close(): Promise<void> {
    if (!this.closed && !this.draining) {
      this.draining = true;
      this.socket.pause();
      this.pump();
    }
    return this.done;
  }

  /** Stops reading requests for `ms` (longer mutes win), as Kafka mutes a throttled channel. */
  throttle(ms: number): void {
    if (this.closed || ms <= 0) return;
    const until = Date.now() + ms;
    if (until <= this.throttledUntil) return;
    this.throttledUntil = until;
    if (this.throttleTimer !== null) clearTimeout(this.throttleTimer);
    this.throttleTimer = setTimeout(() => {
      this.throttleTimer = null;
      this.pump();
    }, ms);
    this.socket.pause();
  }

  /** Bounds the request frames read from now on; `key` names the bound in the close's reason. */
  limitFrames(maxBytes: number, key: string): void {
    this.decoder.limit(maxBytes, key);
  }

  /** Closes at once, dropping anything unanswered. */
  destroy(reason: string): void {
    if (this.closed) return;
    this.log.debug({ client: this.describe(), reason }, 'closing connection');
    this.socket.destroy();
    this.onClosed();
  }

  private onData(chunk: Buffer): void {
    this.decoder.push(chunk);
    this.pump();
  }

  /**
   * Takes buffered frames while under the limits, writes the responses that are ready, and repeats
   * while either makes progress; then pauses or resumes reading to match. Responses produced while
   * taking a burst of frames leave in one corked write.
   */
  private pump(): void {
    // A handler's promise settles in a later microtask, so pump() is only re-entered through reject().
    if (this.pumping) return;
    this.pumping = true;
    // Corked: responses written during this burst leave in one write, yet each write() still
    // reports the high-water mark at once, so a burst stops as soon as the socket is full.
    this.socket.cork();
    try {
      for (;;) {
        const took = this.takeFrames();
        const wrote = this.writeCompleted();
        if (!took && !wrote) break;
      }
    } finally {
      this.pumping = false;
      this.socket.uncork();
    }
    if (this.closed) return;
    if (this.draining) {
      this.maybeFinishDraining();
      return;
    }
    if (this.mayTake()) this.socket.resume();
    else {
      this.socket.pause();
      if (this.waitsForBudget()) this.requests.wait(this.wake);
    }
  }

  /** Whether the next request may be taken now (every bound but the broker-wide budget is this connection's). */
  private mayTake(): boolean {
    return (
      !this.closed &&
      !this.draining &&
      !this.soloInProgress &&
      this.throttleTimer === null &&
      !this.responseBacklogFull() &&
      this.inFlight < this.limits.maxInFlight &&
      this.inFlightBytes < this.limits.maxInFlightBytes &&
      (this.inFlight === 0 || this.requests.hasRoom())
    );
  }

  private responseBacklogFull(): boolean {
    return this.writeBlocked || this.socket.writableLength + this.heldBytes >= this.socket.writableHighWaterMark;
  }

  /** Paused only by the broker-wide budget, with a request waiting to be taken. */
  private waitsForBudget(): boolean {
    return this.inFlight > 0 && !this.requests.hasRoom() && this.decoder.bufferedBytes > 0;
  }

  /** Dispatches frames in arrival order while under the limits; true if any was taken. */
  private takeFrames(): boolean {
    let took = false;
    while (this.mayTake()) {
      let frame: Buffer | null;
      try {
        frame = this.decoder.next();
      } catch (err) {
        if (!(err instanceof FrameError)) throw err;
        this.reject(err);
        return false;
      }
      if (frame === null) break;
      took = true;
      this.handleFrame(frame);
    }
    return took;
  }

  private handleFrame(frame: Buffer): void {
    const frameSize = frame.length;
    const solo = frame.length >= 2 && this.limits.oneAtATime?.has(frame.readInt16BE(0)) === true;
    let result: ResponseBytes | Promise<ResponseBytes>;
    this.requests.take();
    try {
      result = this.dispatch(frame, this.info);
    } catch (err) {
      this.requests.finish();
      this.reject(err);
      return;
    }
    if (result instanceof Promise) {
      const slot: Slot = { done: false, bytes: null, size: 0, frameSize };
      this.slots.push(slot);
      this.inFlightBytes += frameSize;
      if (solo) this.soloInProgress = true;
      result.then(
        (bytes) => {
          if (solo) this.soloInProgress = false;
          this.requests.finish();
          if (this.closed) return;
          slot.done = true;
          slot.bytes = bytes;
          slot.size = sizeOf(bytes);
          this.heldBytes += slot.size;
          this.pump();
        },
        (err: unknown) => {
          if (solo) this.soloInProgress = false;
          this.requests.finish();
          this.reject(err);
        },
      );
    } else {
      this.requests.finish();
      const size = sizeOf(result);
      this.slots.push({ done: true, bytes: result, size, frameSize });
      this.heldBytes += size;
      this.inFlightBytes += frameSize;
      this.writeCompleted();
    }
  }

  /** Writes completed responses from the head of the queue (pump() corks around it); true if any slot completed. */
  private writeCompleted(): boolean {
    if (this.closed || this.head === this.slots.length || !this.slots[this.head]!.done) return false;
    while (this.head < this.slots.length && this.slots[this.head]!.done) {
      const { bytes, size, frameSize } = this.slots[this.head]!;
      this.inFlightBytes -= frameSize;
      this.heldBytes -= size;
      this.slots[this.head] = DONE;
      this.head += 1;
      if (bytes === null) continue;
      for (const buf of bytes) {
        if (!this.socket.write(buf)) this.writeBlocked = true;
      }
    }
    if (this.head === this.slots.length) {
      this.slots = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
    return true;
  }

  private maybeFinishDraining(): void {
    if (this.inFlight > 0 || this.ending) return;
    this.ending = true;
    this.socket.end(() => this.socket.destroy());
    // A client that does not read would hold the end, and the broker's close, forever; Kafka drops whatever is
    // unsent when it shuts down.
    setTimeout(() => this.destroy('closing: the client did not take its last responses'), SHUTDOWN_FLUSH_MS).unref();
  }

  private onIdle(): void {
    // A slow request in flight is activity too: only an idle, empty connection is closed.
    if (this.inFlight > 0) {
      this.socket.setTimeout(this.limits.idleMs);
      return;
    }
    this.log.debug({ client: this.describe(), idleMs: this.limits.idleMs }, 'closing idle connection');
    this.destroy('idle');
  }

  /**
   * Closes this connection only. Bad input (a CloseConnection or FrameError) is a warning naming the
   * client; anything else escaped a handler and is logged as an error with its stack.
   */
  private reject(err: unknown): void {
    if (this.closed) return;
    if (err instanceof CloseConnection && err.injected) {
      this.log.debug({ client: this.describe(), reason: err.message }, 'closing connection: an injected fault');
    } else if (err instanceof CloseConnection || err instanceof FrameError) {
      this.log.warn({ client: this.describe(), reason: err.message }, 'closing connection after a bad request');
    } else {
      this.log.error({ client: this.describe(), err }, 'request failed; closing connection');
    }
    this.destroy(err instanceof Error ? err.message : String(err));
  }

  private onClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.log.debug({ client: this.info.remote, listener: this.info.listenerName, clientId: this.info.clientId }, `Connection from ${this.info.remote} closed`);
    // Nothing unsent is kept for a client that has gone: held responses and buffered requests are dropped,
    // and handlers still waiting (long polls) are told to stop.
    this.slots = [];
    this.head = 0;
    this.inFlightBytes = 0;
    this.heldBytes = 0;
    this.decoder.clear();
    this.requests.forget(this.wake);
    if (this.throttleTimer !== null) clearTimeout(this.throttleTimer);
    this.throttleTimer = null;
    this.closedController.abort();
    this.resolveDone();
  }

  private describe(): string {
    const { remote, clientId, clientSoftwareName, clientSoftwareVersion, listenerName } = this.info;
    const software = clientSoftwareName === null ? '' : ` ${clientSoftwareName}/${clientSoftwareVersion ?? ''}`;
    return `${remote} (${listenerName}, client id ${clientId ?? '-'}${software})`;
  }
}

/** How long a closing connection's last responses may take to reach the client before it is cut. */
const SHUTDOWN_FLUSH_MS = 1_000;

const DONE: Slot = { done: true, bytes: null, size: 0, frameSize: 0 };

function sizeOf(bytes: ResponseBytes): number {
  if (bytes === null) return 0;
  let size = 0;
  for (const buf of bytes) size += buf.length;
  return size;
}
