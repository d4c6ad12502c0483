// Builds the client into dist/: the bundle (src/main.ts and the SDK, one
// minified script), the page and its style. The output depends on the
// sources and the lockfile only, so CI can rebuild it and compare.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";

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
copyFileSync("src/index.html", "dist/index.html");
copyFileSync("src/style.css", "dist/style.css");
