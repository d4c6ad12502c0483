// Builds the client's script into dist/: the bundle of src/main.ts and the
// SDK, one minified script. The page and its style need no build: the
// binary embeds them from src/. The output depends on the sources and the
// lockfile only, so CI can rebuild it and compare.
import { build } from "esbuild";
import { mkdirSync, rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  charset: "utf8",
  outfile: "dist/app.js",
  logLevel: "warning",
});
