//! A mutable set of `(id, fingerprint)` entries that answers "which ids lie within k bits of
//! this fingerprint?", exactly, for every k up to the distance it was made for.
//!
//! Entries live in *slots*: append-only arrays of fingerprint, id and a live bit, with a map
//! from ids to slots. Slots fall in three ranges:
//!
//! - `..indexed`: in the tables, one per unit of the filter (a permuted table, or a part of a
//!   multi-index layout). Each groups them by the top bits of their key (the table's prefix,
//!   or the part), in one contiguous array with a directory of bucket starts, so a query reads
//!   short contiguous ranges, fingerprints inline: one bucket per permuted table, the buckets
//!   of a Hamming ball of keys per part.
//! - `indexed..chained`: the *delta*, added since. Each table threads them into per-bucket
//!   chains, so the delta costs a query the same one lookup per table whatever its size.
//! - `chained..`: compared one by one by every query. Empty, except without a layout (every
//!   slot is here: the right thing for a few hundred entries) and after a merge that ran out of
//!   memory (answers stay exact, only slower).
//!
//! When the delta passes an eighth of the tables it is merged in: per table, the delta is sorted
//! by bucket and the table's entries move once, in memmoves between the buckets that gain
//! entries; the tables are never sorted again. Removal only clears a live
//! bit (a tombstone); replacing an id is removal plus insertion. When dead slots outnumber live
//! ones, or the index has grown four-fold since its buckets were sized, everything is rebuilt
//! from the live slots (a merge into empty tables).
//!
//! Queries report each entry once: from the first unit in which it collides or qualifies with
//! the query, as in [`crate::find_all`].

use crate::index::id_map::IdMap;
use crate::index::format;
use crate::search::filter::{Filter, Unit};
use crate::search::parts::{key_bits, Ball, Slack};
use crate::search::strategy::Strategy;
use crate::search::radix::RadixSort;
use crate::memory::zeroed;
use crate::Error;

/// End of a delta chain.
const NONE: u32 = u32::MAX;

/// Most slots, dead ones included: slots are `u32` and `u32::MAX` marks a chain's end.
const MAX_SLOTS: usize = u32::MAX as usize - 1;

/// The delta is merged once it holds more than this many slots and an eighth of the tables.
const MIN_DELTA: usize = 256;

/// Widest bucket directory: 2^24 starts (64 MiB per table) serve some 64M fingerprints.
const MAX_BUCKET_BITS: u32 = 24;

/// Entries found by [`Index::query`] and [`Index::query_many`], reused from call to call.
#[derive(Clone, Debug, Default)]
pub struct Matches {
    /// Query `q` found `ids[offsets[q] .. offsets[q + 1]]`; one more offset than queries.
    pub offsets: Vec<u32>,
    /// Ids found, each query's sorted by (distance, id).
    pub ids: Vec<u32>,
    /// Distance of each id found from its query.
    pub distances: Vec<u8>,
    /// One query's finds as `distance << 32 | id`, the order they are sorted in.
    found: Vec<u64>,
    probes: Probes,
}

/// The entries of one unit of the filter.
#[derive(Clone, Debug)]
struct Table {
    /// A fingerprint's bucket is its table prefix shifted right by this much.
    shift: u32,
    /// Bucket `b` holds `fingerprints[starts[b] .. starts[b + 1]]`.
    starts: Vec<u32>,
    fingerprints: Vec<u64>,
    slots: Vec<u32>,
    /// First delta slot of each bucket's chain, or [`NONE`].
    heads: Vec<u32>,
    /// `links[s - indexed]`: the next delta slot of slot `s`'s chain, or [`NONE`].
    links: Vec<u32>,
}

impl Table {
    /// A table without entries, bucketed on `bits` bits of the key (at most its width).
    fn empty(unit: Unit<'_>, bits: u32) -> Result<Table, Error> {
        let bits = bits.min(unit.key_bits());
        let buckets = 1usize << bits;
        let mut table = Table {
            shift: 64 - bits,
            starts: Vec::new(),
            fingerprints: Vec::new(),
            slots: Vec::new(),
            heads: Vec::new(),
            links: Vec::new(),
        };
        table.starts.try_reserve_exact(buckets + 1).map_err(|_| Error::OutOfMemory)?;
        table.starts.resize(buckets + 1, 0);
        table.heads.try_reserve_exact(buckets).map_err(|_| Error::OutOfMemory)?;
        table.heads.resize(buckets, NONE);
        Ok(table)
    }

    #[inline]
    fn bucket(&self, unit: Unit<'_>, fingerprint: u64) -> usize {
        (unit.key(fingerprint) >> self.shift) as usize
    }

