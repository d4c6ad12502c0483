// Runs the client's unit tests (test/*.test.ts): esbuild bundles each
// into a temporary directory and node --test runs them; no DOM needed.
import { build } from "esbuild";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const out = mkdtempSync(join(tmpdir(), "arena-test-"));
try {
  const tests = readdirSync("test").filter((f) => f.endsWith(".test.ts"));
  await build({
    entryPoints: tests.map((f) => join("test", f)),
    bundle: true,
    platform: "node",
    format: "esm",
    outdir: out,
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
  const run = spawnSync(process.execPath, ["--test", ...tests.map((f) => join(out, f.replace(/\.ts$/, ".mjs")))], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
