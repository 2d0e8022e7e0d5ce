//! The permuted-table scan that `find_all` and `find_clusters` share: for each table, sort the
//! fingerprints by their leading blocks and hand every run of equal sorted bits to a visitor,
//! which decides what a run means (pairs, or unions of components).

use crate::memory::zeroed;
use crate::search::filter::Unit;
use crate::search::layout::{Layout, PermutedTable};
use crate::search::parts::{key_bits, Ball, PartLayout};
use crate::search::radix::RadixSort;
use crate::search::slice::Slice;
use crate::search::strategy::Strategy;
use crate::Error;

/// One fingerprint of a run: its value and its position in the input.
pub(crate) type Member = (u64, u64);

/// Position of the first of `members` whose value lies within `distance` bits of `value`, or
/// their count. The visitors' pair loops call it for the rare match in a long run of far
/// pairs: a loop of its own, with the handling of a match outside it, made `findAll` at d=10
/// 1.87× faster than one loop doing both (where the engine kept more values on the stack).
#[inline]
pub(crate) fn next_near(members: &[Member], value: u64, distance: u32) -> usize {
    members.iter().position(|&(other, _)| (other ^ value).count_ones() <= distance).unwrap_or(members.len())
}

/// [`next_near`] for two values at once: the first of `members` within `distance` bits of
/// `values.0` or of `values.1`. Four members are tested per branch, without short-circuiting:
/// V8's code for a test and a branch per member also recomputed the loop's bound per member.
/// `findAll` at d=10 ran 1.09× faster this way, `findClusters` 1.06×; two or eight at a time
/// were slower than four. The same change to a query's bucket scan lost at d=3, whose buckets
/// hold about four entries.
#[inline]
fn next_near_either(members: &[Member], values: (u64, u64), distance: u32) -> usize {
    let near = |&(other, _): &Member| (other ^ values.0).count_ones().min((other ^ values.1).count_ones()) <= distance;
    let mut at = 0;
    for chunk in members.chunks_exact(4) {
        if near(&chunk[0]) | near(&chunk[1]) | near(&chunk[2]) | near(&chunk[3]) {
            break;
        }
        at += 4;
    }
    at + members[at..].iter().position(near).unwrap_or(members.len() - at)
}

/// Calls `near` with every pair of one member of `a` and one of `b` within `distance` bits of
/// each other: the pairs of two runs, for the visitors' `visit_cross`. Two members of `a` at a
/// time (the last alone when `a` is odd) against `b`, so that each member of `b` read serves two
/// comparisons (`findAll` and `findClusters` at d=10 1.11× faster than one at a time).
#[inline]
pub(crate) fn near_pairs(
    a: &[Member],
    b: &[Member],
    distance: u32,
    mut near: impl FnMut(Member, Member) -> Result<(), Error>,
) -> Result<(), Error> {
    for group in a.chunks(2) {
        let values = (group[0].0, group[group.len() - 1].0);
        let mut rest = b;
        loop {
            let at = next_near_either(rest, values, distance);
            let member_b = match rest.get(at) {
                Some(&member) => member,
                None => break,
            };
            for &member_a in group {
                if (member_a.0 ^ member_b.0).count_ones() <= distance {
                    near(member_a, member_b)?;
                }
            }
            rest = &rest[at + 1..];
        }
    }
    Ok(())
}

