/**
 * A two-hand euchre bot for the site's API, with nothing but what Node 20 and browsers have
 * built in (fetch, streams, WebSocket).
 *
 *     EUCHRE_TOKEN=euchre_... node euchre_bot.js [--url URL] [--computer medium] [--target 5]
 *
 * It follows the account's stream, accepts every challenge, and plays each match that starts
 * with a policy: a function from the seat's view (view.legal_actions, view.hand, ...) to one
 * legal action. A rematch offered to it is answered by onRematch(offer): true accepts (by
 * default, a person's offer; not another bot's). --computer starts one match against the
 * computer and stops when it ends. In a web page it is an ES module: import { Bot } from
 * "./euchre_bot.js", and pass your policy.
 */

export class ApiError extends Error {
  constructor(status, body) {
    super(`${status} ${body.code}: ${body.detail}`);
    this.status = status;
    this.code = body.code;
    this.retryAfter = body.retry_after ?? 1;
  }
}

// A stream sends a heartbeat every few seconds: one silent this long has dropped.
const SILENT_FOR = 60;
// What a websocket's client offers: the protocol the server picks, and the token.
const SUBPROTOCOL = "euchre.v1";
const TOKEN_PROTOCOL = "euchre.token.";

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const waiting = (error) => ["too_many", "too_many_sockets"].includes(error.code);

/**
 * Accept a rematch a person offers, not a bot (two bots would play on for ever). The offer:
 * match_id, offered_by (username, bot), options, until.
 */
export function peopleOnly(offer) {
  return !offer.offered_by.bot;
}

async function refusal(response) {
  const body = await response.json().catch(() => null); // a proxy's page, say: not JSON
  return new ApiError(response.status, body ?? { code: "unreadable", detail: response.statusText });
}

export class Bot {
  /**
   * url: the site (http:// or https://); token: a personal token with read and play;
   * policy: view => action (or a promise of one). Options: transport "http" (the streams as
   * newline-delimited JSON over fetch: Node and browsers) or "websocket" (a browser's
   * WebSocket, the token sent as a subprotocol); log: a function given each line of news;
   * onRematch: offer => whether to accept a rematch offered (or a promise of it).
   */
  constructor(url, token, policy, options = {}) {
    const { transport = "http", log = () => {}, onRematch = peopleOnly } = options;
    if (!/^https?:\/\//.test(url)) {
      throw new Error("the site's address starts with http:// or https://");
    }
    if (!["http", "websocket"].includes(transport)) {
      throw new Error('the transport is "http" or "websocket"');
    }
    if (transport === "websocket" && typeof WebSocket === "undefined") {
      throw new Error("no WebSocket here (Node 20 has one with --experimental-websocket)");
    }
    this.url = url.replace(/\/+$/, "");
    this.token = token;
    this.policy = policy;
    this.transport = transport;
    this.log = log;
    this.onRematch = onRematch;
  }

  async call(method, path, body) {
    const response = await fetch(this.url + path, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw await refusal(response);
    return response.json();
  }

  /** The events of a stream (a path under /api/v1/stream/), one object each. */
  async *stream(path) {
    if (this.transport === "websocket") {
      yield* this.socket(path.replace("/api/v1/stream/", "/api/v1/ws/"));
      return;
    }
    const aborter = new AbortController();
    let timer = setTimeout(() => aborter.abort(), SILENT_FOR * 1000);
    try {
      const response = await fetch(this.url + path, {
        headers: { Authorization: `Bearer ${this.token}` },
        signal: aborter.signal,
      });
      if (!response.ok) throw await refusal(response);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(timer);
        timer = setTimeout(() => aborter.abort(), SILENT_FOR * 1000);
        const lines = (buffer + value).split("\n");
        buffer = lines.pop();
        for (const line of lines) {
          if (line.trim()) yield JSON.parse(line); // a blank line is a heartbeat
        }
      }
    } finally {
      clearTimeout(timer);
      aborter.abort(); // the caller stopped reading: the connection goes
    }
  }

  /** The same events over a websocket; a refusal (an error frame, then the close) throws. */
  async *socket(path) {
    const address = this.url.replace(/^http/, "ws") + path;
    const ws = new WebSocket(address, [SUBPROTOCOL, TOKEN_PROTOCOL + this.token]);
    const frames = [];
    let wake = () => {};
    const arrive = (frame) => {
      frames.push(frame);
      wake();
    };
    ws.onmessage = (message) => arrive({ event: JSON.parse(message.data) });
    ws.onclose = (close) => arrive({ close });
    try {
      let refused = null;
      for (;;) {
        while (!frames.length) await new Promise((resolve) => (wake = resolve));
        const { event, close } = frames.shift();
        if (close) {
          if (refused) throw new ApiError(close.code, refused);
          return;
        }
        if (event.type === "error") refused = event;
        else yield event;
      }
    } finally {
      ws.close();
    }
  }

