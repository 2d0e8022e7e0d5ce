//! Exact batch search over a slice of fingerprints: two filter families (the permuted-table
//! layouts of Manku, Jain and Das Sarma, and multi-index hashing over parts), the radix sort and run scan shared by every table, and the two questions asked
//! of them: every pair within a distance ([`find_all`]) and the connected components of those
//! pairs ([`find_clusters`]).
//!
//! Builds on [`crate::fingerprint`] (Hamming distance); the index builds on the layouts here.

mod clusters;
pub(crate) mod filter;
mod find_all;
pub(crate) mod layout;
pub(crate) mod parts;
pub(crate) mod radix;
mod slice;
pub(crate) mod strategy;
mod table_scan;
mod union_find;

pub use clusters::{find_clusters, find_clusters_slice};
pub use find_all::{find_all, find_all_slice, Pairs};
pub use layout::{binomial, Layout, PermutedTable, Placement, MAX_TABLES};
pub use filter::Filter;
pub use parts::{PartLayout, Slack, MAX_KEY_BITS};
pub use slice::Slice;
pub use strategy::{Strategy, PARTS_CODE};