    /// Bits the buckets are keyed on.
    fn bits(&self) -> u32 {
        64 - self.shift
    }
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct Index {
    distance: u32,
    /// The filter code ([`Strategy::code`]) the index was made with, 0 when the host chooses
    /// (see [`Index::set_filter`]).
    configured: u32,
    /// The filter; `None` when every query compares every entry.
    layout: Option<Filter>,
    /// One per unit of the filter, or none when building them ran out of memory.
    tables: Vec<Table>,
    fingerprints: Vec<u64>,
    ids: Vec<u32>,
    /// One bit per slot.
    live: Vec<u64>,
    dead: usize,
    slots_of: IdMap,
    /// Slots below this are in the tables.
    indexed: usize,
    /// Slots from `indexed` up to this are chained; later ones are compared one by one.
    chained: usize,
    /// Bucket bits the tables were sized for (each table uses at most its prefix width).
    bucket_bits: u32,
}

impl Index {
    /// An empty index answering queries up to `distance` bits. With a filter code `filter`
    /// > 0 ([`Strategy::code`]: blocks, or parts) it uses that filter for good; with 0 it
    /// compares every entry until [`Index::set_filter`] picks one (the host's planner does, as
    /// the index grows).
    ///
    /// # Errors
    /// [`Error::DistanceTooLarge`] and the other [`Filter::new`] errors; [`Error::OutOfMemory`].
    pub fn new(distance: u32, filter: u32) -> Result<Index, Error> {
        if distance > 64 {
            return Err(Error::DistanceTooLarge { distance });
        }
        let mut index = Index {
            distance,
            configured: filter,
            layout: None,
            tables: Vec::new(),
            fingerprints: Vec::new(),
            ids: Vec::new(),
            live: Vec::new(),
            dead: 0,
            slots_of: IdMap::default(),
            indexed: 0,
            chained: 0,
            bucket_bits: 0,
        };
        index.set_filter(filter)?;
        Ok(index)
    }

    /// Largest distance queries may ask for.
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The filter code given to [`Index::new`] (0: chosen by the host).
    pub fn configured_filter(&self) -> u32 {
        self.configured
    }

    /// Code of the current filter ([`Strategy::code`]), 0 when queries compare every entry.
    pub fn filter(&self) -> u32 {
        self.layout.as_ref().map_or(0, |f| f.strategy().code())
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.slots_of.len()
    }

    /// Whether the index holds no id.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `id` is in the index.
    pub fn contains(&self, id: u32) -> bool {
        self.slots_of.get(id).is_some()
    }

    /// Adds `id` with `fingerprint`, replacing the fingerprint `id` had; `true` if it had one.
    ///
    /// # Errors
    /// [`Error::TooManyElements`] when the slots run out (about 4 billion additions without
    /// a rebuild); [`Error::OutOfMemory`]. The index is unchanged when either is returned.
    pub fn insert(&mut self, id: u32, fingerprint: u64) -> Result<bool, Error> {
        let chain = self.chaining();
        self.reserve(1, chain)?;
        let replaced = self.push(id, fingerprint);
        if chain {
            self.chain_tail();
        }
        self.maintain();
        Ok(replaced)
    }

    /// Adds every `(ids[k], fingerprints[k])` in order, as many [`Index::insert`] calls would
    /// (a later duplicate id wins), in one pass.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for slices of different lengths; as [`Index::insert`]. The
    /// index is unchanged when an error is returned.
    pub fn insert_many(&mut self, ids: &[u32], fingerprints: &[u64]) -> Result<(), Error> {
        if ids.len() != fingerprints.len() {
            return Err(Error::LengthMismatch);
        }
        // A batch that is about to be merged needs no chains first.
        let chain = self.chaining() && self.fingerprints.len() + ids.len() - self.indexed <= self.delta_limit();
        self.reserve(ids.len(), chain)?;
        for (&id, &fingerprint) in ids.iter().zip(fingerprints) {
            self.push(id, fingerprint);
        }
        if chain {
            self.chain_tail();
        }
        self.maintain();
        Ok(())
    }

    /// Removes `id`; `true` if it was there.
    pub fn remove(&mut self, id: u32) -> bool {
        match self.slots_of.remove(id) {
            Some(slot) => {
                self.kill(slot);
                self.maintain();
                true
            }
            None => false,
        }
    }

    /// Switches to the filter with code `filter` ([`Strategy::code`]; 0: compare every
    /// entry), rebuilding the tables.
    ///
    /// # Errors
    /// The [`Filter::new`] errors, leaving the index as it was; [`Error::OutOfMemory`], leaving
    /// it without a filter (every query then compares every entry).
    pub fn set_filter(&mut self, filter: u32) -> Result<(), Error> {
        self.layout = Filter::new(Strategy::from_code(filter), self.distance)?;
        self.rebuild().map_err(|error| {
            self.layout = None;
            error
        })
    }

    /// Writes to `out` the ids within `distance` bits of `fingerprint`, sorted by (distance,
    /// id), at most `limit` of them; `out.offsets` becomes `[0, count]`.
    ///
    /// # Errors
    /// [`Error::QueryDistanceAboveIndex`] when `distance` exceeds the index's;
    /// [`Error::OutOfMemory`].
    pub fn query(&self, fingerprint: u64, distance: u32, limit: u32, out: &mut Matches) -> Result<(), Error> {
        self.query_many(&[fingerprint], distance, limit, out)
    }

