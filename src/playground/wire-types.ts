/**
 * The HTTP shapes the playground sends and reads (snake_case, as on the wire). The page talks to the
 * service over HTTP only, so these are kept apart from the server's own types.
 */
import type { Range } from "../core/types.js";

export type { Range };

export interface Source {
  id: string;
  text: string;
}

export interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}

export type MatchMode = "strict" | "lenient";

export interface CreateRequest {
  model: string;
  messages: Message[];
  sources: Source[];
  mode?: MatchMode;
  check_numbers?: boolean | "source" | "row";
  retry?: number;
  min_coverage?: number;
  allow_ungrounded?: boolean;
}

export interface Citation {
  claim: string;
  quote: string;
  source: string;
  range: Range;
}

export interface UnsupportedClaim {
  claim: string;
  reason: string;
}

export interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens: number;
  model_calls: number;
}

export interface CreateResult {
  id: string;
  model: string;
  text: string;
  citations: Citation[];
  unsupported: UnsupportedClaim[];
  coverage: number;
  abstained: boolean;
  grounded: boolean;
  usage: Usage;
}

export interface ExtractRequest {
  model: string;
  sources: Source[];
  schema: Record<string, string>;
  mode?: MatchMode;
}

export interface ExtractField {
  value: string | null;
  source?: string;
  range?: Range;
  grounded: boolean;
  reason?: string;
}

export interface ExtractResult {
  id: string;
  model: string;
  fields: Record<string, ExtractField>;
  coverage: number;
  usage: Usage;
}

export interface EvalCase {
  messages: Message[];
  sources: Source[];
}

export interface EvalRequest {
  model: string;
  mode?: MatchMode;
  cases: EvalCase[];
}

export interface EvalCaseError {
  type: string;
  code: string;
  message: string;
}

export interface EvalCaseResult {
  coverage: number;
  citations: number;
  unsupported: number;
  error?: EvalCaseError;
}

export interface EvalResult {
  aggregate: { coverage_mean: number; unsupported_rate: number; n: number; errored: number };
  cases: EvalCaseResult[];
  usage: Usage;
}

/** Every error response: `{"error": {type, code, message, param?}}`. */
export interface ErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    param?: string;
    unsupported?: UnsupportedClaim[];
  };
}
