/** What the group coordinator needs from a request's context. */
import type { MemberContext } from './group/membership.js';

/** The parts of a request's context the coordinator reads (the server's RequestContext has them). */
export interface RequestOrigin {
  readonly header: { readonly clientId: string | null };
  readonly connection: { readonly remote: string };
}

/** Kafka prints a member's host as InetAddress.toString(): "/127.0.0.1". */
export function clientHostOf(remote: string): string {
  const colon = remote.lastIndexOf(':');
  return `/${colon < 0 ? remote : remote.slice(0, colon)}`;
}

export function memberContextOf(ctx: RequestOrigin, version: number): MemberContext {
  return { clientId: ctx.header.clientId ?? '', clientHost: clientHostOf(ctx.connection.remote), apiVersion: version };
}