    /// [`Index::query`] for each fingerprint in turn, the results one after the other in `out`.
    ///
    /// # Errors
    /// As [`Index::query`]; [`Error::TooManyElements`] when more than `u32::MAX` ids are found
    /// in total.
    pub fn query_many(&self, fingerprints: &[u64], distance: u32, limit: u32, out: &mut Matches) -> Result<(), Error> {
        if distance > self.distance {
            return Err(Error::QueryDistanceAboveIndex { distance, index_distance: self.distance });
        }
        let oom = |_| Error::OutOfMemory;
        out.offsets.clear();
        out.ids.clear();
        out.distances.clear();
        out.offsets.try_reserve(fingerprints.len() + 1).map_err(oom)?;
        out.offsets.push(0);
        for &fingerprint in fingerprints {
            out.found.clear();
            self.find(fingerprint, distance, &mut out.found, &mut out.probes)?;
            sort_found(&mut out.found)?;
            let kept = &out.found[..out.found.len().min(limit as usize)];
            if out.ids.len() + kept.len() > u32::MAX as usize {
                return Err(Error::TooManyElements);
            }
            out.ids.try_reserve(kept.len()).map_err(oom)?;
            out.distances.try_reserve(kept.len()).map_err(oom)?;
            // One plain loop: results are few, and vectorised copies cost .wasm size.
            for &f in kept {
                out.ids.push(f as u32);
                out.distances.push((f >> 32) as u8);
            }
            out.offsets.push(out.ids.len() as u32);
        }
        Ok(())
    }

    /// The index in the format of [`crate::index_format`].
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    pub fn serialize(&self) -> Result<Vec<u8>, Error> {
        let n = self.len();
        let mut keys = zeroed(n)?;
        let mut live = (0..self.fingerprints.len()).filter(|&s| self.is_live(s));
        for key in keys.iter_mut() {
            let slot = live.next().unwrap_or(0);
            *key = u64::from(self.ids[slot]) << 32 | slot as u64;
        }
        let mut scratch = zeroed(n)?;
        let mut sort = RadixSort::new(32, 32)?;
        for &key in &keys {
            sort.count(key);
        }
        sort.sort(&mut keys, &mut scratch)?;
        format::encode(self.distance, self.configured, n, |k| {
            ((keys[k] >> 32) as u32, self.fingerprints[keys[k] as u32 as usize])
        })
    }

    /// The index `bytes` describe. With filter 0 in the bytes, it compares every entry until
    /// [`Index::set_filter`] is called.
    ///
    /// # Errors
    /// [`Error::Format`] for bytes that are not a valid index; [`Error::OutOfMemory`].
    pub fn deserialize(bytes: &[u8]) -> Result<Index, Error> {
        let decoded = format::decode(bytes)?;
        let mut index = Index::new(decoded.distance, 0)?;
        index.reserve(decoded.len(), false)?;
        for (id, fingerprint) in decoded.entries() {
            index.push(id, fingerprint);
        }
        index.configured = decoded.filter;
        index.set_filter(decoded.filter)?;
        Ok(index)
    }

    fn is_live(&self, slot: usize) -> bool {
        self.live[slot / 64] >> (slot % 64) & 1 != 0
    }

    fn kill(&mut self, slot: u32) {
        let slot = slot as usize;
        self.live[slot / 64] &= !(1 << (slot % 64));
        self.dead += 1;
    }

    /// Whether new slots join the delta chains: when there are tables and no tail.
    fn chaining(&self) -> bool {
        !self.tables.is_empty() && self.chained == self.fingerprints.len()
    }

    /// Makes room for `count` more slots (and their chain links when `chains`), so that pushing
    /// and chaining them cannot fail.
    fn reserve(&mut self, count: usize, chains: bool) -> Result<(), Error> {
        let slots = self.fingerprints.len() + count;
        if slots > MAX_SLOTS {
            return Err(Error::TooManyElements);
        }
        let oom = |_| Error::OutOfMemory;
        self.fingerprints.try_reserve(count).map_err(oom)?;
        self.ids.try_reserve(count).map_err(oom)?;
        self.live.try_reserve((slots + 63) / 64 - self.live.len()).map_err(oom)?;
        self.slots_of.reserve(self.len() + count)?;
        if chains {
            for table in &mut self.tables {
                table.links.try_reserve(count).map_err(oom)?;
            }
        }
        Ok(())
    }

    /// Appends a slot; [`Index::reserve`] made room. Returns whether `id` had a slot before.
    fn push(&mut self, id: u32, fingerprint: u64) -> bool {
        let slot = self.fingerprints.len();
        self.fingerprints.push(fingerprint);
        self.ids.push(id);
        if slot % 64 == 0 {
            self.live.push(0);
        }
        self.live[slot / 64] |= 1 << (slot % 64);
        // Cannot fail: the map has room for this id.
        match self.slots_of.insert(id, slot as u32) {
            Ok(Some(previous)) => {
                self.kill(previous);
                true
            }
            _ => false,
        }
    }

