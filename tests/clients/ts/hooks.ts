// A webhook receiver's handler, typed by openapi-typescript from the schema's `WebhookBody` (the union of
// the `webhooks` section's bodies, discriminated by `type`): it checks `X-Kierki-Signature` over the raw
// body (HMAC-SHA256, docs/webhooks.md), parses the body to `unknown`, checks its envelope, and narrows it
// by `type` with no cast and no `any`. Usage: node build/hooks.js SECRET DELIVERIES.json NOW
// (DELIVERIES.json: [{"body": raw body, "signature": header}]). Prints one JSON line per delivery.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { components } from "./generated/schema.js";

type WebhookBody = components["schemas"]["WebhookBody"];
type WebhookType = WebhookBody["type"];

// Every type the schema knows, once: the compiler fails when one is added to or removed from it.
const KNOWN: Record<WebhookType, true> = {
  "deal.finished": true, "match.finished": true, "match.abandoned": true, "ruling.recorded": true,
  "standings.updated": true, "ping": true,
};
const TOLERANCE = 300; // seconds: an older signature is a replay

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isKnown(type: unknown): type is WebhookType {
  return typeof type === "string" && Object.hasOwn(KNOWN, type);
}

// The envelope of every body (id, type, created_at, data); the rest is the schema's promise.
function isWebhookBody(value: unknown): value is WebhookBody {
  return isRecord(value) && typeof value.id === "string" && isKnown(value.type)
    && typeof value.created_at === "string" && isRecord(value.data);
}

export function verified(raw: string, header: string, secret: string, now: number): boolean {
  const parts = new Map(header.split(",").map((part) => {
    const at = part.indexOf("=");
    return [part.slice(0, at), part.slice(at + 1)];
  }));
  const timestamp = Number(parts.get("t"));
  const given = Buffer.from(parts.get("v1") ?? "", "hex");
  const expected = createHmac("sha256", secret).update(`${parts.get("t")}.${raw}`).digest();
  return Number.isInteger(timestamp) && Math.abs(now - timestamp) <= TOLERANCE
    && given.length === expected.length && timingSafeEqual(given, expected);
}

export function described(body: WebhookBody): string {
  switch (body.type) {
    case "deal.finished":
      return `deal ${body.data.deal} (${body.data.kind}) of ${body.data.match}: N ${body.data.points.N}, totals N ${body.data.totals.N}`;
    case "match.finished":
      return `match ${body.data.match} over after ${body.data.deals} deals, winners ${body.data.winners.join(" ")}`;
    case "match.abandoned":
      return `match ${body.data.match} abandoned: ${body.data.reason}`;
    case "ruling.recorded":
      return `ruling ${body.data.ruling} on deal ${body.data.deal} (dispute ${body.data.dispute})`;
    case "standings.updated":
      return `standings of season ${body.data.season}: ${body.data.standings}`;
    case "ping":
      return `ping of webhook ${body.data.webhook} at ${body.data.url}`;
    default: {
      const rest: never = body;
      return `unhandled ${JSON.stringify(rest)}`;
    }
  }
}

export function handle(raw: string, header: string, secret: string, now: number): { accepted: boolean; text: string } {
  if (!verified(raw, header, secret, now)) return { accepted: false, text: "bad signature" };
  const parsed: unknown = JSON.parse(raw);
  if (!isWebhookBody(parsed)) return { accepted: false, text: "not a webhook body" };
  return { accepted: true, text: described(parsed) };
}

function main(): void {
  const [secret, file, now] = process.argv.slice(2);
  const parsed: unknown = JSON.parse(readFileSync(file ?? "", "utf8"));
  const deliveries: unknown[] = Array.isArray(parsed) ? parsed : [];
  for (const delivery of deliveries) {
    if (!isRecord(delivery) || typeof delivery.body !== "string" || typeof delivery.signature !== "string") {
      throw new Error("a delivery is {body, signature}");
    }
    console.log(JSON.stringify(handle(delivery.body, delivery.signature, secret ?? "", Number(now))));
  }
}

main();
