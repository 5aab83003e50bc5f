// What every production bundle of the API is built with (scripts/build.mjs), shared with the test that
// checks what a production build leaves out (test/production-build.test.ts).
import { readFileSync } from "node:fs";

/** esbuild `define`s of a production bundle. */
export const productionDefine = {
  // the rate-limit script, inlined (packages/limits/src/script.ts reads the file when run from the sources)
  __FISKAL_MULTI_WINDOW_LUA__: JSON.stringify(readFileSync(new URL("../../../packages/limits/src/multi-window.lua", import.meta.url), "utf8")),
  // a production bundle has no test clock (packages/limits/src/engine.ts refuses one)
  __FISKAL_PRODUCTION_BUILD__: "true",
};
