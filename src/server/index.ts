export { createApp } from "./app.js";
export type { ServerConfig } from "./config.js";
