import { describe, expect, it } from "vitest";
import { modelOptions } from "./model-options.js";

describe("modelOptions", () => {
  it("offers the local model, every exact id and each prefix pattern's prefix, not the catch-all", () => {
    expect(
      modelOptions({
        models: [
          { id: "local", match: "exact", gateway: null },
          { id: "gpt-4o-mini", match: "exact", gateway: "openai" },
          { id: "ollama/*", match: "prefix", gateway: "ollama" },
          { id: "*", match: "any", gateway: "openai" },
        ],
      }),
    ).toEqual([
      { value: "local", label: "built-in local model" },
      { value: "gpt-4o-mini", label: "via openai" },
      { value: "ollama/", label: "any ollama/* (via ollama)" },
    ]);
  });
});
