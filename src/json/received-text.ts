const TEXT = Symbol('the JSON text it was parsed from');

/** Keeps, on a parsed JSON object, the text it came as (not enumerable: it never serializes or compares). */
export function keepReceivedText<T>(value: T, text: string): T {
  if (typeof value === 'object' && value !== null) Object.defineProperty(value, TEXT, { value: text });
  return value;
}

/** The text a parsed body came as, so a pass-through forwards it as received rather than re-stringified. */
export function receivedText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [TEXT]?: string })[TEXT] : undefined;
}
