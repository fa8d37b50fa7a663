/**
 * Whether JSON text nests objects and arrays deeper than `max`, read without parsing (so a hostile
 * body cannot exhaust the stack of a parser or of the code that walks the result). Brackets inside
 * strings do not count. O(n), no allocation.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // most of a JSON text is strings: jump to the closing quote (one not escaped by an odd run of
      // backslashes) with indexOf instead of reading every character
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        for (let j = end - 1; j > i && text.charCodeAt(j) === 0x5c; j -= 1) slashes += 1;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false; // unterminated: not JSON, which the parser then refuses
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/** Whether a parsed value nests objects and arrays deeper than `max` (itself counting as 1), walked without recursion. */
export function valueNestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
