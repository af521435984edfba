// Waits for a condition that Kafka reaches asynchronously (a deleted topic leaving metadata, a group settling).
// The limit only stops a broken run from hanging; it is not a claim about speed.

export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 30_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`gave up waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
