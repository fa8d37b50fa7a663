import sjson from 'secure-json-parse';

/** An answer body as the comparator reads it: prototype-safe JSON, or the text when it is not JSON. */
export function answerBody(text: string): unknown {
  try {
    return sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    return text;
  }
}
