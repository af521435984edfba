// Kafka's KafkaPrincipal as text ("User:alice"): what a connection authenticated as, for the authorizer.

/** KafkaPrincipal.ANONYMOUS: a connection that did not authenticate (PLAINTEXT). */
export const ANONYMOUS = 'User:ANONYMOUS';

/** The principal SASL authentication gives a user name (DefaultKafkaPrincipalBuilder). */
export function userPrincipal(name: string): string {
  return `User:${name}`;
}
