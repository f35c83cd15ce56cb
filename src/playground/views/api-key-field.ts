const storageKey = "verified.apiKey";

/**
 * Binds the key input to the tab's session storage (never local storage: the key should not outlive the
 * tab) and returns a reader for the current key. Storage may be unavailable (privacy modes); the field
 * then simply works for this page view.
 */
export function bindApiKeyField(input: HTMLInputElement, storage: Storage | null): () => string {
  try {
    input.value = storage?.getItem(storageKey) ?? "";
  } catch {
    // Storage access can throw when it is disabled; keep the empty field.
  }
  input.addEventListener("input", () => {
    try {
      if (input.value === "") storage?.removeItem(storageKey);
      else storage?.setItem(storageKey, input.value);
    } catch {
      // As above: without storage the key lives only in the field.
    }
  });
  return () => input.value;
}
