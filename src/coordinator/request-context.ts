/** What the group coordinator needs from a request's context. */
import type { RequestContext } from '../server/handler.js';
import type { MemberContext } from './group/membership.js';

/** Kafka prints a member's host as InetAddress.toString(): "/127.0.0.1". */
export function clientHostOf(remote: string): string {
  const colon = remote.lastIndexOf(':');
  return `/${colon < 0 ? remote : remote.slice(0, colon)}`;
}

export function memberContextOf(ctx: RequestContext, version: number): MemberContext {
  return { clientId: ctx.header.clientId ?? '', clientHost: clientHostOf(ctx.connection.remote), apiVersion: version };
}
