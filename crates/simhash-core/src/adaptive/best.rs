//! The kept text a text is removed for: the most similar, ties to the one taken first; and, for
//! a query, every kept text the rule calls a near-duplicate.

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
        every.sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(core::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
        Ok(every)
    }
}
