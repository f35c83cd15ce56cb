import type { TokenUsage } from "../models/index.js";

/** Usage summed over every model call of one operation. */
export interface UsageTotal extends TokenUsage {
  modelCalls: number;
}

/** A zero usage total. */
export function emptyUsage(): UsageTotal {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, modelCalls: 0 };
}

/** Adds one call's usage to a running total, in place. */
export function addCall(total: UsageTotal, usage: TokenUsage): void {
  total.promptTokens += usage.promptTokens;
  total.completionTokens += usage.completionTokens;
  total.totalTokens += usage.totalTokens;
  total.modelCalls += 1;
}

/** The wire shape of usage. */
export function usageToWire(usage: UsageTotal): {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  model_calls: number;
} {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    model_calls: usage.modelCalls,
  };
}
