import type { Static, TSchema } from "@sinclair/typebox";
import { describe, expectTypeOf, it } from "vitest";
import type {
  CheckParams,
  CheckResult,
  CreateParams,
  CreateResult,
  EvalCaseFailure,
  EvalCaseScore,
  EvalParams,
  EvalResult,
  ExtractParams,
  ExtractResult,
  ModelList,
  VerificationParams,
  VerificationReport,
} from "../src/client/types.js";
import type { VerificationReportSchema, VerificationRequestSchema } from "../src/wire/chat-completions.js";
import type {
  CheckRequestSchema,
  CheckResultSchema,
  CreateRequestSchema,
  CreateResultSchema,
  EvalRequestSchema,
  EvalResultSchema,
  ExtractRequestSchema,
  ExtractResultSchema,
  ModelListSchema,
} from "../src/wire/schemas.js";

// The client declares its camelCase types by hand (so `verified-answers/client` needs no schema library); this file
// ties them to the TypeBox schemas, the single source of the wire shapes. A drift fails `npm run typecheck`.

type CamelKey<K extends string> = K extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelKey<Tail>>}`
  : K;
type Camel<T> = T extends readonly unknown[]
  ? { [I in keyof T]: Camel<T[I]> }
  : T extends object
    ? { [K in keyof T as K extends string ? CamelKey<K> : K]: Camel<T[K]> }
    : T;
/** The camelCase view of a schema's wire type. */
type Wire<S extends TSchema> = Camel<Static<S>>;

describe("the client's types", () => {
  it("are the camelCase form of the request schemas", () => {
    // `stream` is not a parameter of the client: `create` never streams and `stream` always does.
    expectTypeOf<Omit<CreateParams, "stream">>().toEqualTypeOf<
      Omit<Wire<typeof CreateRequestSchema>, "stream">
    >();
    expectTypeOf<ExtractParams>().toEqualTypeOf<Wire<typeof ExtractRequestSchema>>();
    expectTypeOf<Omit<EvalParams, "stream">>().toEqualTypeOf<
      Omit<Wire<typeof EvalRequestSchema>, "stream">
    >();
    expectTypeOf<CheckParams>().toEqualTypeOf<Wire<typeof CheckRequestSchema>>();
    expectTypeOf<VerificationParams>().toEqualTypeOf<Wire<typeof VerificationRequestSchema>>();
  });

  it("are the camelCase form of the verification report", () => {
    expectTypeOf<VerificationReport>().toEqualTypeOf<Wire<typeof VerificationReportSchema>>();
  });

  it("are the camelCase form of the result schemas", () => {
    expectTypeOf<CreateResult>().toEqualTypeOf<Wire<typeof CreateResultSchema>>();
    expectTypeOf<ExtractResult>().toEqualTypeOf<Wire<typeof ExtractResultSchema>>();
    // A scored case adds `error?: undefined` on the client, so that `case.error === undefined` narrows.
    type EvalWire = Wire<typeof EvalResultSchema>;
    expectTypeOf<keyof EvalResult>().toEqualTypeOf<keyof EvalWire>();
    expectTypeOf<EvalResult["aggregate"]>().toEqualTypeOf<EvalWire["aggregate"]>();
    expectTypeOf<EvalResult["usage"]>().toEqualTypeOf<EvalWire["usage"]>();
    expectTypeOf<Omit<EvalCaseScore, "error"> | EvalCaseFailure>().toEqualTypeOf<EvalWire["cases"][number]>();
    expectTypeOf<CheckResult>().toEqualTypeOf<Wire<typeof CheckResultSchema>>();
    expectTypeOf<ModelList>().toEqualTypeOf<Wire<typeof ModelListSchema>>();
  });
});
