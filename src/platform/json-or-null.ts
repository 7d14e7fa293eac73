/** A stored JSON text read back: null for none, and for text that is not JSON (a row written before its column held JSON). */
export function parseJsonOrNull<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
