// `pnpm --filter @fiskal/api openapi`: writes the API's OpenAPI document (JSON) to stdout. The client
// package generates its types from this output, so that it depends on the document, not on the API's code.
import { buildOpenApiDocument } from "./openapi.ts";

process.stdout.write(JSON.stringify(buildOpenApiDocument(process.argv[2] ?? "http://localhost")));
