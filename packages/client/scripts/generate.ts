// `pnpm --filter @fiskal/client generate`: rewrites src/generated/openapi.ts.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GENERATED_PATH, renderOpenApiTypes } from "./openapi-types.ts";

const document = execFileSync("pnpm", ["--silent", "--filter", "@fiskal/api", "run", "openapi"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
writeFileSync(GENERATED_PATH, await renderOpenApiTypes(document));
console.log(`wrote ${fileURLToPath(GENERATED_PATH)}`);
