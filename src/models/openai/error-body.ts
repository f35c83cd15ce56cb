/** The parts of a gateway's error body the service looks at. All optional: gateways disagree on shape. */
export interface GatewayErrorInfo {
  message?: string;
  code?: string;
  type?: string;
  param?: string;
}

/**
 * Reads the error out of a parsed gateway body: OpenAI's `{error: {message, code, type, param}}`, a bare
 * `{error: "text"}`, `{message, code}` at the top level, or FastAPI's `{detail: …}`. Undefined when the body
 * carries no error.
 */
export function readGatewayError(body: unknown): GatewayErrorInfo | undefined {
  if (!isRecord(body)) return undefined;
  const { error } = body;
  if (isRecord(error)) return pick(error);
  if (typeof error === "string") return pick({ ...body, message: error });
  if (typeof body.message === "string") return pick(body);
  if (typeof body.detail === "string") return { message: body.detail };
  if (body.detail !== undefined && body.detail !== null) return { message: JSON.stringify(body.detail) };
  return undefined;
}

function pick(record: Record<string, unknown>): GatewayErrorInfo {
  const info: GatewayErrorInfo = {};
  const message = textOf(record.message);
  const code = textOf(record.code);
  const type = textOf(record.type);
  const param = textOf(record.param);
  if (message !== undefined) info.message = message;
  if (code !== undefined) info.code = code;
  if (type !== undefined) info.type = type;
  if (param !== undefined) info.param = param;
  return info;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
