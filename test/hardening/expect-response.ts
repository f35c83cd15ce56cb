import { expect } from "vitest";
import { errorRegistry } from "../../src/errors/error-registry.js";

/** A source as the caller sent it (anything: the body may be adversarial). */
interface SentSource {
  id: unknown;
  text: unknown;
}

/**
 * Asserts an error answer: a JSON body `{error: {type, code, message}}` whose type is in the registry, with
 * the registry's status, `code` equal to `type`, and a message for people.
 */
export function expectRegistryError(status: number, body: unknown): void {
  expect(body, `status ${status} without a JSON error body`).toBeTypeOf("object");
  const error = (body as { error?: Record<string, unknown> }).error;
  expect(error, `status ${status} without an "error" object`).toBeTypeOf("object");
  const type = error?.type as keyof typeof errorRegistry;
  expect(Object.keys(errorRegistry)).toContain(type);
  expect(error?.code).toBe(type);
  expect(errorRegistry[type].status).toBe(status);
  expect(error?.message).toBeTypeOf("string");
  expect(String(error?.message)).not.toBe("");
}

/** The text of the first source with `id`; fails when none has it. */
function sourceText(sources: readonly SentSource[], id: unknown): string {
  const source = sources.find((candidate) => candidate.id === id);
  expect(source, `no source with id ${JSON.stringify(id)}`).toBeDefined();
  return source?.text as string;
}

/** Every citation of a create or check result slices, in its source's text, to its quote. */
export function expectCitationsSlice(
  result: { citations: { quote: string; source: string; range: [number, number] }[] },
  sources: readonly SentSource[],
): void {
  for (const citation of result.citations) {
    const [start, end] = citation.range;
    expect(sourceText(sources, citation.source).slice(start, end)).toBe(citation.quote);
  }
}

/** Every found field of an extract result slices, in its source's text, to its value. */
export function expectFieldsSlice(
  result: { fields: Record<string, { value: string | null; source?: string; range?: [number, number] }> },
  sources: readonly SentSource[],
): void {
  for (const field of Object.values(result.fields)) {
    if (field.value === null) continue;
    const [start, end] = field.range ?? [-1, -1];
    expect(sourceText(sources, field.source).slice(start, end)).toBe(field.value);
  }
}
