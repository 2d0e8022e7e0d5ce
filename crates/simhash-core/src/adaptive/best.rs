//! The kept text a text is removed for: the most similar, ties to the one taken first; and, for
//! a query, every kept text the rule calls a near-duplicate.

use super::mix_map::MixMap;
use crate::Error;

/// The best candidate so far: the highest similarity, ties to the lowest rank; with `every`,
/// each candidate the rule accepted too.
#[derive(Default)]
pub(super) struct Best {
    pub(super) best: Option<(f64, u32)>,
    every: Option<Vec<(f64, u32)>>,
    failed: bool,
}

impl Best {
    /// A search for the most similar kept text alone.
    pub(super) fn one() -> Best {
        Best::default()
    }

    /// A search that lists every kept text the rule accepts.
    pub(super) fn every() -> Best {
        Best { every: Some(Vec::new()), ..Best::default() }
    }

    /// Whether the search lists every accepted text.
    pub(super) fn lists_every(&self) -> bool {
        self.every.is_some()
    }

    pub(super) fn consider(&mut self, similarity: f64, rank: u32) {
        if self.best.map_or(true, |(s, r)| similarity > s || (similarity == s && rank < r)) {
            self.best = Some((similarity, rank));
        }
        if let Some(every) = &mut self.every {
            // An allocation that fails is reported by `accepted`, not here, where judging goes on.
            match every.try_reserve(1) {
                Ok(()) => every.push((similarity, rank)),
                Err(_) => self.failed = true,
            }
        }
    }

    /// Every accepted text, most similar first, ties to the one taken first.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] if a text could not be listed.
    pub(super) fn accepted(self) -> Result<Vec<(f64, u32)>, Error> {
        if self.failed {
            return Err(Error::OutOfMemory);
        }
        let mut every = self.every.unwrap_or_default();
        // Similarities are ratios of small integers in 0..=1, so their nearest `f32`s keep their
        // order, and one sort of `u64`s (the instance sketching already has) sorts them; each
        // text is accepted once, so its rank finds its exact similarity again.
        let mut keys = Vec::new();
        keys.try_reserve_exact(every.len()).map_err(|_| Error::OutOfMemory)?;
        let mut at = MixMap::default();
        for (position, &(s, rank)) in every.iter().enumerate() {
            keys.push(u64::from(!(s as f32).to_bits()) << 32 | u64::from(rank));
            at.get_or_insert(u64::from(rank), position as u32)?;
        }
        keys.sort_unstable();
        let mut sorted = Vec::new();
        sorted.try_reserve_exact(every.len()).map_err(|_| Error::OutOfMemory)?;
        sorted.extend(keys.iter().filter_map(|&key| at.get(key & 0xFFFF_FFFF)).map(|position| every[position as usize]));
        every = sorted;
        Ok(every)
    }
}
