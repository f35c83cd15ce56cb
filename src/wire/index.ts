export {
  CheckDocumentSchema,
  CheckFieldsRequestSchema,
  type CheckRequest,
  CheckRequestSchema,
  CheckResultSchema,
  type CreateRequest,
  CreateRequestSchema,
  CreateResultSchema,
  ErrorBodySchema,
  EvalCaseSchema,
  type EvalRequest,
  EvalRequestSchema,
  EvalResultSchema,
  type ExtractRequest,
  ExtractRequestSchema,
  ExtractResultSchema,
} from "./schemas.js";
export { compileValidator } from "./validate-body.js";