  /**
   * Play one match to its end; a dropped stream reconnects from the last version seen. Once
   * the match is over its stream stays open while a rematch may come, and the bot stays with
   * it (at the table: an offer to a player who left lapses); it resolves to the match as it
   * ended when the stream closes.
   */
  async play(matchId) {
    let version = null;
    let over = null;
    for (;;) {
      const since = version === null ? "" : `?since=${version}`;
      try {
        for await (const event of this.stream(`/api/v1/stream/matches/${matchId}${since}`)) {
          if (event.type === "closed") {
            if (over) return over;
            throw new ApiError(401, event); // the token was revoked
          }
          if (typeof event.version === "number") version = event.version;
          if (event.type === "state" && (over || (await this.act(event)))) over ??= event.match;
        }
        if (over) return over; // the stream ended after the match: nothing more to see
      } catch (error) {
        if (over) return over;
        if (!(error instanceof ApiError)) {
          this.log(`match ${matchId}: the stream dropped (${error.message}): reconnecting`);
        } else if (waiting(error)) {
          await sleep(error.retryAfter);
        } else {
          throw error;
        }
      }
      await sleep(1);
    }
  }

  /** Move if it is our turn; true once the match is over. */
  async act({ match, view, seat }) {
    if (match.status !== "active") return true;
    if (!view || view.turn !== seat || !view.legal_actions.length) return false;
    const move = { action: await this.policy(view), version: match.version };
    for (;;) {
      try {
        await this.call("POST", `/api/v1/matches/${match.id}/move`, move);
        return false;
      } catch (error) {
        if (waiting(error)) {
          await sleep(error.retryAfter); // the move limit: wait as told, then again
        } else if (error.code === "stale") {
          return false; // a newer state is on its way
        } else {
          throw error;
        }
      }
    }
  }

  /** Accept every challenge and play every match that starts, side by side. */
  async run() {
    const me = (await this.call("GET", "/api/v1/account")).id;
    const playing = new Set();
    for (;;) {
      try {
        for await (const event of this.stream("/api/v1/stream/account")) {
          if (event.type === "closed") throw new ApiError(401, event);
          if (event.type === "challenge" && event.challenge.challenged.id === me) {
            this.accept(event.challenge);
          } else if (event.type === "rematchOffer" && event.direction === "in") {
            this.answerRematch(event);
          } else if (event.type === "matchStart" && !playing.has(event.match.id)) {
            const id = event.match.id;
            playing.add(id);
            this.log(`match ${id}: started`);
            this.play(id)
              .then((over) => this.log(`match ${id}: ${over.status}, ${over.scores.join("-")}`))
              .catch((error) => this.log(`match ${id}: ${error.message}`))
              .finally(() => playing.delete(id));
          }
        }
      } catch (error) {
        if (error instanceof ApiError && !waiting(error)) throw error;
        this.log(`the account's stream dropped (${error.message}): reconnecting`);
      }
      await sleep(1);
    }
  }

  async accept(challenge) {
    // A moment first: the challenger's page is still loading after sending it, and its
    // socket must be open to be taken to the match when we accept.
    await sleep(2);
    try {
      await this.call("POST", `/api/v1/challenges/${challenge.id}/accept`);
      this.log(`accepted ${challenge.challenger.username}'s challenge`);
    } catch (error) {
      this.log(`challenge ${challenge.id}: ${error.message}`);
    }
  }

  /** Accept or decline a rematch offered to the bot, as onRematch says. */
  async answerRematch(offer) {
    try {
      const answer = (await this.onRematch(offer)) ? "accept" : "decline";
      await this.call("POST", `/api/v1/matches/${offer.match_id}/rematch/${answer}`);
      this.log(`match ${offer.match_id}: rematch ${answer === "accept" ? "accepted" : "declined"}`);
    } catch (error) {
      this.log(`match ${offer.match_id}: rematch: ${error.message}`); // withdrawn or lapsed
    }
  }
}

/** Any legal action: replace with your own (the view has the hand, trump, the trick...). */
export function randomPolicy(view) {
  const actions = view.legal_actions;
  return actions[Math.floor(Math.random() * actions.length)];
}

async function main() {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    options: {
      url: { type: "string", default: process.env.EUCHRE_URL ?? "http://127.0.0.1:8000" },
      computer: { type: "string" },
      target: { type: "string", default: "10" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log("EUCHRE_TOKEN=euchre_... node euchre_bot.js [--url URL] [--target N]");
    console.log("    [--computer easy|medium|hard]: one match against the computer, then stop");
    return;
  }
  if (!process.env.EUCHRE_TOKEN) throw new Error("set EUCHRE_TOKEN to your token");
  if (values.computer && !["easy", "medium", "hard"].includes(values.computer)) {
    throw new Error("--computer is easy, medium or hard");
  }
  const log = (line) => console.error(line);
  const bot = new Bot(values.url, process.env.EUCHRE_TOKEN, randomPolicy, { log });
  if (values.computer) {
    const body = { strength: values.computer, target: Number(values.target) };
    const started = await bot.call("POST", "/api/v1/matches/computer", body);
    const over = await bot.play(started.match.id);
    const { id, status, scores, winner } = over;
    console.log(JSON.stringify({ match: id, status, scores, winner }));
  } else {
    await bot.run();
  }
}

// Run as a program (node euchre_bot.js), not when a page or another module imports it.
if (globalThis.process?.argv?.[1]) {
  const { pathToFileURL } = await import("node:url");
  const { realpathSync } = await import("node:fs");
  if (import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
    main().catch((error) => {
      console.error(error.message);
      process.exit(1);
    });
  }
}
