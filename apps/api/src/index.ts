export { startApi, type ApiConfig, type RunningApi } from "./app.ts";
export type { AppRouter } from "./router.ts";
export { buildOpenApiDocument } from "./openapi.ts";
