import { afterEach } from "vitest";
import type { Source } from "../../src/core/types.js";
import {
  type RecordedCall,
  type ScriptedGateway,
  type ScriptedGatewayOptions,
  startScriptedGateway,
  streamReply,
} from "../support/scripted-gateway.js";
import { type RunningService, type StartServiceOptions, startService } from "../support/start-service.js";

// Shared fixtures and set-up for the HTTP tests in this folder: a scripted gateway and the real service,
// started per test and closed after it.

/** A prose source. */
export const report: Source = {
  id: "report",
  text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million, up 22% over 2023. The company employs 240 people.",
};

/** The spec's table: header Quarter, Revenue, Profit. */
export const table: Source = {
  id: "table",
  text: "| Quarter | Revenue | Profit |\n| --- | --- | --- |\n| Q2 | 1,100 | 210 |\n| Q3 | 1,250 | 230 |\n",
};

export const question = [{ role: "user", content: "How did Northwind do in 2024?" }] as const;

/** Ids the service would otherwise draw at random. */
export const fixedId = (prefix: "vfd" | "ext") => `${prefix}_test`;

/** `[start, end)` of the first occurrence of `quote` in `source`; throws when absent. */
export function rangeOf(source: Source, quote: string): [number, number] {
  const start = source.text.indexOf(quote);
  if (start < 0) throw new Error(`${JSON.stringify(quote)} is not in source ${source.id}`);
  return [start, start + quote.length];
}

/** A candidate claim as a model writes it. */
export interface ModelClaim {
  claim: string;
  quote: string;
  source: string;
}

/** The completion content of a create answer: `{"claims": [...]}`. */
export function claimsContent(...claims: ModelClaim[]): string {
  return JSON.stringify({ claims });
}

/** A claim copied from `source` (the claim reads the same as the quote unless given). */
export function claimFrom(source: Source, quote: string, claim = quote): ModelClaim {
  rangeOf(source, quote);
  return { claim, quote, source: source.id };
}

/** The Chat Completions body the service sent. */
export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict: boolean } };
}

/** The parsed body of a recorded call. */
export function chatBody(call: RecordedCall | undefined): ChatBody {
  if (call === undefined) throw new Error("no such call");
  return call.body as ChatBody;
}

/** Usage of `calls` scripted calls at the scripted gateway's default 10 + 5 tokens each. */
export function scriptedUsage(calls: number) {
  return {
    prompt_tokens: 10 * calls,
    completion_tokens: 5 * calls,
    total_tokens: 15 * calls,
    model_calls: calls,
  };
}

const running: { close(): Promise<void> }[] = [];

afterEach(async () => {
  const open = running.splice(0);
  await Promise.all(open.map((item) => item.close()));
});

/** Starts a scripted gateway and the service pointed at it; both close after the test. */
export async function startWithGateway(
  options: Omit<StartServiceOptions, "gatewayURL"> & { gateway?: ScriptedGatewayOptions } = {},
): Promise<{ gateway: ScriptedGateway; service: RunningService }> {
  const { gateway: gatewayOptions, ...serviceOptions } = options;
  const gateway = await startScriptedGateway(gatewayOptions);
  running.push(gateway);
  const service = await startService({ newId: fixedId, ...serviceOptions, gatewayURL: gateway.url });
  running.push(service);
  return { gateway, service };
}

/** Starts the service with no gateway configured (only the local model); it closes after the test. */
export async function startWithoutGateway(
  options: Omit<StartServiceOptions, "gatewayURL"> = {},
): Promise<RunningService> {
  const service = await startService({ newId: fixedId, ...options });
  running.push(service);
  return service;
}

/** Registers anything else with a `close()` to be closed after the test. */
export function closeAfterTest(item: { close(): Promise<void> }): void {
  running.push(item);
}

/** Scripts one streamed reply of `pieces` that stops before piece `held` until `release()` is called. */
export function scriptHeldStream(
  gateway: ScriptedGateway,
  pieces: string[],
  held: number,
): { release(): void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  gateway.script(() => streamReply(pieces, { gate: (index) => (index === held ? gate : Promise.resolve()) }));
  return { release: () => release() };
}
