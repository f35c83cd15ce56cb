export type { ErrorType } from "./error-registry.js";
export { ServiceError } from "./service-error.js";
