// Checks request bodies against the Zod schemas the discord-api-spec
// package generates from Discord's OpenAPI spec. Input: a file of JSON
// lines {"route": "<METHOD> <fake's route>", "body": {...}}, as
// e2e/spec_test.go writes them. Output: one line per body that fails, and
// exit status 1 if any does; a route with a body and no schema here fails
// too, so a new kind of request cannot go unchecked.
import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import * as s from "discord-api-spec/zod";
import { pathsList } from "discord-api-spec";

const callbacks = {
  1: s.PongInteractionCallbackRequestSchema,
  4: s.CreateMessageInteractionCallbackRequestSchema,
  5: s.CreateMessageInteractionCallbackRequestSchema,
  6: s.UpdateMessageInteractionCallbackRequestSchema,
  7: s.UpdateMessageInteractionCallbackRequestSchema,
  8: s.ApplicationCommandAutocompleteCallbackRequestSchema,
  9: s.ModalInteractionCallbackRequestSchema,
  12: s.LaunchActivityInteractionCallbackRequestSchema,
};

const commands = z.array(s.ApplicationCommandUpdateRequestSchema);

const routes = {
  "POST /interactions/{interaction}/{token}/callback": (body) => callbacks[body?.type],
  "POST /webhooks/{app}/{token}": () => s.IncomingWebhookInteractionRequestSchema,
  "PATCH /webhooks/{app}/{token}/messages/{message}": () => s.IncomingWebhookUpdateRequestPartialSchema,
  "POST /channels/{channel}/messages": () => s.MessageCreateRequestSchema,
  "PATCH /channels/{channel}/messages/{message}": () => s.MessageEditRequestPartialSchema,
  "POST /users/{user}/channels": () => s.CreatePrivateChannelRequestSchema,
  "PUT /applications/{app}/commands": () => commands,
  "PUT /applications/{app}/guilds/{guild}/commands": () => commands,
};

// Requests that carry no body: the spec must have their method and path,
// and documents no body for them, so none may be sent.
const bodiless = {
  "PUT /guilds/{guild}/members/{user}/roles/{role}": ["put", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"],
  "DELETE /guilds/{guild}/members/{user}/roles/{role}": ["delete", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"],
};

// The spec's README: "Some fields documented as strings in the official
// Discord documentation may be typed as integers in the spec. The API
// accepts strings for integer fields if they are parseable as integers."
// The bot follows the documentation for these; they are read as the
// integers they parse as.
const documentedAsStrings = new Set(["default_member_permissions"]);
function asDocumented(value) {
  if (Array.isArray(value)) return value.map(asDocumented);
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = documentedAsStrings.has(k) && typeof v === "string" && /^(0|[1-9][0-9]*)$/.test(v) ? Number(v) : asDocumented(v);
  }
  return out;
}

let checked = 0;
let failed = 0;
const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l.trim() !== "");
for (const line of lines) {
  const { route, body } = JSON.parse(line);
  if (route in bodiless) {
    const [method, path] = bodiless[route];
    checked++;
    if (!pathsList[method]?.includes(path)) {
      failed++;
      console.log(`${route}: the spec has no ${method.toUpperCase()} ${path}`);
    } else if (body !== null && body !== undefined) {
      failed++;
      console.log(`${route}: a body where the spec documents none: ${JSON.stringify(body).slice(0, 200)}`);
    }
    continue;
  }
  const pick = routes[route];
  const schema = pick?.(body);
  if (!schema) {
    failed++;
    console.log(`${route}: no schema for this request ${JSON.stringify(body).slice(0, 200)}`);
    continue;
  }
  const result = schema.safeParse(asDocumented(body));
  checked++;
  if (!result.success) {
    failed++;
    const issues = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    console.log(`${route}: ${issues} in ${JSON.stringify(body).slice(0, 300)}`);
  }
}
console.log(`checked ${checked} requests against discord-api-spec, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
