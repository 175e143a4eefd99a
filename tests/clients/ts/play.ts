// A small client of the Kierki API on openapi-fetch, typed by openapi-typescript from openapi.yaml
// (generated/schema.d.ts, made by the test): the four seated players of a server-dealt match deal
// and play CARDS cards. Usage: node build/play.js BASE_URL MATCH_ID CARDS TOKEN_N TOKEN_E TOKEN_S TOKEN_W
// Prints one JSON line: the cards played, the requests sent, the last trick completed.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";

type Seat = components["schemas"]["Seat"];
type State = components["schemas"]["State"];
type StateOrStateAt = components["schemas"]["StateOrStateAt"];
type CommandResult = components["schemas"]["CommandResult"];

const SEATS: readonly Seat[] = ["N", "E", "S", "W"];
const [baseUrl, match, count, ...tokens] = process.argv.slice(2);
let requests = 0;

const players = new Map(SEATS.map((seat, i) => [seat, createClient<paths>({
  baseUrl,
  // OAuth and personal access tokens are Bearer; a key of the deprecated token endpoint (40 hex digits) is Token.
  headers: { Authorization: /^[0-9a-f]{40}$/.test(tokens[i]) ? `Token ${tokens[i]}` : `Bearer ${tokens[i]}` },
  fetch: (request: Request) => { requests += 1; return fetch(request); },
})]));

function api(seat: Seat) {
  const client = players.get(seat);
  if (client === undefined) throw new Error(`no client for seat ${seat}`);
  return client;
}

function current(view: StateOrStateAt): State {
  if ("at" in view) throw new Error("asked for the state now, got a state at an event");
  return view;
}

async function state(seat: Seat): Promise<State> {
  const { data, error } = await api(seat).GET("/api/v1/matches/{id}/state/", { params: { path: { id: match } } });
  if (data === undefined) throw new Error(`state: ${JSON.stringify(error)}`);
  return current(data);
}

function answered(data: CommandResult | undefined, error: unknown): CommandResult {
  if (data === undefined) throw new Error(`command refused: ${JSON.stringify(error)}`);
  return data;
}

async function main(): Promise<void> {
  const dealt = await api("N").POST("/api/v1/matches/{id}/deals/", { params: { path: { id: match } }, body: {} });
  let answer = answered(dealt.data, dealt.error);
  const views = new Map<Seat, State>([["N", answer.state]]);
  let last: CommandResult["trick_completed"] = null;
  let cards = 0;
  while (cards < Number(count) && answer.state.deal !== null) {
    const seat = answer.state.deal.to_play;
    if (seat === null) break;
    let view = views.get(seat);
    if (view === undefined || view.version !== answer.state.version) view = await state(seat);
    const card = view.deal?.legal_cards[0];
    if (card === undefined) throw new Error(`seat ${seat} has no legal card`);
    const played = await api(seat).POST("/api/v1/matches/{id}/plays/", {
      params: { path: { id: match } }, body: { card },
    });
    answer = answered(played.data, played.error);
    views.set(seat, answer.state);
    last = answer.trick_completed ?? last;
    cards += 1;
  }
  console.log(JSON.stringify({ cards, requests, version: answer.state.version, last_trick: last }));
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
