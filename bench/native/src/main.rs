//! Times one operation of the core on inputs written by bench/native.mjs, and prints its samples
//! and a digest of its result as one line of JSON, for the caller to compare with WebAssembly.
//!
//! `simhash-bench-native <operation> <runs> <input files and parameters…>`, files raw
//! little-endian: `find-all FPS DISTANCE FILTER`, `find-clusters FPS DISTANCE FILTER`,
//! `query FPS QUERIES DISTANCE FILTER` (the index built once, then single queries),
//! `text BYTES OFFSETS` (word 3-shingles, binary weighting, seed 0).

use simhash_core::text::{fingerprint_many, TextOptions, Unit, Weighting};
use simhash_core::{find_all, find_clusters, Index, Matches, Strategy};
use std::time::Instant;

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn u64s(path: &str) -> Vec<u64> {
    read(path).chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn u32s(path: &str) -> Vec<u32> {
    read(path).chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// FNV-1a over 64-bit words: the same digest bench/native.mjs computes of the WebAssembly result.
fn digest(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for w in words {
        h = (h ^ w).wrapping_mul(0x100000001b3);
    }
    h
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (operation, runs) = (args[1].as_str(), args[2].parse::<usize>().unwrap());
    let arg = |i: usize| args[i].parse::<u32>().unwrap();
    let mut samples = Vec::with_capacity(runs);
    let mut result = 0u64;
    let mut time = |f: &mut dyn FnMut() -> u64| {
        for _ in 0..runs {
            let started = Instant::now();
            result = f();
            samples.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    };
    match operation {
        "find-all" => {
            let fps = u64s(&args[3]);
            let (distance, filter) = (arg(4), arg(5));
            time(&mut || {
                let pairs = find_all(&fps, distance, Strategy::from_code(filter), usize::MAX).unwrap();
                digest(pairs.left.iter().zip(&pairs.right).map(|(&l, &r)| u64::from(l) << 32 | u64::from(r)))
            });
        }
        "find-clusters" => {
            let fps = u64s(&args[3]);
            let (distance, filter) = (arg(4), arg(5));
            let mut labels = vec![0u32; fps.len()];
            time(&mut || {
                find_clusters(&fps, distance, Strategy::from_code(filter), &mut labels).unwrap();
                digest(labels.iter().map(|&l| u64::from(l)))
            });
        }
        "query" => {
            let (fps, queries) = (u64s(&args[3]), u64s(&args[4]));
            let (distance, filter) = (arg(5), arg(6));
            let mut index = Index::new(distance, filter).unwrap();
            let ids: Vec<u32> = (0..fps.len() as u32).collect();
            index.insert_many(&ids, &fps).unwrap();
            let mut out = Matches::default();
            time(&mut || {
                let mut found = Vec::new();
                for &q in &queries {
                    index.query(q, distance, u32::MAX, &mut out).unwrap();
                    found.extend(out.ids.iter().map(|&id| u64::from(id)));
                }
                digest(found)
            });
        }
        "text" => {
            let (bytes, offsets) = (read(&args[3]), u32s(&args[4]));
            let options = TextOptions { unit: Unit::Word, size: 3, weighting: Weighting::Binary, seed: 0 };
            let mut out = vec![0u64; offsets.len() - 1];
            time(&mut || {
                fingerprint_many(&bytes, &offsets, &options, &mut out).unwrap();
                digest(out.iter().copied())
            });
        }
        other => panic!("unknown operation {other}"),
    }
    println!("{{\"samplesMs\":{:?},\"digest\":\"{:x}\"}}", samples, result);
}
