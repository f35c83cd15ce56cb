// Child process of the nested-output bench: one create whose model answers 6 MB of nesting (arrays or
// objects), streamed or not, and one line: `<kind> <how>: <size>, <wall ms>, <peak RSS>; <error message>`.
//   tsx bench/support/nested-output-request.ts arrays|objects stream|plain
import { createVerified } from "../../src/service/index.js";

const [kind, how] = process.argv.slice(2);
const depth = 3_000_000;
const content =
  kind === "arrays"
    ? `{"claims": ${"[".repeat(depth)}${"]".repeat(depth)}}`
    : `{"claims": [${'{"a":'.repeat(depth / 3)}1${"}".repeat(depth / 3)}]}`;
const pieces = content.match(/[\s\S]{1,16384}/g) ?? [];
const started = performance.now();
let message = "";
try {
  await createVerified(
    { model: "m", messages: [{ role: "user", content: "q" }], sources: [{ id: "s", text: "a b c" }] },
    {
      gateway: {
        async generate(request) {
          request.stream?.onOpen();
          if (request.stream) for (const piece of pieces) request.stream.onText(piece);
          return { content, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
        },
      },
      apiKey: undefined,
      sourcesBudget: 100_000,
    },
    how === "stream"
      ? { failWhenUngrounded: true, observer: { open() {}, progress() {} } }
      : { failWhenUngrounded: true },
  );
} catch (error) {
  message = (error as Error).message.slice(0, 90);
}
console.log(
  `${kind} ${how}: ${(content.length / 1e6).toFixed(1)} MB, ${(performance.now() - started).toFixed(0)} ms, max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; ${message}`,
);
