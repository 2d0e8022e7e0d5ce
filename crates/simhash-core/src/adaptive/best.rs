//! The kept text a text is removed for: the most similar, ties to the one taken first.

/// The best candidate so far: the highest similarity, ties to the lowest rank.
pub(super) struct Best(pub(super) Option<(f64, u32)>);

impl Best {
    pub(super) fn consider(&mut self, similarity: f64, rank: u32) {
        if self.0.map_or(true, |(s, r)| similarity > s || (similarity == s && rank < r)) {
            self.0 = Some((similarity, rank));
        }
    }
}
