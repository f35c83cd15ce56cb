export { verifyFields } from "./verify-fields.js";
