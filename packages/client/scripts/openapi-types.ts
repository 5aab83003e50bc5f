// Renders src/generated/openapi.ts from the API's own OpenAPI document, so the client's types
// come from the same zod schemas that validate requests on the server. The document is an input
// (generate.ts reads it from `pnpm --filter @fiskal/api openapi`): this package does not import the API.
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";

export const GENERATED_PATH = new URL("../src/generated/openapi.ts", import.meta.url);

const BANNER =
  "// Generated from the Fiskal API's OpenAPI document by `pnpm --filter @fiskal/client generate`.\n" +
  "// Do not edit: change the API's schemas and regenerate; a test fails when this file is stale.\n\n";

/** The API's document as JSON (`pnpm --filter @fiskal/api openapi`), rendered as the client's types. */
export async function renderOpenApiTypes(documentJson: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(documentJson) as OpenAPI3, { exportType: false });
  return BANNER + astToString(ast);
}
