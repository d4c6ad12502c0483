// The words' plural forms: the count picks the form its language's rules
// name (run by npm test: test.mjs bundles this file and node --test runs it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { say, runTime, type Words } from "../src/words";

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
  assert.equal(say(es, "es", "countdown", { Count: 1000000 }), "Empieza en 1.000.000 de segundos…");
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

test("numbers and run times as the language writes them", () => {
  const clicks: Words = { clicks_par: "clicks: {{.Clicks}} (par {{.Par}})" };
  assert.equal(say(clicks, "en", "clicks_par", { Clicks: 1234, Par: 9 }), "clicks: 1,234 (par 9)");
  assert.equal(say(clicks, "de", "clicks_par", { Clicks: 1234, Par: 9 }), "clicks: 1.234 (par 9)");
  assert.equal(say(clicks, "fr", "clicks_par", { Clicks: 1234, Par: 9 }), "clicks: 1\u202f234 (par 9)");
  assert.equal(say(clicks, "es", "clicks_par", { Clicks: 1234, Par: 12345 }), "clicks: 1234 (par 12.345)");
  assert.equal(runTime("en", 42_370), "0:42.3");
  assert.equal(runTime("de", 42_370), "0:42,3");
  assert.equal(runTime("ja", 3_723_450), "1:02:03.4");
  assert.equal(runTime("fr", 3_723_450), "1:02:03,4");
});
