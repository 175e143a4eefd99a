// Filing from paper sheets and ruling, on openapi-fetch typed by openapi-typescript (generated/schema.d.ts):
// the scorer imports a record whose deals are tallies (R31), creates a recorded match and files its
// deals by tally and by points (R33), a stale If-Match is answered 412 and narrowed by its `code`, a
// seated player disputes a deal and staff rules on it. The four players accept their seats in the
// recorded match first (outside a season nobody files for a seat its user has not accepted).
// No cast, no `any`: every body is the schema's.
// Usage: node build/filing.js BASE_URL TOKEN_SCORER TOKEN_PLAYER_N TOKEN_STAFF N E S W TOKEN_E TOKEN_S TOKEN_W
// Prints one JSON line: what the server answered.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";

type RecordRequest = components["schemas"]["RecordRequest"];
type Tally = components["schemas"]["TallyRequest"];
type SeatInts = components["schemas"]["SeatInts"];
type Problem412 = components["schemas"]["VersionMismatchProblem"];

const [baseUrl, scorerToken, playerToken, staffToken, north, east, south, west, ...otherTokens] =
  process.argv.slice(2);

function client(token: string | undefined) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token ?? ""}` } });
}
const scorer = client(scorerToken);
const player = client(playerToken);
const staff = client(staffToken);
const seats = { N: north ?? "", E: east ?? "", S: south ?? "", W: west ?? "" };
const seated = [player, ...otherTokens.map(client)];

async function acceptSeats(match: string) {
  for (const someone of seated) {
    const open = await someone.GET("/api/v1/seat-invitations/");
    if (open.data === undefined) refused("seat invitations", open.error);
    for (const invitation of open.data.filter((each) => each.match === match)) {
      const accepted = await someone.POST("/api/v1/seat-invitations/{id}/accept/", {
        params: { path: { id: invitation.id } },
      });
      if (accepted.error !== undefined) refused("seat", accepted.error);
    }
  }
}

// Deals 1 and 2 are rozbójniki: every key of R31; deal 3 an odgrywka: tricks only.
const FIRST: Tally = {
  N: { tricks: 2, hearts: 0, queens: 0, kings_jacks: 3, king_of_hearts: false, last_tricks: 0 },
  E: { tricks: 3, hearts: 2, queens: 1, kings_jacks: 2, king_of_hearts: true, last_tricks: 0 },
  S: { tricks: 5, hearts: 3, queens: 2, kings_jacks: 2, king_of_hearts: false, last_tricks: 1 },
  W: { tricks: 3, hearts: 8, queens: 1, kings_jacks: 1, king_of_hearts: false, last_tricks: 1 },
};
const SECOND: Tally = {
  N: { tricks: 5, hearts: 11, queens: 0, kings_jacks: 4, king_of_hearts: false, last_tricks: 2 },
  E: { tricks: 0, hearts: 0, queens: 0, kings_jacks: 0, king_of_hearts: false, last_tricks: 0 },
  S: { tricks: 4, hearts: 1, queens: 1, kings_jacks: 2, king_of_hearts: true, last_tricks: 0 },
  W: { tricks: 4, hearts: 1, queens: 3, kings_jacks: 2, king_of_hearts: false, last_tricks: 0 },
};
const THIRD: Tally = { N: { tricks: 9 }, E: { tricks: 0 }, S: { tricks: 2 }, W: { tricks: 2 } };

function refused(what: string, error: unknown): never {
  throw new Error(`${what} refused: ${JSON.stringify(error)}`);
}

function total(points: SeatInts): number {
  return points.N + points.E + points.S + points.W;
}

async function importRecord(): Promise<SeatInts[]> {
  const record: RecordRequest = {
    format: "kierki-match/1",
    ruleset: { name: "rozbojnik-odgrywka", options: {} },
    players: seats,
    first_dealer: "N",
    played_on: "2025-09-16",
    deals: [{ tally: FIRST }, { tally: SECOND }, { tally: THIRD }],
  };
  const { data, error } = await scorer.POST("/api/v1/matches/import/", { body: record });
  if (data === undefined) refused("import", error);
  return data.summary.deals.map((deal) => deal.points);
}

async function fileLive(secondPoints: SeatInts) {
  const created = await scorer.POST("/api/v1/matches/", {
    body: { seats, first_dealer: "N", dealing: "recorded" },
  });
  if (created.data === undefined) refused("create", created.error);
  const id = created.data.id;
  await acceptSeats(id);
  const tallied = await scorer.POST("/api/v1/matches/{id}/tallies/", {
    params: { path: { id } }, body: { tally: FIRST },
  });
  if (tallied.data === undefined) refused("tally", tallied.error);
  // A filed deal's answer has no `deal_ended` (that is a card's); after the first deal the totals are its points.
  const first = tallied.data.state.totals;
  // A stale If-Match: the 412's problem is narrowed by its code, and carries the version now.
  const stale = await scorer.POST("/api/v1/matches/{id}/tallies/", {
    params: { path: { id }, header: { "If-Match": '"1"' } }, body: { points: secondPoints },
  });
  let current: Problem412["current_version"] | null = null;
  if (stale.error !== undefined && stale.error.code === "version_mismatch") current = stale.error.current_version ?? null;
  const filed = await scorer.POST("/api/v1/matches/{id}/tallies/", {
    params: { path: { id }, header: { "If-Match": `"${current ?? tallied.data.version}"` } },
    body: { points: secondPoints },
  });
  if (filed.data === undefined) refused("points", filed.error);
  return { id, first, current, version: filed.data.version, status: filed.data.status };
}

async function disputeAndRule(id: string, played: SeatInts) {
  const opened = await player.POST("/api/v1/matches/{id}/disputes/", {
    params: { path: { id } }, body: { deal: 1, statement: "Kier wziął W, nie N." },
  });
  if (opened.data === undefined) refused("dispute", opened.error);
  const adjusted: SeatInts = { N: played.E, E: played.N, S: played.S, W: played.W };
  const ruled = await staff.POST("/api/v1/disputes/{id}/ruling/", {
    params: { path: { id: opened.data.id } },
    body: { type: "score_adjusted", points: adjusted, reason: "Arkusz: punkty N i E zamienione." },
  });
  if (ruled.data === undefined) {
    const problem = ruled.error;
    // Each code the operation may answer is its own type: the R30 family carries its rule.
    if (problem !== undefined && problem.status === 422 && "rule" in problem) refused(`ruling (${problem.rule})`, problem);
    refused("ruling", problem);
  }
  return { dispute: opened.data.id, adjusted, status: ruled.data.dispute.status, version: ruled.data.version };
}

async function main(): Promise<void> {
  const imported = await importRecord();
  const second = imported[1];
  if (second === undefined) throw new Error("the import answered fewer than two deals");
  const live = await fileLive(second);
  const ruling = await disputeAndRule(live.id, live.first);
  console.log(JSON.stringify({
    imported: imported.map(total), match: live.id, first: live.first, stale: live.current,
    version: live.version, status: live.status, ruling,
  }));
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
