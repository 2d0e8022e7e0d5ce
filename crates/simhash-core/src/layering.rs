//! Keeps the crate's modules layered: every `crate::` path in a module names a module of its
//! own layer or of one below it, and no chain of such paths leads back to where it started.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Top-level modules from the bottom up; a module may use only those at or before its own.
const LAYERS: &[&[&str]] = &[&["error", "crc32", "memory", "test_rng"], &["fingerprint"], &["minhash"], &["adaptive"], &["search"], &["index"]];

fn layer_of(module: &str) -> usize {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|layer| layer.contains(&top)).unwrap_or_else(|| panic!("module {} is in no layer", top))
}

/// Every `.rs` file below `dir`, with its module path (`search::find_all`).
fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let joined = if prefix.is_empty() { name.clone() } else { format!("{}::{}", prefix, name) };
        if path.is_dir() {
            modules(&path, &joined, out);
        } else if name == "mod" {
            out.insert(prefix.to_string(), path);
        } else if name != "lib" && name != "layering" {
            out.insert(joined, path);
        }
    }
}

/// The code of a file without its comments (doc links are not uses) and without its unit tests,
/// which may reach anywhere.
fn code_of(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The modules a file's `crate::a::b::…` and `super::x::…` paths name: the longest prefix of
/// each path that is a module of the crate.
fn uses(module: &str, code: &str, known: &BTreeMap<String, PathBuf>, is_mod_rs: bool) -> Vec<String> {
    let parent: Vec<&str> = module.split("::").collect();
    let parent = if is_mod_rs { &parent[..] } else { &parent[..parent.len() - 1] };
    let mut found = Vec::new();
    for (anchor, base) in [("crate::", String::new()), ("super::", parent.join("::"))] {
        for (at, _) in code.match_indices(anchor) {
            if at > 0 && code.as_bytes()[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            let rest = &code[at + anchor.len()..];
            let path: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
            let mut segments: Vec<String> = if base.is_empty() { Vec::new() } else { vec![base.clone()] };
            let mut best = None;
            for segment in path.split("::").filter(|s| !s.is_empty()) {
                segments.push(segment.to_string());
                let candidate = segments.join("::");
                if known.contains_key(&candidate) {
                    best = Some(candidate);
                }
            }
            if let Some(target) = best {
                if target != module {
                    found.push(target);
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

fn graph() -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut known = BTreeMap::new();
    modules(&src, "", &mut known);
    known
        .iter()
        .map(|(module, path)| {
            let is_mod_rs = path.file_name().unwrap() == "mod.rs";
            (module.clone(), uses(module, &code_of(path), &known, is_mod_rs))
        })
        .collect()
}

#[test]
fn modules_use_only_their_own_layer_or_lower_ones() {
    for (module, targets) in graph() {
        for target in targets {
            assert!(
                layer_of(&target) <= layer_of(&module),
                "{} uses {}, a layer above it (layers: {:?})",
                module,
                target,
                LAYERS
            );
        }
    }
}

#[test]
fn no_module_reaches_itself_through_its_uses() {
    let graph = graph();
    // Depth-first search with three colours: reaching a module still on the path is a cycle.
    fn visit<'a>(module: &'a str, graph: &'a BTreeMap<String, Vec<String>>, state: &mut BTreeMap<&'a str, bool>, path: &mut Vec<&'a str>) {
        match state.get(module) {
            Some(true) => return,
            Some(false) => panic!("import cycle: {} -> {}", path.join(" -> "), module),
            None => {}
        }
        state.insert(module, false);
        path.push(module);
        for target in graph.get(module).into_iter().flatten() {
            visit(target, graph, state, path);
        }
        path.pop();
        state.insert(module, true);
    }
    let mut state = BTreeMap::new();
    for module in graph.keys() {
        visit(module, &graph, &mut state, &mut Vec::new());
    }
}

#[test]
fn the_check_sees_real_uses() {
    // A check that found no edges would pass vacuously.
    let graph = graph();
    assert!(graph["search::find_all"].contains(&"search::table_scan".to_string()));
    assert!(graph["index::table_index"].contains(&"search::filter".to_string()));
    assert!(graph["fingerprint::text::tokens"].contains(&"fingerprint::text::classes".to_string()));
}
