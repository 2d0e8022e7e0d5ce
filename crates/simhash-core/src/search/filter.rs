//! The two filter families behind one interface: each is a list of *units* (a permuted table,
//! or a part), each unit a key per fingerprint to bucket on, a radius of keys to probe around a
//! query's key, and a rule that makes exactly one unit report each pair.

use crate::search::layout::{Layout, PermutedTable};
use crate::search::parts::{PartLayout, Slack};
use crate::search::strategy::Strategy;
use crate::Error;

/// A filter: the permuted tables of a [`Layout`] or the parts of a [`PartLayout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filter {
    Tables(Layout),
    Parts(PartLayout),
}

impl Filter {
    /// The filter of `strategy` for pairs within `distance`; `None` for [`Strategy::Direct`].
    ///
    /// # Errors
    /// The [`Layout::new`] and [`PartLayout::new`] errors.
    pub fn new(strategy: Strategy, distance: u32) -> Result<Option<Filter>, Error> {
        Ok(match strategy {
            Strategy::Direct => None,
            Strategy::Blocks(blocks) => Some(Filter::Tables(Layout::new(blocks, distance)?)),
            Strategy::Parts(parts) => Some(Filter::Parts(PartLayout::new(parts, distance)?)),
        })
    }

    /// The strategy that makes this filter.
    pub fn strategy(&self) -> Strategy {
        match self {
            Filter::Tables(layout) => Strategy::Blocks(layout.blocks()),
            Filter::Parts(layout) => Strategy::Parts(layout.len() as u32),
        }
    }

    /// Number of units.
    pub fn units(&self) -> usize {
        match self {
            Filter::Tables(layout) => layout.tables().len(),
            Filter::Parts(layout) => layout.len(),
        }
    }

    /// Unit `u` under the slack of `slack` (parts only; the layout's own when `None`).
    #[inline]
    pub(crate) fn unit<'a>(&'a self, u: usize, slack: Option<&'a Slack>) -> Unit<'a> {
        match self {
            Filter::Tables(layout) => Unit::Table(&layout.tables()[u]),
            Filter::Parts(layout) => Unit::Part { layout, part: u, slack: slack.unwrap_or_else(|| layout.slack()) },
        }
    }
}

/// One unit of a filter, as the searches use it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Unit<'a> {
    Table(&'a PermutedTable),
    Part { layout: &'a PartLayout, part: usize, slack: &'a Slack },
}

impl Unit<'_> {
    /// The fingerprint's key in this unit, in the top [`Unit::key_bits`] bits. Out of line
    /// for the same reason as [`Unit::first`]: the index calls it once per entry and table when
    /// it builds, and once per query and table.
    #[inline(never)]
    pub(crate) fn key(&self, value: u64) -> u64 {
        match *self {
            Unit::Table(table) => table.prefix(value),
            Unit::Part { layout, part, .. } => layout.key(part, value),
        }
    }

    /// Width of the key.
    pub(crate) fn key_bits(&self) -> u32 {
        match *self {
            Unit::Table(table) => table.prefix_bits,
            Unit::Part { layout, part, .. } => layout.parts()[part].width,
        }
    }

    /// Keys within this many bits of a query's hold its candidates; `None`: the unit is not
    /// searched at all (a part with slack 0).
    pub(crate) fn radius(&self) -> Option<u32> {
        match *self {
            Unit::Table(_) => Some(0),
            Unit::Part { part, slack, .. } => slack.of(part).checked_sub(1),
        }
    }

    /// Whether a pair whose xor is `difference`, found in this unit, is reported here: it
    /// collides or qualifies here and in no earlier unit. Asked only of pairs within the
    /// distance, which are few: kept out of line, so that the loops calling it are not copied
    /// once per family (the .wasm size matters more).
    #[inline(never)]
    pub(crate) fn first(&self, difference: u64) -> bool {
        match *self {
            Unit::Table(table) => table.first_to_collide(difference),
            Unit::Part { layout, part, slack } => layout.first_to_qualify(part, difference, slack),
        }
    }
}
