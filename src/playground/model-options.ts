import type { ModelList, Verified } from "../client/index.js";

/** One suggestion of the model box: the value it fills in and what the list shows beside it. */
export interface ModelOption {
  value: string;
  label: string;
}

/**
 * The model box's suggestions from `GET /v1/models`: exact ids as they are, a prefix pattern as its prefix
 * (`ollama/`, to be completed), `*` left out (any id goes, so there is nothing to suggest). The local model
 * is always first, as the service always lists it.
 */
export function modelOptions(list: ModelList): ModelOption[] {
  const options: ModelOption[] = [{ value: "local", label: "built-in local model" }];
  const seen = new Set(["local"]);
  for (const entry of list.models) {
    const value = entry.match === "prefix" ? entry.id.replace(/\*$/, "") : entry.id;
    if (entry.match === "any" || seen.has(value)) continue;
    seen.add(value);
    const via = entry.gateway === null ? "built in" : `via ${entry.gateway}`;
    options.push({ value, label: entry.match === "prefix" ? `any ${entry.id} (${via})` : via });
  }
  return options;
}

/**
 * Fills `datalist` with the models the service lists; when the list cannot be read (a key is needed, an
 * older service), the box keeps what it offers.
 */
export async function loadModelOptions(client: Verified, datalist: HTMLDataListElement): Promise<void> {
  let list: ModelList;
  try {
    list = await client.listModels();
  } catch {
    return;
  }
  datalist.replaceChildren(
    ...modelOptions(list).map(({ value, label }) => {
      const option = document.createElement("option");
      option.value = value;
      option.label = label;
      return option;
    }),
  );
}
