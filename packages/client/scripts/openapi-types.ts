// Renders src/generated/openapi.ts from the API's own OpenAPI document, so the client's types
// come from the same zod schemas that validate requests on the server.
import openapiTS, { astToString } from "openapi-typescript";
import { buildOpenApiDocument } from "@fiskal/api";

export const GENERATED_PATH = new URL("../src/generated/openapi.ts", import.meta.url);

const BANNER =
  "// Generated from the Fiskal API's OpenAPI document by `pnpm --filter @fiskal/client generate`.\n" +
  "// Do not edit: change the API's schemas and regenerate; a test fails when this file is stale.\n\n";

export async function renderOpenApiTypes(): Promise<string> {
  const doc = buildOpenApiDocument("http://localhost");
  const ast = await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0], { exportType: false });
  return BANNER + astToString(ast);
}
