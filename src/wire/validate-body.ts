import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Errors, type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { quoteRequestText } from "../errors/index.js";

/** The outcome of validating a request body: the typed value, or the first problem, for a person. */
export type Validation<T> =
  | { ok: true; value: T }
  | { ok: false; param: string | undefined; message: string };

/** Turns a JSON-pointer path (`/messages/0/role`) into the name a caller wrote (`messages[0].role`). */
export function pathToParam(path: string): string | undefined {
  if (path === "") return undefined;
  let param = "";
  for (const raw of path.slice(1).split("/")) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (/^\d+$/.test(segment)) param += `[${segment}]`;
    else param += param === "" ? segment : `.${segment}`;
  }
  return param;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 40 ? "a string" : JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return String(value);
}

function allowedLiterals(schema: TSchema): unknown[] | undefined {
  const options = (schema as { anyOf?: TSchema[] }).anyOf;
  if (options === undefined) return undefined;
  const values: unknown[] = [];
  for (const option of options) {
    if ("const" in option) values.push(option.const);
    else if (option.type === "boolean") values.push(true, false);
    else return undefined;
  }
  return values;
}

const typeNames: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  null: "null",
  array: "an array",
  object: "an object",
};

function unionOptions(schema: TSchema): TSchema[] {
  return (schema as { anyOf?: TSchema[] }).anyOf ?? [];
}

/** The JSON Schema type name of a parsed JSON value. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function describeError(error: ValueError, root: TSchema): string {
  const param = pathToParam(error.path);
  // Field names come from the caller: a 3 MB name is quoted as 200 characters, here and in `param`.
  const name = `"${quoteRequestText(param ?? "body")}"`;
  const schema = error.schema as TSchema & Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${name} is required.`;
    case ValueErrorType.ObjectAdditionalProperties: {
      const key = param?.split(/[.[]/).at(-1) ?? "";
      const parentPath = error.path.slice(0, error.path.lastIndexOf("/"));
      const parent = parentSchema(root, parentPath);
      const known = parent ? Object.keys(parent.properties ?? {}) : [];
      const suggestion = known.includes(snakeCase(key)) ? `; did you mean "${snakeCase(key)}"?` : ".";
      const list = known.length > 0 && suggestion === "." ? ` Known fields: ${known.join(", ")}.` : "";
      return `${name} is not a known field${suggestion}${list}`;
    }
    case ValueErrorType.Union: {
      const allowed = allowedLiterals(schema);
      if (allowed)
        return `${name} must be one of ${allowed.map((value) => JSON.stringify(value)).join(", ")}; got ${describeValue(error.value)}.`;
      // A value of one option's type is judged by that option ("id" of 300 characters: too long, not "wrong type").
      const sameType = unionOptions(schema).find((option) => option.type === jsonTypeOf(error.value));
      const inner = sameType === undefined ? undefined : Errors(sameType, error.value).First();
      if (inner !== undefined) return describeError({ ...inner, path: `${error.path}${inner.path}` }, root);
      const kinds = unionOptions(schema).map((option) => typeNames[String(option.type)]);
      if (kinds.length > 0 && kinds.every((kind) => kind !== undefined))
        return `${name} must be ${kinds.join(" or ")}; got ${describeValue(error.value)}.`;
      return `${name} has the wrong type (${describeValue(error.value)}).`;
    }
    case ValueErrorType.StringMaxLength:
      return `${name} is ${String(error.value).length} characters long; the limit is ${schema.maxLength}.`;
    case ValueErrorType.String:
      return `${name} must be a string; got ${describeValue(error.value)}.`;
    case ValueErrorType.Number:
      return `${name} must be a number; got ${describeValue(error.value)}.`;
    case ValueErrorType.Integer:
      return `${name} must be a whole number; got ${describeValue(error.value)}.`;
    case ValueErrorType.Boolean:
      return `${name} must be true or false; got ${describeValue(error.value)}.`;
    case ValueErrorType.Array:
      return `${name} must be an array; got ${describeValue(error.value)}.`;
    case ValueErrorType.Object:
      return `${name} must be an object; got ${describeValue(error.value)}.`;
    case ValueErrorType.Literal:
      return `${name} must be ${JSON.stringify(schema.const)}; got ${describeValue(error.value)}.`;
    case ValueErrorType.StringMinLength:
      return `${name} must not be empty.`;
    case ValueErrorType.ArrayMinItems:
      return `${name} must hold at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}.`;
    case ValueErrorType.ArrayMaxItems:
      return `${name} holds more than ${schema.maxItems} items.`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
      return schema.maximum === undefined
        ? `${name} must be at least ${schema.minimum}; got ${describeValue(error.value)}.`
        : `${name} must be between ${schema.minimum} and ${schema.maximum}; got ${describeValue(error.value)}.`;
    case ValueErrorType.ObjectMinProperties:
    case ValueErrorType.ObjectMaxProperties:
      return `${name} must have ${schema.minProperties ?? 0} to ${schema.maxProperties ?? "any number of"} fields; got ${Object.keys(error.value as object).length}.`;
    default:
      return `${name}: ${error.message}.`;
  }
}

function parentSchema(root: TSchema, pointer: string): { properties?: Record<string, unknown> } | undefined {
  let schema: TSchema | undefined = root;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    if (schema === undefined) return undefined;
    if (/^\d+$/.test(raw) && schema.type === "array") schema = schema.items as TSchema;
    else if (schema.properties?.[raw]) schema = schema.properties[raw] as TSchema;
    else if (schema.patternProperties) schema = Object.values(schema.patternProperties)[0] as TSchema;
    else return undefined;
  }
  return schema as { properties?: Record<string, unknown> };
}

/**
 * The first problem of `value` against a compiled schema: its JSON pointer (`/routes/0/gateway`) and a
 * message for a person; undefined when the value matches. For files whose problems are reported by line.
 */
export function firstSchemaProblem<T extends TSchema>(
  schema: T,
): (value: unknown) => { pointer: string; message: string } | undefined {
  const compiled = TypeCompiler.Compile(schema);
  return (value) => {
    if (compiled.Check(value)) return undefined;
    const first = compiled.Errors(value).First();
    if (first === undefined) return { pointer: "", message: "The document does not match the schema." };
    return { pointer: first.path, message: describeError(first, schema) };
  };
}

/** Compiles a schema once into a validator that reports the first problem with its `param`. */
export function compileValidator<T extends TSchema>(schema: T): (value: unknown) => Validation<Static<T>> {
  const compiled = TypeCompiler.Compile(schema);
  return (value) => {
    if (compiled.Check(value)) return { ok: true, value };
    const first = compiled.Errors(value).First();
    if (first === undefined)
      return { ok: false, param: undefined, message: "The body does not match the schema." };
    const param = pathToParam(first.path);
    return {
      ok: false,
      param: param === undefined ? undefined : quoteRequestText(param),
      message: describeError(first, schema),
    };
  };
}
