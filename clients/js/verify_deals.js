/**
 * Check that a match record's deals come from its seed, with nothing but what Node 20 and
 * browsers have built in.
 *
 *     node verify_deals.js euchre-match-42.json
 *
 * The record is the JSON a finished match exports (docs/EXPORT.md). This checks that the seed
 * is the one the match committed to before the first deal (its SHA-256 is the record's
 * commitment), then deals every hand from the seed the way docs/DEALS.md specifies and
 * compares each with the record's: the dealer, both hands, the upcard and the stock. It prints
 * OK and how many hands it checked, or the first hand and field that differ, and exits 1.
 *
 * SHA-256 is WebCrypto's (globalThis.crypto.subtle, in Node 20 and in browsers), so checking a
 * record is async. The deals need BLAKE2b with a personalisation, which neither offers: it is
 * written below from RFC 7693. Seeds have up to 39 digits: they are BigInts throughout.
 *
 * As a module: await verifyRecord(record) returns the number of hands checked or throws a
 * Mismatch; deal(seed, handNumber, deck) and firstDealer(seed) give the deals.
 */

const SUITS = "CDHS";
const RANKS = "789TJQKA";
// Card ids: suit * 8 + rank (clubs, diamonds, hearts, spades; 7 8 9 T J Q K A), the joker 32.
export const CODES = [...Array(32).keys()].map((card) => RANKS[card % 8] + SUITS[card >> 3]);
CODES.push("JK");
const suited = (ranks) => [0, 1, 2, 3].flatMap((suit) => ranks.map((rank) => suit * 8 + rank));
export const DECKS = {
  24: suited([2, 3, 4, 5, 6, 7]),
  25: [...suited([2, 3, 4, 5, 6, 7]), 32],
  32: suited([0, 1, 2, 3, 4, 5, 6, 7]),
};
const PERSON = new TextEncoder().encode("two-hand-euchre");

// ---- BLAKE2b (RFC 7693), 64-bit words as BigInts: a deal hashes one short block, so speed
// does not matter and BigInt keeps the code the RFC's.

const MASK = (1n << 64n) - 1n;
const IV = [
  0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
];
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & MASK;

function littleEndian(bytes, at) {
  let word = 0n;
  for (let i = 7; i >= 0; i--) word = (word << 8n) | BigInt(bytes[at + i] ?? 0);
  return word;
}

