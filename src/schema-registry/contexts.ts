// Confluent's schema contexts (QualifiedSubject): a subject named `:.ctx:orders` is `orders` in context `.ctx`;
// an unqualified subject is in the default context `.`. Each context has its own schema ids, and a reference's
// unqualified subject is looked up in the context of the subject that references it.

export const DEFAULT_CONTEXT = '.';
const WILDCARD = '*';

export interface QualifiedSubject {
  readonly context: string;
  readonly subject: string;
}

/** Confluent's parsing of a (qualified) subject name, for the default tenant. */
export function qualify(name: string): QualifiedSubject {
  if (name.startsWith(':.')) {
    const end = name.indexOf(':', 2);
    return end < 0 ? { context: name.slice(1), subject: '' } : { context: name.slice(1, end), subject: name.slice(end + 1) };
  }
  if (name.startsWith(`:${WILDCARD}:`)) return { context: WILDCARD, subject: name.slice(3) };
  return { context: DEFAULT_CONTEXT, subject: name };
}

/** The context's prefix in a subject name: none for the default context, `:.ctx:` otherwise. */
export function contextPrefix(context: string): string {
  return context === DEFAULT_CONTEXT ? '' : `:${context}:`;
}

export function contextOf(name: string): string {
  return qualify(name).context;
}

/** The name Confluent keeps for a subject: `:.:orders` is `orders`. */
export function normalizeSubject(name: string): string {
  const q = qualify(name);
  return q.context === WILDCARD ? name : contextPrefix(q.context) + q.subject;
}

/** A reference's subject, qualified with its parent's context when it names none (qualifySubjectWithParent). */
export function qualifyWithParent(parent: string, subject: string): string {
  const q = qualify(subject);
  if (q.context !== DEFAULT_CONTEXT) return normalizeSubject(subject);
  return contextPrefix(contextOf(parent)) + q.subject;
}
