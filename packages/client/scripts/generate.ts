// `pnpm --filter @fiskal/client generate`: rewrites src/generated/openapi.ts.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GENERATED_PATH, renderOpenApiTypes } from "./openapi-types.ts";

writeFileSync(GENERATED_PATH, await renderOpenApiTypes());
console.log(`wrote ${fileURLToPath(GENERATED_PATH)}`);