function compress(h, block, counter, last) {
  const v = [...h, ...IV];
  const m = [...Array(16).keys()].map((i) => littleEndian(block, i * 8));
  v[12] ^= counter & MASK;
  v[13] ^= counter >> 64n;
  if (last) v[14] ^= MASK;
  const g = (a, b, c, d, x, y) => {
    v[a] = (v[a] + v[b] + x) & MASK;
    v[d] = rotr(v[d] ^ v[a], 32n);
    v[c] = (v[c] + v[d]) & MASK;
    v[b] = rotr(v[b] ^ v[c], 24n);
    v[a] = (v[a] + v[b] + y) & MASK;
    v[d] = rotr(v[d] ^ v[a], 16n);
    v[c] = (v[c] + v[d]) & MASK;
    v[b] = rotr(v[b] ^ v[c], 63n);
  };
  for (let round = 0; round < 12; round++) {
    const s = SIGMA[round % 10];
    g(0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (let i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/** BLAKE2b of `message` (bytes), unkeyed, `size` bytes long, with a personalisation of up to
 * 16 bytes (the parameter block's bytes 48-63, zero-padded). */
export function blake2b(message, size = 64, person = new Uint8Array(0)) {
  const h = [...IV];
  h[0] ^= 0x01010000n ^ BigInt(size); // fanout 1, depth 1, no key
  h[6] ^= littleEndian(person, 0);
  h[7] ^= littleEndian(person, 8);
  let at = 0;
  while (message.length - at > 128) {
    compress(h, message.subarray(at, at + 128), BigInt(at + 128), false);
    at += 128;
  }
  compress(h, message.subarray(at), BigInt(message.length), true);
  const out = new Uint8Array(64);
  h.forEach((word, i) => {
    for (let j = 0; j < 8; j++) out[i * 8 + j] = Number((word >> BigInt(8 * j)) & 0xffn);
  });
  return out.subarray(0, size);
}

// ---- The deals (docs/DEALS.md)

const dealHash = (text) => blake2b(new TextEncoder().encode(text), 32, PERSON);

/** SHA-256 of the seed's decimal digits, in lowercase hex (a promise). */
export async function commitment(seed) {
  const digest = await globalThis.crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(BigInt(seed).toString()),
  );
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seat that deals the first hand (hand 0); the deal then alternates. */
export function firstDealer(seed) {
  return dealHash(`${BigInt(seed)}:first dealer`)[0] & 1;
}

/** The deck's card ids in the order hand `handNumber` deals them. */
export function shuffled(seed, handNumber, deck) {
  const cards = [...DECKS[deck]];
  let x = 0n;
  for (const byte of dealHash(`${BigInt(seed)}:${handNumber}`)) x = (x << 8n) | BigInt(byte);
  const n = cards.length;
  for (let i = 0; i < n - 1; i++) {
    const radix = BigInt(n - i);
    const j = i + Number(x % radix);
    x /= radix;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** Hand `handNumber`'s deal as card codes: { dealer, hands: [seat 0's, seat 1's], upcard,
 * stock }. */
export function deal(seed, handNumber, deck = 24) {
  const codes = shuffled(seed, handNumber, deck).map((card) => CODES[card]);
  return {
    dealer: firstDealer(seed) ^ (handNumber & 1),
    hands: [codes.slice(0, 5), codes.slice(5, 10)],
    upcard: codes[10],
    stock: codes.slice(11),
  };
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// A value as a message shows it: cards as codes with spaces, text as it is, else JSON.
function shown(value) {
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.join(" ");
  }
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

/** The record disagrees with its seed, or is no record: `hand` (null for the record as a
 * whole) and the `field` that differs, what the record has and what it should have. */
export class Mismatch extends Error {
  constructor(hand, field, found, expected, source = "the seed gives") {
    const where = hand === null ? field : `hand ${hand}, ${field}`;
    super(`${where}: the record has ${shown(found)}, ${source} ${shown(expected)}`);
    Object.assign(this, { hand, field, found, expected });
  }
}

/** Check a record's commitment and the deal of every hand it tells; resolves to how many
 * hands it checked, or rejects with a Mismatch at the first difference. */
export async function verifyRecord(record) {
  if (!isObject(record) || record.format !== "euchre-record") {
    const found = isObject(record) ? record.format : null;
    throw new Mismatch(null, "format", found, "euchre-record", "expected");
  }
  if (typeof record.seed !== "string" || !/^[0-9]+$/.test(record.seed)) {
    throw new Mismatch(null, "seed", record.seed, "decimal digits", "expected");
  }
  const seed = BigInt(record.seed);
  const expected = await commitment(seed);
  const found = record.commitment;
  if (typeof found !== "string" || found.toLowerCase() !== expected) {
    throw new Mismatch(null, "commitment", found, expected);
  }
  const deck = isObject(record.rules) ? record.rules.deck : undefined;
  if (!Object.hasOwn(DECKS, String(deck)) || typeof deck !== "number") {
    throw new Mismatch(null, "rules.deck", deck, "24, 25 or 32", "expected");
  }
  const hands = record.hands ?? [];
  if (!Array.isArray(hands)) {
    throw new Mismatch(null, "hands", hands, "a list of hands", "expected");
  }
  for (const [number, item] of hands.entries()) {
    const told = isObject(item) ? item : {};
    // Hands are told in order from hand 0, none left out.
    if (told.hand !== number) {
      throw new Mismatch(number, "hand", told.hand, String(number), "expected");
    }
    const dealt = deal(seed, number, deck);
    const seats = Array.isArray(told.hands) && told.hands.length === 2 ? told.hands : [null, null];
    for (const [field, got, want] of [
      ["dealer", told.dealer, dealt.dealer],
      ["hands[0]", seats[0], dealt.hands[0]],
      ["hands[1]", seats[1], dealt.hands[1]],
      ["upcard", told.upcard, dealt.upcard],
      ["stock", told.stock, dealt.stock],
    ]) {
      if (JSON.stringify(got ?? null) !== JSON.stringify(want)) {
        throw new Mismatch(number, field, got, want);
      }
    }
  }
  return hands.length;
}

async function main(argv) {
  if (argv.length !== 1) {
    console.error("usage: node verify_deals.js record.json");
    return 2;
  }
  let record;
  try {
    const { readFile } = await import("node:fs/promises");
    record = JSON.parse(await readFile(argv[0], "utf8"));
  } catch (error) {
    console.error(`cannot read ${argv[0]}: ${error.message}`);
    return 2;
  }
  try {
    const count = await verifyRecord(record);
    console.log(
      "OK: the seed is the one committed to and deals every hand of the record" +
        ` (hands checked: ${count}, deck ${record.rules.deck})`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof Mismatch)) throw error;
    console.error(`MISMATCH: ${error.message}`);
    return 1;
  }
}

// Run as a program (node verify_deals.js), not when a page or another module imports it.
if (globalThis.process?.argv?.[1]) {
  const { pathToFileURL } = await import("node:url");
  const { realpathSync } = await import("node:fs");
  if (import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
    process.exitCode = await main(process.argv.slice(2));
  }
}