    /// Threads the tail into the delta chains; [`Index::reserve`] made room for the links.
    fn chain_tail(&mut self) {
        if let Some(layout) = &self.layout {
            for (u, table) in self.tables.iter_mut().enumerate() {
                let unit = layout.unit(u, None);
                for slot in self.chained..self.fingerprints.len() {
                    let bucket = table.bucket(unit, self.fingerprints[slot]);
                    table.links.push(table.heads[bucket]);
                    table.heads[bucket] = slot as u32;
                }
            }
        }
        self.chained = self.fingerprints.len();
    }

    /// Most delta slots before a merge.
    fn delta_limit(&self) -> usize {
        MIN_DELTA.max(self.indexed / 8)
    }

    /// Merges the delta, or rebuilds, when due. Running out of memory here costs only speed:
    /// the slots stay in the delta or the tail, and every answer stays exact.
    fn maintain(&mut self) {
        let slots = self.fingerprints.len();
        let live = slots - self.dead;
        if self.dead > MIN_DELTA && self.dead > live {
            let _ = self.rebuild();
        } else if self.layout.is_some() && (slots - self.indexed > self.delta_limit() || self.chained < slots) {
            if self.tables.is_empty() || bucket_bits(live) >= self.bucket_bits + 2 {
                let _ = self.rebuild();
            } else {
                let _ = self.merge();
            }
        }
    }

    /// Drops the dead slots, renumbering the others, and builds the tables of the current
    /// layout afresh. Out of memory, the index is left with every slot in the tail.
    fn rebuild(&mut self) -> Result<(), Error> {
        if self.dead > 0 {
            self.compact()?;
        }
        // Until the tables are whole, queries compare every slot.
        self.tables = Vec::new();
        self.indexed = 0;
        self.chained = 0;
        let layout = match &self.layout {
            Some(layout) => layout,
            None => return Ok(()),
        };
        let bits = bucket_bits(self.len());
        let mut tables = Vec::new();
        tables.try_reserve_exact(layout.units()).map_err(|_| Error::OutOfMemory)?;
        for u in 0..layout.units() {
            let unit = layout.unit(u, None);
            // A part's bucket holds about one entry: its probes are many and cheap, unlike a
            // table's one probe per query.
            let unit_bits = match unit {
                Unit::Table(_) => bits,
                Unit::Part { .. } => key_bits(unit.key_bits(), self.len()),
            };
            tables.push(Table::empty(unit, unit_bits)?);
        }
        self.tables = tables;
        self.bucket_bits = bits;
        self.merge().map_err(|error| {
            self.tables = Vec::new();
            error
        })
    }

    /// Drops the dead slots, renumbering the others; the tables must be rebuilt after.
    fn compact(&mut self) -> Result<(), Error> {
        let oom = |_| Error::OutOfMemory;
        let live = self.len();
        let mut renumbered = Vec::new();
        renumbered.try_reserve_exact(self.fingerprints.len()).map_err(oom)?;
        let mut kept = 0;
        for slot in 0..self.fingerprints.len() {
            renumbered.push(kept as u32);
            if self.is_live(slot) {
                self.fingerprints[kept] = self.fingerprints[slot];
                self.ids[kept] = self.ids[slot];
                kept += 1;
            }
        }
        self.fingerprints.truncate(live);
        self.ids.truncate(live);
        self.live.truncate((live + 63) / 64);
        for (word, start) in self.live.iter_mut().zip((0..live).step_by(64)) {
            *word = u64::MAX >> (64 - (live - start).min(64));
        }
        self.slots_of.renumber(|slot| renumbered[slot as usize]);
        self.dead = 0;
        self.tables = Vec::new();
        Ok(())
    }

    /// Moves the live slots from `indexed` on into the tables (all of them, into empty tables,
    /// when rebuilding): per table, sorted by bucket and interleaved into the contiguous array
    /// from the back, so the entries already there move once, in long memmoves between the
    /// buckets that gain entries. On error nothing has changed.
    fn merge(&mut self) -> Result<(), Error> {
        let oom = |_| Error::OutOfMemory;
        let layout = match &self.layout {
            Some(layout) => layout,
            None => return Ok(()),
        };
        let incoming: Vec<u32> = {
            let mut incoming = Vec::new();
            incoming.try_reserve_exact(self.fingerprints.len() - self.indexed).map_err(oom)?;
            incoming.extend((self.indexed..self.fingerprints.len()).filter(|&s| self.is_live(s)).map(|s| s as u32));
            incoming
        };
        let mut items = zeroed(incoming.len())?;
        let mut scratch = zeroed(incoming.len())?;
        let mut sorts = Vec::new();
        sorts.try_reserve_exact(self.tables.len()).map_err(oom)?;
        for table in &mut self.tables {
            // An eighth to spare, so that the next merge seldom has to move the arrays.
            let room = incoming.len() + (table.slots.len() + incoming.len()) / 8;
            table.fingerprints.try_reserve_exact(room).map_err(oom)?;
            table.slots.try_reserve_exact(room).map_err(oom)?;
            sorts.push(RadixSort::new(32, 64 - table.shift)?);
        }
        // Nothing can fail from here on.
        for ((u, table), sort) in self.tables.iter_mut().enumerate().zip(&mut sorts) {
            let unit = layout.unit(u, None);
            for (item, &slot) in items.iter_mut().zip(&incoming) {
                *item = (table.bucket(unit, self.fingerprints[slot as usize]) as u64) << 32 | u64::from(slot);
                sort.count(*item);
            }
            sort.sort(&mut items, &mut scratch)?;
            interleave(table, &items, &self.fingerprints);
            table.heads.fill(NONE);
            table.links.clear();
        }
        self.indexed = self.fingerprints.len();
        self.chained = self.indexed;
        Ok(())
    }

