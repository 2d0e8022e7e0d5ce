//! Prints the xxh3 reference vectors as JSON on stdout:
//!
//! ```sh
//! RUSTC=/usr/bin/rustc /usr/bin/cargo run --release \
//!   --manifest-path scripts/gen-xxh3-vectors/Cargo.toml \
//!   --config 'source.crates-io.replace-with="debian-packages"' \
//!   --config 'source.debian-packages.directory="/usr/share/cargo/registry"' \
//!   > test/vectors/xxh3_vectors.json
//! ```
//!
//! The input of length n is the first n bytes of one fixed pattern (see `pattern`), so the test
//! rebuilds every input from the same five lines instead of storing them.

use xxhash_rust::xxh3::xxh3_64_with_seed;

const LONGEST: usize = 10_000;

/// Seeds: zero (the default secret on every path), a small one, all ones, and two that carry
/// between the 32-bit halves when added to or subtracted from the secret.
const SEEDS: [u64; 5] = [0, 42, u64::MAX, 0x9E37_79B9_7F4A_7C15, 0x0000_0001_ffff_ffff];

/// Texts whose hashes are also published elsewhere, as a check of the pattern-free path.
const TEXTS: [&str; 5] = ["", "a", "abc", "hello world", "0123456789abcdef0123456789abcdefXYZ"];

/// Bytes of a 32-bit linear congruential generator (Numerical Recipes constants), top byte of
/// each state.
fn pattern() -> Vec<u8> {
    let mut state: u32 = 1;
    (0..LONGEST)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect()
}

/// Every length up to 300 (all short and mid paths and their boundaries), then each multiple
/// of the 64-byte stripe and of the 1024-byte block, ±1, up to 2,100, then a few long ones.
fn lengths() -> Vec<usize> {
    let mut out: Vec<usize> = (0..=300).collect();
    for m in (320..=2_100).step_by(64) {
        out.extend([m - 1, m, m + 1]);
    }
    for m in (1_024..=LONGEST).step_by(1_024) {
        out.extend([m - 1, m, m + 1]);
    }
    out.extend([3_333, 5_000, 7_777, 9_999, LONGEST]);
    out.sort_unstable();
    out.dedup();
    out
}

fn quoted(values: impl Iterator<Item = u64>) -> String {
    values.map(|v| format!("\"{}\"", v)).collect::<Vec<_>>().join(", ")
}

fn main() {
    let bytes = pattern();
    println!("{{");
    println!(
        "  \"generator\": \"scripts/gen-xxh3-vectors (xxhash-rust 0.8.5, xxh3_64_with_seed)\",");
    println!("  \"numbers\": \"all u64 values are decimal strings\",");
    println!(
        "  \"pattern\": \"input of length n = first n bytes of: state = 1; repeat {{ state = (state * 1664525 + 1013904223) mod 2^32; byte = state >> 24 }}\",");
    println!("  \"seeds\": [{}],", quoted(SEEDS.iter().copied()));
    println!("  \"texts\": [");
    for (i, text) in TEXTS.iter().enumerate() {
        let hashes = quoted(SEEDS.iter().map(|&s| xxh3_64_with_seed(text.as_bytes(), s)));
        let comma = if i + 1 < TEXTS.len() { "," } else { "" };
        println!("    {{ \"text\": \"{}\", \"hashes\": [{}] }}{}", text, hashes, comma);
    }
    println!("  ],");
    println!("  \"lengths\": [");
    let lengths = lengths();
    for (i, &n) in lengths.iter().enumerate() {
        let hashes = quoted(SEEDS.iter().map(|&s| xxh3_64_with_seed(&bytes[..n], s)));
        let comma = if i + 1 < lengths.len() { "," } else { "" };
        println!("    {{ \"length\": {}, \"hashes\": [{}] }}{}", n, hashes, comma);
    }
    println!("  ]");
    println!("}}");
}
