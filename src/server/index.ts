export { type CreateAppOptions, createApp } from "./app.js";
export { type AppDeps, defaultServerConfig, type ServerConfig } from "./config.js";
export { closeGracefully } from "./in-flight-requests.js";
