export type { ErrorType } from "./error-registry.js";
export { quoteRequestText } from "./quote-request-text.js";
export { ServiceError } from "./service-error.js";
