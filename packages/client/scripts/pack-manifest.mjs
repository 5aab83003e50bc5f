// The manifest that goes into the tarball. npm publishes package.json as it is on disk, so `prepack`
// swaps in a copy without what only the repository needs (the workspace devDependencies, which are
// private, and the scripts), and `postpack` puts the original back. `npm publish` re-reads the
// manifest after packing to send it to the registry, so during a real publish the original comes
// back in `postpublish` instead. Should a publish fail in between, the next pack (or
// `node scripts/pack-manifest.mjs restore`) puts the repository's manifest back.
// `cjs` marks the CommonJS build (dist/cjs) as such, so Node and TypeScript read its .js and .d.ts
// files as CommonJS while the package itself is ES modules.
//   node scripts/pack-manifest.mjs strip
//   node scripts/pack-manifest.mjs restore [postpack|postpublish] [$npm_command] [$npm_config_dry_run]
//   node scripts/pack-manifest.mjs cjs
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const manifestPath = fileURLToPath(new URL("../package.json", import.meta.url));
const backupPath = fileURLToPath(new URL("../.package.json.repo", import.meta.url));
const [mode, event, command, dryRun] = process.argv.slice(2);

if (mode === "strip") {
  // A pack that was interrupted left the repository's manifest aside: start from it.
  if (existsSync(backupPath)) renameSync(backupPath, manifestPath);
  const text = readFileSync(manifestPath, "utf8");
  const manifest = JSON.parse(text);
  const { devDependencies: _dev, scripts: _scripts, ...published } = manifest;
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [name, range] of Object.entries(published[field] ?? {})) {
      if (String(range).startsWith("workspace:")) throw new Error(`${field}.${name} is a workspace package: it cannot be published`);
    }
  }
  writeFileSync(backupPath, text);
  writeFileSync(manifestPath, `${JSON.stringify(published, null, 2)}\n`);
} else if (mode === "restore") {
  const deferred = event === "postpack" && command === "publish" && dryRun !== "true";
  if (!deferred && existsSync(backupPath)) renameSync(backupPath, manifestPath);
} else if (mode === "cjs") {
  writeFileSync(fileURLToPath(new URL("../dist/cjs/package.json", import.meta.url)), `${JSON.stringify({ type: "commonjs" })}\n`);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip | restore | cjs");
  process.exit(2);
}