/// What the scan hands its runs to. Called through `dyn`: one copy of the scan serves every
/// visitor (the .wasm size matters more than one indirect call per run).
pub(crate) trait RunVisitor {
    /// Called once per run of at least two fingerprints that may lie within the distance of
    /// one another. `unit` is the unit the run comes from, or `None` when the run is the whole
    /// input ([`Strategy::Direct`]). Members come in increasing position order for the direct
    /// strategy, in (sorted bits, position) order for tables, in position order for parts.
    fn visit(&mut self, run: &[Member], unit: Option<Unit<'_>>) -> Result<(), Error>;

    /// Called for two runs of a part whose keys lie within the part's radius of each other:
    /// every pair of one member of `a` and one of `b` may lie within the distance.
    fn visit_cross(&mut self, a: &[Member], b: &[Member], unit: Unit<'_>) -> Result<(), Error>;
}

/// Runs the scan of `strategy` over `fingerprints`, visiting the runs of every unit (table, or
/// part) that `slice` owns (see [`Slice`]). Over the whole search, every pair within `distance` bits shares a run
/// (or a pair of runs, for parts) at least once (in the first unit where it collides or
/// qualifies, possibly in later ones too); runs may also hold fingerprints farther apart. The
/// direct strategy is one unit: slice index 0 visits its run, the others nothing.
///
/// # Errors
/// The [`Layout::new`] errors for a bad `(blocks, distance)`, the [`PartLayout::new`] errors
/// for bad parts; [`Error::OutOfMemory`]; whatever the visitor returns.
pub(crate) fn scan(
    fingerprints: &[u64],
    distance: u32,
    strategy: Strategy,
    slice: Slice,
    visitor: &mut dyn RunVisitor,
) -> Result<(), Error> {
    match strategy {
        Strategy::Direct if slice.index() == 0 => direct(fingerprints, visitor),
        Strategy::Direct => Ok(()),
        Strategy::Blocks(blocks) => {
            let layout = Layout::new(blocks, distance)?;
            tables(fingerprints, &layout, slice, visitor)
        }
        Strategy::Parts(parts) => {
            let layout = PartLayout::new(parts, distance)?;
            join_parts(fingerprints, &layout, slice, visitor)
        }
    }
}

/// For each part with a positive slack: groups the fingerprints into buckets by the top
/// [`key_bits`] bits of their part, then visits every bucket and every pair of buckets whose
/// keys lie within the part's radius (each pair of buckets once, from the lower key), tile by
/// tile (see [`Tiles`]). A bucket's members are contiguous, so both sides of a pair of buckets
/// are read in order.
fn join_parts(fingerprints: &[u64], layout: &PartLayout, slice: Slice, visitor: &mut dyn RunVisitor) -> Result<(), Error> {
    let n = fingerprints.len();
    if n < 2 {
        return Ok(());
    }
    let mut bucketed = Bucketed::default();
    let mut tiles = Tiles::default();
    for part in 0..layout.len() {
        let unit = Unit::Part { layout, part, slack: layout.slack() };
        // A part with no share of this slice is not even bucketed.
        let (radius, share) = match (unit.radius(), part_share(layout, n, slice, part)) {
            (Some(radius), Some(share)) => (radius, share),
            _ => continue,
        };
        bucketed.fill(fingerprints, |value| layout.key(part, value), share.bits)?;
        tiles.plan(share.bits, radius, n, TILE_MEMBER_BITS);
        tiles.join(&bucketed, share, unit, visitor)?;
    }
    Ok(())
}

/// A tile holds about this many members (2^12 of 16 bytes: 64 KiB), so that a tile and the
/// tile it is joined with stay in a core's L2 cache while all their buckets' pairs are visited.
const TILE_MEMBER_BITS: u32 = 12;

/// The order a part's pairs of buckets are visited in. Buckets are dealt into tiles of
/// `2^tile_bits` consecutive keys, and a key's ball splits into a mask of the high (tile) bits
/// and one of the low bits: for each tile, for each tile within the radius above it, every
/// pair of buckets between the two. Visited bucket by bucket, as each bucket's ball, the
/// neighbours are random reads all over the members, which outgrow the caches from about 1M
/// fingerprints; tile by tile, the reads of one pair of tiles stay in cache. Timed alternately
/// against the bucket order on random fingerprints at d=10: 1.5× faster at 2M with 3 parts
/// (20-bit keys, one or two members a bucket), 1.03× at 4M with 4 parts.
#[derive(Default)]
struct Tiles {
    tile_bits: u32,
    radius: u32,
    /// The high masks of the ball, fewest bits first.
    high: Vec<u64>,
    /// The low masks of the ball, fewest bits first.
    low: Vec<u64>,
    /// `low_within[w]`: how many low masks have at most `w` bits set.
    low_within: Vec<usize>,
}

impl Tiles {
    /// Plans the tiles of `2^bits` buckets (`bits <= log2(n)`, as [`key_bits`] are) holding `n`
    /// members, for a ball of `radius`, each tile about `2^member_bits` members. With
    /// [`TILE_MEMBER_BITS`], tiles have at most 12 bits and there are at most `2^(24 - 12)` of
    /// them, so each list holds at most 4096 masks.
    fn plan(&mut self, bits: u32, radius: u32, n: usize, member_bits: u32) {
        let log2_n = usize::BITS - 1 - n.max(1).leading_zeros();
        self.tile_bits = bits.saturating_sub(log2_n.saturating_sub(member_bits));
        self.radius = radius;
        self.high.clear();
        self.low.clear();
        self.low_within.clear();
        let (high, low) = (Ball::new(bits - self.tile_bits, radius), Ball::new(self.tile_bits, radius));
        self.high.extend(high);
        self.low.extend(low);
        self.low_within.extend((0..=radius).map(|w| self.low.iter().filter(|m| m.count_ones() <= w).count()));
    }

    /// Visits the buckets of `share` and their pairs with the buckets above them within the
    /// radius, tile pair by tile pair.
    fn join(&self, bucketed: &Bucketed, share: PartShare, unit: Unit<'_>, visitor: &mut dyn RunVisitor) -> Result<(), Error> {
        for tile in 0..1usize << (share.bits - self.tile_bits) {
            for &high in &self.high {
                if (tile ^ high as usize) < tile {
                    continue;
                }
                let lows = &self.low[..self.low_within[(self.radius - high.count_ones()) as usize]];
                join_tiles(bucketed, share, tile << self.tile_bits, 1 << self.tile_bits, (high as usize) << self.tile_bits, lows, unit, visitor)?;
            }
        }
        Ok(())
    }
}

/// For each bucket `first..first + count` that `share` owns: when `high` is 0, the bucket's
/// own pairs; then its pairs with each bucket `bucket ^ high ^ low` above it.
#[allow(clippy::too_many_arguments)]
fn join_tiles(
    bucketed: &Bucketed,
    share: PartShare,
    first: usize,
    count: usize,
    high: usize,
    lows: &[u64],
    unit: Unit<'_>,
    visitor: &mut dyn RunVisitor,
) -> Result<(), Error> {
    let (starts, members) = (&bucketed.starts, &bucketed.members);
    // `starts[b]` is the end of bucket `b` (see `fill`): bucket `b` begins where `b - 1` ends.
    let begin = |bucket: usize| if bucket == 0 { 0 } else { starts[bucket - 1] as usize };
    let mut start = begin(first);
    for bucket in first..first + count {
        let end = starts[bucket] as usize;
        if end == start || !share.owns(bucket) {
            start = end;
            continue;
        }
        let here = &members[start..end];
        if high == 0 && here.len() > 1 {
            visitor.visit(here, Some(unit))?;
        }
        for &low in lows {
            let other = bucket ^ high ^ low as usize;
            // Within a tile, each pair from its lower bucket (and not a bucket with itself).
            if other <= bucket {
                continue;
            }
            let (other_start, other_end) = (begin(other), starts[other] as usize);
            if other_end > other_start {
                visitor.visit_cross(here, &members[other_start..other_end], unit)?;
            }
        }
        start = end;
    }
    Ok(())
}

/// The buckets of one part that a slice visits (with their pairs with the buckets above them).
#[derive(Clone, Copy, Debug)]
struct PartShare {
    /// The part's buckets are `0..2^bits`.
    bits: u32,
    /// Buckets are dealt in groups of `2^group_bits` consecutive keys.
    group_bits: u32,
    /// The slice owns the groups whose scattered index lies in `from..to`.
    from: u64,
    to: u64,
}

impl PartShare {
    /// Whether the slice visits `bucket` (`bucket < 2^bits`) and its pairs with the buckets
    /// above it.
    #[inline]
    fn owns(self, bucket: usize) -> bool {
        let groups_bits = self.bits - self.group_bits;
        let group = (bucket >> self.group_bits) as u32;
        // Times an odd constant, modulo 2^groups_bits: a bijection that deals low and high
        // groups to every share alike. A bucket pairs with the buckets above it only, so low
        // buckets do more work than high ones (contiguous ranges of buckets gave one of two
        // slices 1.3× the other's work at distance 10).
        let scattered = u64::from(group.wrapping_mul(0x9E37_79B1)) & (u64::MAX >> (64 - groups_bits));
        self.from <= scattered && scattered < self.to
    }
}

/// `slice`'s share of `part`, or `None` when it owns none of its buckets. The parts' estimated
/// costs are laid end to end and cut into `slice.count()` equal lengths, so that a slice
/// searches a few whole parts and a fraction of one or two, rather than a fraction of every
/// part. A slice then buckets only the parts it has a share of (at d=10 with 4 parts, each of
/// two slices buckets two or three parts, not four; each of sixteen one or two), and its probes
/// stay among those parts' buckets, which halves the memory each of two slices reads. A part
/// shared by several slices is still bucketed by each of them. Within a part, buckets are
/// dealt in groups of up to 64 consecutive keys (keeping at least min(1024, 2^bits) groups):
/// neighbouring buckets probe neighbouring buckets, and a slice that owns the whole group
/// reads them once.
// Out of line, and without vectors of costs: it runs once per part, and inlined or vectorised
// copies cost .wasm size.
#[inline(never)]
fn part_share(layout: &PartLayout, n: usize, slice: Slice, part: usize) -> Option<PartShare> {
    // Costs scaled to at most 2^24 each (at least 1 unless 0), so that the sum of at most 64
    // stays below 2^30 and the products below stay below 2^63.
    let largest = (0..layout.len()).map(|p| part_cost(layout, p, n)).max().unwrap_or(0);
    let shift = (64 - largest.leading_zeros()).saturating_sub(24);
    let scaled = |p: usize| match part_cost(layout, p, n) {
        0 => 0,
        cost => (cost >> shift).max(1),
    };
    let (mut start, mut total) = (0u64, 0u64);
    for p in 0..layout.len() {
        let cost = scaled(p);
        if p < part {
            start += cost;
        }
        total += cost;
    }
    let cost = scaled(part);
    // The slice's stretch of the line of costs: its ends are its neighbours' ends, so the
    // stretches of slices `0..count` cover the line once.
    let count = u64::from(slice.count());
    let cut = |index: u64| total * index / count;
    let within = |at: u64| at.max(start).min(start + cost) - start;
    let (part_from, part_to) = (within(cut(u64::from(slice.index()))), within(cut(u64::from(slice.index()) + 1)));
    if part_from == part_to {
        return None;
    }
    let bits = key_bits(layout.parts()[part].width, n);
    let group_bits = bits.saturating_sub(10).min(6);
    let groups = 1u64 << (bits - group_bits);
    // Group g (scattered) is owned when g · cost / groups lies in part_from..part_to.
    let first = |at: u64| (at * groups + cost - 1) / cost;
    let (from, to) = (first(part_from), first(part_to));
    // A stretch shorter than a group may own none: such a slice need not bucket the part.
    if from == to {
        return None;
    }
    Some(PartShare { bits, group_bits, from, to })
}

/// A part's cost, relative to the others of its layout: bucketing the fingerprints, then for
/// each bucket, the probes of its ball, each checking the pairs of two buckets (half the ball:
/// a pair of buckets is visited from the lower one). Parts without a radius cost nothing.
#[inline(never)]
fn part_cost(layout: &PartLayout, part: usize, n: usize) -> u64 {
    // Bucketing one fingerprint (two passes and a scattered write) counted as four pair checks:
    // an estimate, not fitted; it matters only when a part's probes are few.
    const BUCKETING: u64 = 4;
    let radius = match (Unit::Part { layout, part, slack: layout.slack() }).radius() {
        Some(radius) => radius,
        None => return 0,
    };
    let bits = key_bits(layout.parts()[part].width, n);
    // Keys within the radius: the sum of C(bits, r), exact in u64 for bits <= 24.
    let (mut ball, mut choose) = (1u64, 1u64);
    for r in 1..=u64::from(radius.min(bits)) {
        choose = choose * (u64::from(bits) - r + 1) / r;
        ball += choose;
    }
    BUCKETING.saturating_add(ball.saturating_mul((n >> bits) as u64 + 1) / 2)
}

/// Bits that hold any position below `n` (at least 1, at most 32 for `n <= 2^32`).
pub(crate) fn position_bits(n: usize) -> u32 {
    (64 - (n.max(2) as u64 - 1).leading_zeros()).max(1)
}

fn direct(fingerprints: &[u64], visitor: &mut dyn RunVisitor) -> Result<(), Error> {
    if fingerprints.len() < 2 {
        return Ok(());
    }
    let mut run = Vec::new();
    run.try_reserve_exact(fingerprints.len()).map_err(|_| Error::OutOfMemory)?;
    run.extend(fingerprints.iter().enumerate().map(|(i, &f)| (f, i as u64)));
    visitor.visit(&run, None)
}

fn tables(fingerprints: &[u64], layout: &Layout, slice: Slice, visitor: &mut dyn RunVisitor) -> Result<(), Error> {
    let n = fingerprints.len();
    if n < 2 {
        return Ok(());
    }
    let position_bits = position_bits(n);
    let mut sorted = Sorted::default();
    let mut bucketed = Bucketed::default();
    for table in layout.tables() {
        // Only the top `sorted_bits` of the prefix group fingerprints: enough that a group holds
        // few fingerprints that differ further down the prefix (about n / 8 extra candidates
        // for uniform data, which the visitors reject); grouping on the rest would cost more
        // passes than it saves. They also leave room for the position in a sort key.
        let sorted_bits = table
            .prefix_bits
            .min(64 - position_bits)
            .min(n_bits(n) + EXTRA_SORTED_BITS);
        // Buckets pay for their counters: worth it only when they are not many more than the
        // fingerprints (at 10,000 fingerprints, 2^16 counters cost more than sorting).
        let share = Share { slice, bits: sorted_bits.min(SHARE_BITS) };
        if sorted_bits <= BUCKET_BITS && 1usize << sorted_bits <= 2 * n {
            bucketed.visit(fingerprints, table, sorted_bits, share, visitor)?;
        } else {
            sorted.visit(fingerprints, table, sorted_bits, share, visitor)?;
        }
    }
    Ok(())
}

/// The top bits of a table's prefix that decide which slice owns a run: at most the sorted
/// bits, so that a run never straddles two slices, and enough for an even split.
const SHARE_BITS: u32 = 16;

/// A slice's share of one table's runs.
#[derive(Clone, Copy)]
struct Share {
    slice: Slice,
    /// Top prefix bits the owner is read from: at most the table's sorted bits.
    bits: u32,
}

impl Share {
    /// Whether the run of prefix `prefix` is this slice's.
    #[inline]
    fn owns(self, prefix: u64) -> bool {
        self.slice.is_whole() || self.slice.owns(prefix >> 32 >> (32 - self.bits), self.bits)
    }
}

/// Groups of at most this many prefix bits are made by one counting pass into buckets: their
/// counters fit in the L2 cache, and the members land in their bucket with their values, so a
/// run is read in order. Wider ones are radix-sorted as keys.
const BUCKET_BITS: u32 = 16;

/// Buffers of the bucket grouping, made on first use and kept across tables.
#[derive(Default)]
struct Bucketed {
    members: Vec<Member>,
    starts: Vec<u32>,
}

impl Bucketed {
    fn visit(&mut self, fingerprints: &[u64], table: &PermutedTable, bits: u32, share: Share, visitor: &mut dyn RunVisitor) -> Result<(), Error> {
        let unit = Unit::Table(table);
        self.fill(fingerprints, |value| table.prefix(value), bits)?;
        let mut start = 0;
        for (bucket, &end) in self.starts[..1usize << bits].iter().enumerate() {
            let end = end as usize;
            if end - start > 1 && share.owns((bucket as u64).checked_shl(64 - bits).unwrap_or(0)) {
                visitor.visit(&self.members[start..end], Some(unit))?;
            }
            start = end;
        }
        Ok(())
    }

    /// Places every fingerprint in the bucket of the top `bits` bits of its `key`, in position
    /// order within a bucket; leaves `starts[b]` at the end of bucket `b`.
    fn fill(&mut self, fingerprints: &[u64], key: impl Fn(u64) -> u64, bits: u32) -> Result<(), Error> {
        let n = fingerprints.len();
        let buckets = 1usize << bits;
        if self.members.len() != n {
            self.members.clear();
            self.members.try_reserve_exact(n).map_err(|_| Error::OutOfMemory)?;
            self.members.resize(n, (0, 0));
        }
        self.starts.clear();
        self.starts.try_reserve_exact(buckets + 1).map_err(|_| Error::OutOfMemory)?;
        self.starts.resize(buckets + 1, 0);
        let shift = 64 - bits;
        // Counts land one place up, so that the running sum leaves each bucket's start.
        for &fingerprint in fingerprints {
            self.starts[(key(fingerprint) >> shift) as usize + 1] += 1;
        }
        for b in 1..=buckets {
            self.starts[b] += self.starts[b - 1];
        }
        // `starts[b]` advances to the end of bucket `b`, which is where bucket `b + 1` starts.
        for (position, &fingerprint) in fingerprints.iter().enumerate() {
            let bucket = (key(fingerprint) >> shift) as usize;
            let slot = self.starts[bucket] as usize;
            self.starts[bucket] += 1;
            self.members[slot] = (fingerprint, position as u64);
        }
        Ok(())
    }
}

/// Buffers of the radix-sorted grouping, made on first use and kept across tables.
#[derive(Default)]
struct Sorted {
    keys: Vec<u64>,
    scratch: Vec<u64>,
    run: Vec<Member>,
}

impl Sorted {
    fn visit(&mut self, fingerprints: &[u64], table: &PermutedTable, bits: u32, share: Share, visitor: &mut dyn RunVisitor) -> Result<(), Error> {
        let n = fingerprints.len();
        if self.keys.len() != n {
            self.keys = zeroed(n)?;
            self.scratch = zeroed(n)?;
        }
        // A key is the table's prefix on top and the position below. Only the slice's own runs
        // are sorted: the slices of a search share the sorting between them.
        let run_mask = !(u64::MAX >> bits);
        let mut sort = RadixSort::new(64 - bits, bits)?;
        let mut kept = 0;
        for (i, &fingerprint) in fingerprints.iter().enumerate() {
            let prefix = table.prefix(fingerprint) & run_mask;
            if share.owns(prefix) {
                let key = prefix | i as u64;
                self.keys[kept] = key;
                sort.count(key);
                kept += 1;
            }
        }
        sort.sort(&mut self.keys[..kept], &mut self.scratch[..kept])?;
        visit_runs(&self.keys[..kept], run_mask, fingerprints, table, &mut self.run, visitor)
    }
}

/// Sorted prefix bits beyond log2(n): each one halves the expected spurious candidates.
const EXTRA_SORTED_BITS: u32 = 2;

/// Bits needed to count to `n`: `ceil(log2(n))` for n >= 2.
fn n_bits(n: usize) -> u32 {
    64 - (n as u64 - 1).leading_zeros()
}

/// Hands each run of keys with equal sorted bits to the visitor, its members read from
/// `fingerprints` into `run` so that the visitor reads them contiguously.
fn visit_runs(
    keys: &[u64],
    run_mask: u64,
    fingerprints: &[u64],
    table: &PermutedTable,
    run: &mut Vec<Member>,
    visitor: &mut dyn RunVisitor,
) -> Result<(), Error> {
    let position_mask = !run_mask;
    let mut start = 0;
    while start < keys.len() {
        let head = keys[start] & run_mask;
        let mut end = start + 1;
        while end < keys.len() && keys[end] & run_mask == head {
            end += 1;
        }
        if end - start > 1 {
            run.clear();
            run.try_reserve(end - start).map_err(|_| Error::OutOfMemory)?;
            run.extend(keys[start..end].iter().map(|&k| {
                let position = k & position_mask;
                (fingerprints[position as usize], position)
            }));
            visitor.visit(run, Some(Unit::Table(table)))?;
        }
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn next_near_either_finds_the_first_member_near_either_value() {
        let mut rng = Rng::new(5);
        let values = (rng.next(), rng.next());
        for len in (0..=9).chain([16, 17, 31]) {
            // Every placement of up to two near members among far ones, including none.
            for first in 0..=len {
                for second in first..=len {
                    let mut members: Vec<Member> = (0..len).map(|i| (!values.0 & !values.1 ^ (i as u64 & 1), i as u64)).collect();
                    if first < len {
                        members[first].0 = values.0 ^ 1;
                    }
                    if second < len {
                        members[second].0 = values.1 ^ 3;
                    }
                    let expected = members.iter().position(|&(m, _)| (m ^ values.0).count_ones().min((m ^ values.1).count_ones()) <= 2).unwrap_or(len);
                    assert_eq!(next_near_either(&members, values, 2), expected, "len {len}, near at {first} and {second}");
                }
            }
        }
    }

    /// Records what a join visits: each bucket's own run, each pair of buckets.
    #[derive(Default)]
    struct Recorder {
        runs: Vec<u64>,
        pairs: Vec<(u64, u64)>,
    }

    impl RunVisitor for Recorder {
        fn visit(&mut self, run: &[Member], _: Option<Unit<'_>>) -> Result<(), Error> {
            self.runs.push(run[0].0);
            Ok(())
        }

        fn visit_cross(&mut self, a: &[Member], b: &[Member], _: Unit<'_>) -> Result<(), Error> {
            self.pairs.push((a[0].0, b[0].0));
            Ok(())
        }
    }

    /// Whatever the tiles, a join visits every pair of non-empty buckets within the radius once,
    /// from the lower one, and every bucket of two or more members once.
    #[test]
    fn tiles_visit_every_pair_of_buckets_within_the_radius_once() {
        let layout = PartLayout::new(1, 8).unwrap();
        let unit = Unit::Part { layout: &layout, part: 0, slack: layout.slack() };
        let mut rng = Rng::new(11);
        for bits in [1u32, 2, 5, 8, 10] {
            // Bucket b holds b % 3 members, all of value b: none, one, or a run.
            let counts: Vec<u32> = (0..1u32 << bits).map(|b| (b + rng.below(2) as u32) % 3).collect();
            let mut bucketed = Bucketed::default();
            let mut end = 0;
            for (b, &count) in counts.iter().enumerate() {
                end += count;
                bucketed.starts.push(end);
                bucketed.members.extend((0..count).map(|i| (b as u64, u64::from(i))));
            }
            let n = bucketed.members.len().max(1 << bits);
            let share = PartShare { bits, group_bits: 0, from: 0, to: 1 << bits };
            for radius in 0..=4 {
                for member_bits in 0..=bits + 1 {
                    let mut tiles = Tiles::default();
                    tiles.plan(bits, radius, n, member_bits);
                    let mut recorder = Recorder::default();
                    tiles.join(&bucketed, share, unit, &mut recorder).unwrap();
                    recorder.runs.sort_unstable();
                    recorder.pairs.sort_unstable();
                    let filled = |b: u64| counts[b as usize] > 0;
                    let runs: Vec<u64> = (0..1u64 << bits).filter(|&b| counts[b as usize] > 1).collect();
                    let pairs: Vec<(u64, u64)> = (0..1u64 << bits)
                        .flat_map(|a| (a + 1..1u64 << bits).map(move |b| (a, b)))
                        .filter(|&(a, b)| filled(a) && filled(b) && (a ^ b).count_ones() <= radius)
                        .collect();
                    assert_eq!(recorder.runs, runs, "bits {bits} radius {radius} tile members 2^{member_bits}");
                    assert_eq!(recorder.pairs, pairs, "bits {bits} radius {radius} tile members 2^{member_bits}");
                }
            }
        }
    }

    fn layouts() -> Vec<PartLayout> {
        [(4, 10), (6, 10), (3, 7), (5, 3), (11, 10)].iter().map(|&(parts, distance)| PartLayout::new(parts, distance).unwrap()).collect()
    }

    #[test]
    fn every_bucket_of_every_searched_part_has_one_owner() {
        for layout in layouts() {
            for n in [2usize, 1000, 1 << 20] {
                for count in [1u32, 2, 3, 7, 16, 100] {
                    let slices: Vec<Slice> = (0..count).map(|i| Slice::new(i, count).unwrap()).collect();
                    for part in 0..layout.len() {
                        let searched = Unit::Part { layout: &layout, part, slack: layout.slack() }.radius().is_some();
                        let bits = key_bits(layout.parts()[part].width, n);
                        // An odd step: odd groups are sampled too.
                        for bucket in (0..1usize << bits).step_by(((1usize << bits) / 8192) | 1) {
                            let owners = slices.iter().filter(|&&slice| part_share(&layout, n, slice, part).map_or(false, |share| share.owns(bucket))).count();
                            assert_eq!(owners, usize::from(searched), "{:?} n {} part {} bucket {} of {} slices", layout.parts().len(), n, part, bucket, count);
                        }
                    }
                }
            }
        }
    }

    /// In slice order, the shares of each searched part's groups start where the previous one
    /// ended, from the first group to the last: every group has one owner, for any count, with
    /// costs that need scaling (2^40 fingerprints) and 64 parts.
    #[test]
    fn slices_tile_the_groups_of_every_searched_part() {
        for (parts, distance) in [(4, 10), (6, 10), (3, 7), (5, 3), (11, 10), (64, 10), (64, 63)] {
            let layout = PartLayout::new(parts, distance).unwrap();
            for n in [2usize, 1000, 1 << 20, (1u64 << 40) as usize] {
                for count in [1u32, 2, 3, 7, 16, 100, 5000].iter().copied().filter(|&c| c <= 100 || parts <= 11) {
                    for part in 0..layout.len() {
                        let searched = (Unit::Part { layout: &layout, part, slack: layout.slack() }).radius().is_some();
                        let bits = key_bits(layout.parts()[part].width, n);
                        let groups = 1u64 << (bits - bits.saturating_sub(10).min(6));
                        let mut next = 0;
                        for index in 0..count {
                            if let Some(share) = part_share(&layout, n, Slice::new(index, count).unwrap(), part) {
                                assert!(searched && share.from == next && share.to > share.from, "{} parts n {} count {}", parts, n, count);
                                next = share.to;
                            }
                        }
                        assert_eq!(next, if searched { groups } else { 0 }, "{} parts n {} count {} part {}", parts, n, count, part);
                    }
                }
            }
        }
    }

    /// The work of a bucket of m members is its m²/2 pairs, then m² more for each bucket above
    /// it within the radius (a bucket with more zero bits has more); a slice also buckets every
    /// part it has a share of. The slices' sums of that work stay within a few percent.
    #[test]
    fn slices_get_even_shares_of_the_work() {
        let n = 1usize << 20;
        for layout in [PartLayout::new(4, 10).unwrap(), PartLayout::new(6, 10).unwrap()] {
            for count in [2u32, 3, 4, 8] {
                let mut work = vec![0u64; count as usize];
                for part in 0..layout.len() {
                    let radius = match (Unit::Part { layout: &layout, part, slack: layout.slack() }).radius() {
                        Some(radius) => radius,
                        None => continue,
                    };
                    let bits = key_bits(layout.parts()[part].width, n);
                    let masks: Vec<u64> = Ball::new(bits, radius).skip(1).collect();
                    let per_bucket = (n >> bits) as u64 + 1;
                    for slice in 0..count {
                        let share = match part_share(&layout, n, Slice::new(slice, count).unwrap(), part) {
                            Some(share) => share,
                            None => continue,
                        };
                        work[slice as usize] += 4 * (n as u64);
                        for bucket in (0..1usize << bits).filter(|&b| share.owns(b)) {
                            let above = masks.iter().filter(|&&m| bucket ^ m as usize > bucket).count() as u64;
                            // Pairs within the bucket, then with each bucket above it.
                            work[slice as usize] += per_bucket * per_bucket / 2 + above * per_bucket * per_bucket;
                        }
                    }
                }
                let (low, high) = (*work.iter().min().unwrap(), *work.iter().max().unwrap());
                assert!(high - low <= high / 20, "{} parts, {} slices: {:?}", layout.len(), count, work);
            }
        }
    }
}