    /// Appends to `found` every live entry within `distance` of `fingerprint`, as
    /// `distance << 32 | id`.
    fn find(&self, fingerprint: u64, distance: u32, found: &mut Vec<u64>, probes: &mut Probes) -> Result<(), Error> {
        let mut report = |difference: u64, slot: usize| -> Result<(), Error> {
            if self.is_live(slot) {
                found.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
                found.push(u64::from(difference.count_ones()) << 32 | u64::from(self.ids[slot]));
            }
            Ok(())
        };
        if let Some(layout) = &self.layout {
            // Parts are probed with the slack of the query's distance: smaller balls when it
            // asks for less than the index's distance.
            let slack = match layout {
                Filter::Parts(parts) => Some(Slack::new(parts.len() as u32, distance)),
                Filter::Tables(_) => None,
            };
            // `drain` empties the list before it scans, but a query that panicked natively part-way
            // would leave its probes to the next query with the same `Matches`.
            probes.len = 0;
            let mut scan = |probe: Probe| {
                let first = |difference: u64| layout.unit(probe.table as usize, slack.as_ref()).first(difference);
                self.scan(probe, fingerprint, distance, first, &mut report)
            };
            match layout {
                // Permuted tables get a loop of their own, with their prefix inlined: a query
                // probes one bucket of a few entries per table, and what the parts loop adds
                // per table (a ball of keys, out-of-line unit calls) was a third of a d=3
                // query's time (measured before probes were batched).
                Filter::Tables(tables) => {
                    for (t, (table, permuted)) in self.tables.iter().zip(tables.tables()).enumerate() {
                        let bucket = (permuted.prefix(fingerprint) >> table.shift) as usize;
                        probes.push(self.probe(t, bucket), &self.tables, &mut scan)?;
                    }
                }
                Filter::Parts(_) => {
                    for (t, table) in self.tables.iter().enumerate() {
                        let unit = layout.unit(t, slack.as_ref());
                        let radius = match unit.radius() {
                            Some(radius) => radius,
                            None => continue,
                        };
                        let key = table.bucket(unit, fingerprint);
                        for mask in Ball::new(table.bits(), radius) {
                            probes.push(self.probe(t, key ^ mask as usize), &self.tables, &mut scan)?;
                        }
                    }
                }
            }
            probes.drain(&self.tables, &mut scan)?;
        }
        for (slot, &other) in self.fingerprints.iter().enumerate().skip(self.chained) {
            if (other ^ fingerprint).count_ones() <= distance {
                report(other ^ fingerprint, slot)?;
            }
        }
        Ok(())
    }

    /// Where `bucket` of table `t` lies (its first fingerprint is read by [`Probes::drain`]).
    #[inline]
    fn probe(&self, t: usize, bucket: usize) -> Probe {
        let table = &self.tables[t];
        let (start, end) = (table.starts[bucket], table.starts[bucket + 1]);
        Probe { table: t as u32, bucket: bucket as u32, start, end, head: 0 }
    }

    /// Reports the entries of a probed bucket (and of its delta chain) within `distance` of
    /// `fingerprint` for which `first` says this unit is the one to report them.
    fn scan(
        &self,
        probe: Probe,
        fingerprint: u64,
        distance: u32,
        first: impl Fn(u64) -> bool,
        report: &mut impl FnMut(u64, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let table = &self.tables[probe.table as usize];
        let (start, end) = (probe.start as usize, probe.end as usize);
        if start < end {
            // The slot is read only for a match: most candidates are far, and the slots are
            // another cache line.
            let difference = probe.head ^ fingerprint;
            if difference.count_ones() <= distance && first(difference) {
                report(difference, table.slots[start] as usize)?;
            }
            let mut i = start + 1;
            while i < end {
                i += first_near(&table.fingerprints[i..end], fingerprint, distance);
                if i == end {
                    break;
                }
                let difference = table.fingerprints[i] ^ fingerprint;
                if first(difference) {
                    report(difference, table.slots[i] as usize)?;
                }
                i += 1;
            }
        }
        if self.indexed == self.chained {
            return Ok(());
        }
        let mut slot = table.heads[probe.bucket as usize];
        while slot != NONE {
            let difference = self.fingerprints[slot as usize] ^ fingerprint;
            if difference.count_ones() <= distance && first(difference) {
                report(difference, slot as usize)?;
            }
            slot = table.links[slot as usize - self.indexed];
        }
        Ok(())
    }
}

/// Buckets a query locates before it scans any of them. The buckets of one query lie far apart
/// in tables larger than the cache, and reading their bounds and then their entries bucket by
/// bucket waited on one miss after another: over 1M entries, queries ran 2.7-8.7 times slower than
/// the same queries repeated with their buckets cached. Located in batches, each step a loop of
/// independent reads, the misses of a batch overlap. 64 measured faster than 32 and 128 at d=10.
const PROBES: usize = 64;

/// One bucket to scan, located by [`Index::probe`].
#[derive(Clone, Copy, Debug, Default)]
struct Probe {
    table: u32,
    bucket: u32,
    start: u32,
    end: u32,
    /// The bucket's first fingerprint, when it has one.
    head: u64,
}

/// Up to [`PROBES`] located buckets, scanned together. Kept in [`Matches`] from query to
/// query: an array made anew per query was a `memory.fill` per query.
#[derive(Clone, Debug)]
struct Probes {
    list: [Probe; PROBES],
    len: usize,
}

impl Default for Probes {
    fn default() -> Probes {
        Probes { list: [Probe::default(); PROBES], len: 0 }
    }
}

impl Probes {
    /// Keeps `probe`; once [`PROBES`] are kept, scans them.
    #[inline]
    fn push(&mut self, probe: Probe, tables: &[Table], scan: &mut impl FnMut(Probe) -> Result<(), Error>) -> Result<(), Error> {
        self.list[self.len] = probe;
        self.len += 1;
        if self.len == PROBES {
            self.drain(tables, scan)?;
        }
        Ok(())
    }

