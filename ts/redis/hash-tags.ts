/**
 * Hash tags spread evenly over a cluster's masters. Every key of group g carries the tag
 * `{name/t}` for the group's tag number t; Redis Cluster puts a key in slot CRC16(tag) mod 16384,
 * so the tags `name/0`, `name/1`, ... land on masters at random, and with 4 per master one
 * master often gets twice the keys (and the load) of another. A new index picks, instead, tag
 * numbers whose slots its masters own in equal shares.
 */

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with: polynomial 0x1021, no reflection. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The cluster slot of keys tagged `{tag}`. */
export function tagSlot(tag: string): number {
  return crc16(new TextEncoder().encode(tag)) % 16384;
}

/** Tag numbers tried before giving up on an even spread: far more than any cluster needs. */
const MAX_TRIES = 100_000;

/**
 * `groups` tag numbers for index `name` whose slots `ownerOf` (the master serving a slot, or
 * `undefined` when unknown) spreads over the masters, at most `ceil(groups / masters)` each
 * (so exactly `groups / masters` when that divides). Tag numbers whose master is unknown are
 * skipped; when no master is known, the numbers are `0..groups-1`.
 */
export function balancedTags(name: string, groups: number, ownerOf: (slot: number) => string | undefined): number[] {
  const counts = new Map<string, number>();
  for (let slot = 0; slot < 16384; slot++) {
    const owner = ownerOf(slot);
    if (owner !== undefined && !counts.has(owner)) counts.set(owner, 0);
  }
  if (counts.size === 0) return Array.from({ length: groups }, (_, g) => g);
  const fair = Math.ceil(groups / counts.size);
  const tags: number[] = [];
  for (let t = 0; tags.length < groups && t < MAX_TRIES; t++) {
    const owner = ownerOf(tagSlot(`${name}/${t}`));
    if (owner === undefined) continue;
    const count = counts.get(owner) ?? 0;
    if (count >= fair) continue;
    counts.set(owner, count + 1);
    tags.push(t);
  }
  // Only a cluster whose slots are almost all on one master could get here.
  for (let t = MAX_TRIES; tags.length < groups; t++) tags.push(t);
  return tags;
}
