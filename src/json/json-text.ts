/**
 * An answer already rendered to JSON text (a list page joined from its items' kept texts): the REST
 * front door sends it as it is, other readers parse it.
 */
export class JsonText {
  /** `value`: the same answer as a value, when it is at hand (a reader other than REST need not parse the text) */
  constructor(
    readonly text: string,
    readonly value?: unknown,
  ) {}
}

/** The answer's JSON text, as the REST front door sends it. */
export function jsonTextOf(answer: unknown): string {
  return answer instanceof JsonText ? answer.text : JSON.stringify(answer);
}

/** The answer as a JSON value, whichever form it came in. */
export function jsonValueOf(answer: unknown): unknown {
  return answer instanceof JsonText ? (answer.value ?? JSON.parse(answer.text)) : answer;
}
