// Import rules, part of `pnpm lint`:
//  1. no import cycle between files (type-only imports count: they are the first step back), and none
//     between workspace packages;
//  2. nothing under packages/ imports an app (apps/*): packages are below the apps that use them.
//     Tests and measurement scripts that start the real API as a server are the exceptions listed in
//     UPWARD_ALLOWED; code that ships, builds or generates a package's files is not.
// Imports are read with TypeScript's own pre-processor (static, dynamic, `export … from`, `import type`).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SKIP = new Set(["node_modules", ".next", "dist", "generated", ".turbo", "test-results", "playwright-report", ".data", ".before"]);
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

/** Files under packages/ that may import an app: they start the real API to test or measure against it. */
const UPWARD_ALLOWED = [/^packages\/client\/test\//, /^packages\/client\/scripts\/pacing(-bench|-trace|-child)?\.ts$/];

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts") && !name.endsWith(".d.mts")) out.push(full);
  }
  return out;
}

/** Workspace package name → its directory, from the package.json files. */
function workspacePackages(): Map<string, string> {
  const byName = new Map<string, string>();
  for (const group of ["apps", "packages"]) {
    for (const name of readdirSync(path.join(root, group))) {
      const manifest = path.join(root, group, name, "package.json");
      if (existsSync(manifest)) byName.set((JSON.parse(readFileSync(manifest, "utf8")) as { name: string }).name, path.join(root, group, name));
    }
  }
  for (const dir of ["e2e", "bench"]) {
    const manifest = path.join(root, dir, "package.json");
    if (existsSync(manifest)) byName.set((JSON.parse(readFileSync(manifest, "utf8")) as { name: string }).name, path.join(root, dir));
  }
  return byName;
}

function resolveFile(base: string): string | null {
  const stem = base.replace(/\.(m?js)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The workspace package (its directory) that holds a file, or null. */
function packageOf(file: string, dirs: string[]): string | null {
  return dirs.find((d) => file === d || file.startsWith(d + path.sep)) ?? null;
}

const packages = workspacePackages();
const packageDirs = [...packages.values()].sort((a, b) => b.length - a.length);
const files = ["apps", "packages", "e2e", "bench", "scripts"].filter((d) => existsSync(path.join(root, d))).flatMap((d) => walk(path.join(root, d), []));

const fileEdges = new Map<string, Set<string>>();
const packageEdges = new Map<string, Map<string, string>>(); // from package dir → to package dir → one importing file
const problems: string[] = [];
const rel = (f: string) => path.relative(root, f);

for (const file of files) {
  const text = readFileSync(file, "utf8");
  const imports = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
  const targets = new Set<string>();
  const from = packageOf(file, packageDirs);
  for (const spec of imports) {
    let target: string | null = null;
    if (spec.startsWith(".")) target = resolveFile(path.resolve(path.dirname(file), spec));
    else if (spec.startsWith("~/") && from) target = resolveFile(path.join(from, "src", spec.slice(2)));
    else {
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
      const dir = packages.get(name);
      if (dir && from && dir !== from) {
        if (!packageEdges.has(from)) packageEdges.set(from, new Map());
        if (!packageEdges.get(from)!.has(dir)) packageEdges.get(from)!.set(dir, file);
        if (rel(file).startsWith("packages/") && rel(dir).startsWith("apps/") && !UPWARD_ALLOWED.some((r) => r.test(rel(file)))) {
          problems.push(`${rel(file)} imports ${spec}: a package must not depend on an app`);
        }
      }
      continue;
    }
    if (!target) continue;
    if (rel(file).startsWith("packages/") && rel(target).startsWith("apps/") && !UPWARD_ALLOWED.some((r) => r.test(rel(file)))) {
      problems.push(`${rel(file)} imports ${spec}: a package must not reach into an app`);
    }
    targets.add(target);
  }
  fileEdges.set(file, targets);
}

/** Strongly connected components with more than one member (or a file importing itself): Tarjan's algorithm. */
function cycles<T>(nodes: Iterable<T>, next: (n: T) => Iterable<T>): T[][] {
  let index = 0;
  const idx = new Map<T, number>();
  const low = new Map<T, number>();
  const onStack = new Set<T>();
  const stack: T[] = [];
  const found: T[][] = [];
  const visit = (v: T) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: T[] = [];
      let w: T;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || [...next(v)].includes(v)) found.push(component);
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return found;
}

for (const component of cycles(fileEdges.keys(), (f) => fileEdges.get(f) ?? [])) {
  problems.push(`import cycle between ${component.length} files:\n    ${component.map(rel).sort().join("\n    ")}`);
}
for (const component of cycles(packageEdges.keys(), (p) => packageEdges.get(p)?.keys() ?? [])) {
  const via = component.map((p) => [...(packageEdges.get(p) ?? new Map<string, string>()).entries()].filter(([to]) => component.includes(to)).map(([to, f]) => `${rel(p)} → ${rel(to)} (${rel(f)})`)).flat();
  problems.push(`import cycle between packages:\n    ${via.join("\n    ")}`);
}

if (problems.length) {
  console.error(`check-imports: ${problems.length} problem(s)\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`check-imports: ${files.length} files, no import cycle, no package importing an app`);
