// The words' plural forms: the count picks the form its language's rules
// name (run by npm test: test.mjs bundles this file and node --test runs it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { say, type Words } from "../src/words";

const en: Words = { countdown: { one: "Starting in {{.Count}} second…", other: "Starting in {{.Count}} seconds…" }, go: "Go!" };
const es: Words = {
  countdown: { one: "Empieza en {{.Count}} segundo…", many: "Empieza en {{.Count}} de segundos…", other: "Empieza en {{.Count}} segundos…" },
};
const ko: Words = { countdown: { other: "{{.Count}}초 후 시작…" } };

test("the count picks the form", () => {
  assert.equal(say(en, "en", "countdown", { Count: 1 }), "Starting in 1 second…");
  assert.equal(say(en, "en", "countdown", { Count: 3 }), "Starting in 3 seconds…");
  assert.equal(say(es, "es", "countdown", { Count: 1 }), "Empieza en 1 segundo…");
  assert.equal(say(es, "es", "countdown", { Count: 2 }), "Empieza en 2 segundos…");
  assert.equal(say(es, "es", "countdown", { Count: 1000000 }), "Empieza en 1000000 de segundos…");
  assert.equal(say(ko, "ko", "countdown", { Count: 1 }), "1초 후 시작…");
});

test("a form the language lacks falls back to other", () => {
  assert.equal(say(ko, "en", "countdown", { Count: 1 }), "1초 후 시작…");
  assert.equal(say(en, "no-such-language-tag!", "countdown", { Count: 1 }), "Starting in 1 seconds…");
});

test("a plain message and an unknown one", () => {
  assert.equal(say(en, "en", "go"), "Go!");
  assert.equal(say(en, "en", "nothing"), "nothing");
});