    /// Reads the first fingerprint of each bucket kept, then scans them.
    fn drain(&mut self, tables: &[Table], scan: &mut impl FnMut(Probe) -> Result<(), Error>) -> Result<(), Error> {
        let len = core::mem::replace(&mut self.len, 0);
        for probe in &mut self.list[..len] {
            if probe.start < probe.end {
                probe.head = tables[probe.table as usize].fingerprints[probe.start as usize];
            }
        }
        for &probe in &self.list[..len] {
            scan(probe)?;
        }
        Ok(())
    }
}

/// Position of the first of `candidates` within `distance` bits of `fingerprint`, or their
/// count. A loop of its own, with the handling of a match outside it: with it, queries over 1M
/// entries ran 1.79M/s at d=3 and 223k/s at d=6, against 1.50M/s and 197k/s for one loop doing
/// both (separate runs; d=10 alike). Not inlined by rustc; binaryen inlines it into its one
/// caller, and that is the build measured.
#[inline(never)]
fn first_near(candidates: &[u64], fingerprint: u64, distance: u32) -> usize {
    candidates.iter().position(|&c| (c ^ fingerprint).count_ones() <= distance).unwrap_or(candidates.len())
}

/// Sorts finds (`distance << 32 | id`, so at most 39 bits): by insertion when few, as a query's
/// usually are, else by radix (the standard sort would add 5 KiB to the .wasm).
fn sort_found(found: &mut [u64]) -> Result<(), Error> {
    if found.len() <= 32 {
        for i in 1..found.len() {
            let value = found[i];
            let mut j = i;
            while j > 0 && found[j - 1] > value {
                found[j] = found[j - 1];
                j -= 1;
            }
            found[j] = value;
        }
        return Ok(());
    }
    let mut scratch = zeroed(found.len())?;
    let mut sort = RadixSort::new(0, 39)?;
    for &f in found.iter() {
        sort.count(f);
    }
    sort.sort(found, &mut scratch)
}

/// Bucket bits for `n` entries: about 4 per bucket, so that the directory costs about one byte
/// per entry and a probe reads about one cache line of entries.
fn bucket_bits(n: usize) -> u32 {
    let log2 = usize::BITS - 1 - n.max(1).leading_zeros();
    log2.saturating_sub(2).clamp(1, MAX_BUCKET_BITS)
}

/// Inserts `items` (`bucket << 32 | slot`, sorted by bucket) into `table`, each at the end of
/// its bucket; `table`'s vectors have room for them.
fn interleave(table: &mut Table, items: &[u64], fingerprints: &[u64]) {
    let old_len = table.fingerprints.len();
    let new_len = old_len + items.len();
    table.fingerprints.resize(new_len, 0);
    table.slots.resize(new_len, 0);
    // From the back: move the untouched entries above the current bucket up, then place the
    // bucket's new items below them. Destinations never overtake unread sources.
    let (mut read_end, mut write_end) = (old_len, new_len);
    let mut k = items.len();
    while k > 0 {
        let bucket = (items[k - 1] >> 32) as usize;
        let mut first = k - 1;
        while first > 0 && (items[first - 1] >> 32) as usize == bucket {
            first -= 1;
        }
        let above = table.starts[bucket + 1] as usize;
        let moved = read_end - above;
        table.fingerprints.copy_within(above..read_end, write_end - moved);
        table.slots.copy_within(above..read_end, write_end - moved);
        write_end -= moved;
        for &item in items[first..k].iter().rev() {
            write_end -= 1;
            let slot = item as u32;
            table.slots[write_end] = slot;
            table.fingerprints[write_end] = fingerprints[slot as usize];
        }
        read_end = above;
        k = first;
    }
    // Each bucket's start moves up by the items of the buckets below it.
    let mut below = 0;
    for (bucket, start) in table.starts.iter_mut().enumerate() {
        while below < items.len() && ((items[below] >> 32) as usize) < bucket {
            below += 1;
        }
        *start += below as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::bits_differ;
    use crate::test_rng::Rng;
    use std::collections::BTreeMap;

    /// The expected answer: every id of the model within `distance`, by (distance, id).
    fn brute(model: &BTreeMap<u32, u64>, query: u64, distance: u32, limit: u32) -> (Vec<u32>, Vec<u8>) {
        let mut found: Vec<(u32, u32)> = model
            .iter()
            .map(|(&id, &f)| (bits_differ(f, query), id))
            .filter(|&(d, _)| d <= distance)
            .collect();
        found.sort_unstable();
        found.truncate(limit as usize);
        (found.iter().map(|&(_, id)| id).collect(), found.iter().map(|&(d, _)| d as u8).collect())
    }

    fn check(index: &Index, model: &BTreeMap<u32, u64>, rng: &mut Rng, values: &[u64]) {
        assert_eq!(index.len(), model.len());
        let mut out = Matches::default();
        let queries: Vec<u64> = (0..8).map(|_| near(rng, values, index.distance())).collect();
        let distance = rng.below(u64::from(index.distance()) + 1) as u32;
        let limit = if rng.below(3) == 0 { rng.below(4) as u32 } else { u32::MAX };
        index.query_many(&queries, distance, limit, &mut out).unwrap();
        assert_eq!(out.offsets.len(), queries.len() + 1);
        for (q, &query) in queries.iter().enumerate() {
            let range = out.offsets[q] as usize..out.offsets[q + 1] as usize;
            let expected = brute(model, query, distance, limit);
            assert_eq!((out.ids[range.clone()].to_vec(), out.distances[range].to_vec()), expected);
        }
        let mut single = Matches::default();
        index.query(queries[0], distance, limit, &mut single).unwrap();
        assert_eq!(single.ids, brute(model, queries[0], distance, limit).0);
    }

    /// A value at 0..=distance+2 bits from an earlier one, or a fresh one.
    fn near(rng: &mut Rng, values: &[u64], distance: u32) -> u64 {
        if values.is_empty() || rng.below(4) == 0 {
            return rng.next();
        }
        let mut x = values[rng.below(values.len() as u64) as usize];
        for _ in 0..rng.below(u64::from(distance) + 3) {
            x ^= 1 << rng.below(64);
        }
        x
    }

    /// Random additions (replacing ids often), removals, batches and layout switches, checked
    /// against a map and brute force, with a save and load now and then.
    fn exercise(distance: u32, blocks: u32, switches: &[u32], seed: u64) {
        let mut rng = Rng::new(seed);
        let mut index = Index::new(distance, blocks).unwrap();
        let mut model = BTreeMap::new();
        let mut values = Vec::new();
        for step in 0..4000 {
            let id = rng.below(1500) as u32;
            match rng.below(10) {
                0..=4 => {
                    let f = near(&mut rng, &values, distance);
                    values.push(f);
                    assert_eq!(index.insert(id, f).unwrap(), model.insert(id, f).is_some());
                }
                5..=7 => assert_eq!(index.remove(id), model.remove(&id).is_some()),
                8 => {
                    let count = rng.below(if step % 500 == 0 { 900 } else { 20 }) as usize;
                    let ids: Vec<u32> = (0..count).map(|_| rng.below(1500) as u32).collect();
                    let fingerprints: Vec<u64> = (0..count).map(|_| near(&mut rng, &values, distance)).collect();
                    index.insert_many(&ids, &fingerprints).unwrap();
                    for (&id, &f) in ids.iter().zip(&fingerprints) {
                        model.insert(id, f);
                        values.push(f);
                    }
                }
                _ => {
                    if !switches.is_empty() && rng.below(20) == 0 {
                        index.set_filter(switches[rng.below(switches.len() as u64) as usize]).unwrap();
                    }
                    if rng.below(10) == 0 {
                        let bytes = index.serialize().unwrap();
                        let loaded = Index::deserialize(&bytes).unwrap();
                        assert_eq!(loaded.serialize().unwrap(), bytes);
                        assert_eq!((loaded.distance(), loaded.configured_filter()), (distance, blocks));
                        index = loaded;
                        if blocks == 0 && !switches.is_empty() {
                            index.set_filter(switches[0]).unwrap();
                        }
                    }
                }
            }
            if step % 7 == 0 {
                check(&index, &model, &mut rng, &values);
            }
        }
        check(&index, &model, &mut rng, &values);
    }

    #[test]
    fn probes_scan_each_bucket_once_in_order_with_its_head() {
        let mut index = Index::new(3, 4).unwrap();
        let ids: Vec<u32> = (0..2000).collect();
        let mut rng = Rng::new(7);
        let fingerprints: Vec<u64> = ids.iter().map(|_| rng.next()).collect();
        index.insert_many(&ids, &fingerprints).unwrap();
        assert_eq!(index.indexed, ids.len());
        let buckets = index.tables[0].starts.len() - 1;
        for count in [0, 1, PROBES - 1, PROBES, PROBES + 1, 3 * PROBES + 5] {
            let mut probes = Probes::default();
            let mut seen = Vec::new();
            let mut scan = |probe: Probe| {
                let table = &index.tables[probe.table as usize];
                if probe.start < probe.end {
                    assert_eq!(probe.head, table.fingerprints[probe.start as usize]);
                }
                seen.push(probe.bucket as usize);
                Ok(())
            };
            for k in 0..count {
                probes.push(index.probe(0, k * 7 % buckets), &index.tables, &mut scan).unwrap();
            }
            probes.drain(&index.tables, &mut scan).unwrap();
            assert_eq!(seen, (0..count).map(|k| k * 7 % buckets).collect::<Vec<_>>());
        }
    }

    #[test]
    fn matches_brute_force_through_every_kind_of_change() {
        exercise(3, 4, &[], 41);
        exercise(3, 6, &[], 42);
        exercise(3, 0, &[0, 4, 5, 7], 43);
        exercise(0, 0, &[0, 1, 3], 44);
        exercise(6, 8, &[], 45);
        exercise(64, 0, &[0], 46);
        let parts = |m: u32| crate::PARTS_CODE + m;
        exercise(10, parts(4), &[], 50);
        exercise(16, parts(5), &[], 51);
        exercise(6, 0, &[0, parts(3), 8, parts(1), parts(7)], 52);
        exercise(0, parts(1), &[], 53);
        exercise(64, parts(64), &[], 54);
        // 210 permuted tables: more than a batch of probes per query.
        exercise(4, 10, &[], 56);
    }

    #[test]
    fn grows_past_merges_and_rebuckets() {
        grows(3, 5, 47);
        grows(10, crate::PARTS_CODE + 4, 55);
    }

    fn grows(distance: u32, filter: u32, seed: u64) {
        let mut rng = Rng::new(seed);
        let mut index = Index::new(distance, filter).unwrap();
        let mut model = BTreeMap::new();
        let mut values = Vec::new();
        for id in 0..20_000u32 {
            let f = near(&mut rng, &values, distance);
            values.push(f);
            index.insert(id, f).unwrap();
            model.insert(id, f);
        }
        assert!(index.indexed > 15_000 && index.bucket_bits >= 11);
        for _ in 0..30 {
            check(&index, &model, &mut rng, &values);
        }
    }

    #[test]
    fn removals_compact_the_slots() {
        let mut rng = Rng::new(48);
        let mut values = Vec::new();
        for filter in [0, 4, crate::PARTS_CODE + 2] {
            let mut index = Index::new(3, filter).unwrap();
            let mut model = BTreeMap::new();
            for id in 0..3000u32 {
                let f = near(&mut rng, &values, 3);
                values.push(f);
                index.insert(id, f).unwrap();
                model.insert(id, f);
            }
            for id in (0..3000u32).filter(|id| id % 5 != 0) {
                assert!(index.remove(id));
                model.remove(&id);
                if id % 97 == 0 {
                    check(&index, &model, &mut rng, &values);
                }
            }
            // Compacted as soon as the dead outnumbered the live.
            assert!(index.fingerprints.len() < 2 * model.len() + MIN_DELTA);
            check(&index, &model, &mut rng, &values);
        }
    }

    #[test]
    fn answers_with_an_unchained_tail() {
        // The state a merge that ran out of memory leaves: slots past `chained`.
        let mut rng = Rng::new(49);
        let mut index = Index::new(3, 5).unwrap();
        let mut model = BTreeMap::new();
        let mut values = Vec::new();
        for id in 0..1000u32 {
            let f = near(&mut rng, &values, 3);
            values.push(f);
            index.insert(id, f).unwrap();
            model.insert(id, f);
        }
        index.reserve(300, false).unwrap();
        for id in 900..1200u32 {
            let f = near(&mut rng, &values, 3);
            values.push(f);
            index.push(id, f);
            model.insert(id, f);
        }
        assert!(index.chained < index.fingerprints.len());
        check(&index, &model, &mut rng, &values);
        // Later additions join the tail rather than the chains.
        index.insert(5000, values[3]).unwrap();
        model.insert(5000, values[3]);
        check(&index, &model, &mut rng, &values);
        assert_eq!(index.chained, index.fingerprints.len());
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        let mut index = Index::new(3, 0).unwrap();
        let mut out = Matches::default();
        assert_eq!(index.query(1, 4, u32::MAX, &mut out), Err(Error::QueryDistanceAboveIndex { distance: 4, index_distance: 3 }));
        assert_eq!(index.set_filter(3), Err(Error::BlocksNotAboveDistance { blocks: 3, distance: 3 }));
        assert_eq!(index.insert_many(&[1, 2], &[1]), Err(Error::LengthMismatch));
        assert_eq!(Index::new(65, 0).err(), Some(Error::DistanceTooLarge { distance: 65 }));
        assert_eq!(Index::deserialize(b"nope").err(), Some(Error::Format(crate::FormatError::Magic)));
        assert!(!index.remove(7));
        assert!(index.is_empty());
    }
}
