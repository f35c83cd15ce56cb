export type { CreateAppOptions } from "./app.js";
export { createApp } from "./app.js";
export type { AppDeps, ServerConfig } from "./config.js";
export { defaultServerConfig } from "./config.js";
