//! The house's shape, read from the imports as a newcomer would: the rules
//! crate names no Bevy; no two source files import each other, however
//! roundabout the way (a file's `use crate::...`, `use super::...`, and its
//! own child modules used by a relative path all count; test modules do
//! not); and no source file holds more than [`MAX_LINES`] lines outside its
//! tests, so each stays one concern a reader can hold.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A source file as its module path: crate name, then the modules.
type Module = Vec<String>;

/// Modules of the rules crate that the program re-exports under its own
/// root (src/lib.rs), so `crate::labataille` in the program is the rules
/// crate's.
const REEXPORTED: [&str; 17] = [
    "belle_alliance",
    "checks",
    "dice",
    "edit",
    "events",
    "generate",
    "hex",
    "labataille",
    "map",
    "report",
    "rules",
    "scenario",
    "sentences",
    "terrain",
    "turn",
    "vocab",
    "why",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn module_of(krate: &str, src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut m: Module = vec![krate.to_owned()];
    m.extend(rel.iter().map(|c| c.to_string_lossy().into_owned()));
    if m.last().is_some_and(|l| l == "mod" || l == "lib" || l == "main") {
        m.pop();
    }
    m
}

/// The file's text before its test module, without line comments.
fn code(text: &str) -> String {
    let text = text.find("#[cfg(test)]").map_or(text, |i| &text[..i]);
    text.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

/// Paths in `text` that start with `prefix::` (`crate`, `super`,
/// `sauve_rules` or a child module's name), each as its segments after the
/// prefix, braces opened up (`crate::a::{b, c::d}` gives `a::b` and
/// `a::c::d`, enough to find the files used).
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let pat = format!("{prefix}::");
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(&pat) {
        let start = from + i;
        from = start + pat.len();
        let before = start.checked_sub(1).map(|j| bytes[j] as char);
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut segs = Vec::new();
        let mut rest = &text[from..];
        loop {
            let n = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            if n == 0 {
                break;
            }
            segs.push(rest[..n].to_owned());
            rest = &rest[n..];
            if let Some(r) = rest.strip_prefix("::") {
                rest = r;
                if let Some(inner) = rest.strip_prefix('{') {
                    // Each item of the group, one level deep.
                    let end = inner.find('}').unwrap_or(inner.len());
                    for item in inner[..end].split(',') {
                        let first: String =
                            item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        if !first.is_empty() {
                            let mut p = segs.clone();
                            p.push(first);
                            out.push(p);
                        }
                    }
                    segs.clear();
                    break;
                }
            } else {
                break;
            }
        }
        if !segs.is_empty() {
            out.push(segs);
        }
    }
    out
}

/// The module graph: each file and the files it uses.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let crates = [("sauve", root().join("src")), ("sauve_rules", root().join("crates/sauve-rules/src"))];
    let mut texts = BTreeMap::new();
    for (krate, src) in &crates {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            texts.insert(module_of(krate, src, &f), code(&text));
        }
    }
    // The longest prefix of a path that is a file.
    let resolve = |path: Vec<String>| -> Option<Module> {
        (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|m| texts.contains_key(m))
    };
    let mut g: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, text) in &texts {
        let krate = m[0].clone();
        let mut used = Vec::new();
        for p in paths_after(text, "crate") {
            let krate = if krate == "sauve" && p.first().is_some_and(|s| REEXPORTED.contains(&s.as_str())) {
                "sauve_rules".to_owned()
            } else {
                krate.clone()
            };
            used.push([vec![krate], p].concat());
        }
        for p in paths_after(text, "sauve_rules") {
            used.push([vec!["sauve_rules".to_owned()], p].concat());
        }
        // `super::` from a file names its parent module's items.
        let parent = m[..m.len().saturating_sub(1)].to_vec();
        for p in paths_after(text, "super") {
            used.push([parent.clone(), p].concat());
        }
        // Child modules declared here and used by a relative path.
        for line in text.lines() {
            let l = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            if let Some(name) = l.strip_prefix("mod ").and_then(|r| r.strip_suffix(';'))
                && !paths_after(text, name.trim()).is_empty()
            {
                used.push([m.clone(), vec![name.trim().to_owned()]].concat());
            }
        }
        let edges = g.entry(m.clone()).or_default();
        for p in used {
            if let Some(t) = resolve(p)
                && t != *m
            {
                edges.insert(t);
            }
        }
    }
    g
}

/// The cycles of the graph: strongly connected sets of two files or more.
fn cycles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    // Files from which each file can be reached, by repeated search: small
    // graphs, so plain sets will do.
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in g.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&Module, BTreeSet<Module>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for m in g.keys() {
        if done.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let comp: Vec<Module> =
            g.keys().filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m)).cloned().collect();
        done.extend(comp.iter().cloned());
        out.push(comp);
    }
    out
}

fn name(m: &Module) -> String {
    m.join("::")
}

#[test]
fn no_file_imports_one_that_imports_it_back() {
    let g = graph();
    assert!(g.len() > 40, "the sources were found: {} files", g.len());
    assert!(g.keys().any(|m| m.len() > 2 && m[1] == "game"), "the window's files are among them");
    let bad: Vec<String> =
        cycles(&g).into_iter().map(|c| c.iter().map(name).collect::<Vec<_>>().join(" <-> ")).collect();
    assert!(bad.is_empty(), "import cycles:\n{}", bad.join("\n"));
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let m = |s: &str| s.split("::").map(str::to_owned).collect::<Module>();
    let mut g: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    g.entry(m("k::a")).or_default().insert(m("k::b"));
    g.entry(m("k::b")).or_default().insert(m("k::c"));
    g.entry(m("k::c")).or_default().insert(m("k::a"));
    g.entry(m("k::d")).or_default().insert(m("k::a"));
    let found = cycles(&g);
    assert_eq!(found, vec![vec![m("k::a"), m("k::b"), m("k::c")]]);
    let p = paths_after("use crate::a::{b, c::d};\nlet x = super::e::F;", "crate");
    assert_eq!(p, vec![vec!["a", "b"], vec!["a", "c"]]);
}

#[test]
fn the_rules_crate_names_no_bevy() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/sauve-rules/src"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!code(&text).contains("bevy"), "{} mentions bevy", f.display());
    }
    let manifest = std::fs::read_to_string(root().join("crates/sauve-rules/Cargo.toml")).unwrap_or_default();
    assert!(!manifest.contains("bevy"), "the rules crate depends on bevy");
}

/// The most lines a source file may hold before its test module.
const MAX_LINES: usize = 800;

#[test]
fn no_source_file_is_over_the_line_limit_outside_its_tests() {
    let mut files = Vec::new();
    for dir in ["src", "crates/sauve-rules/src", "benches", "crates/sauve-rules/benches"] {
        rust_files(&root().join(dir), &mut files);
    }
    // A file of tests (`tests.rs`, `table_tests.rs`) is all tests.
    files.retain(|f| !f.file_stem().is_some_and(|s| s.to_string_lossy().ends_with("tests")));
    assert!(files.len() > 100, "the sources were found: {} files", files.len());
    let mut long: Vec<(usize, String)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let before_tests = text.find("#[cfg(test)]").map_or(text.as_str(), |i| &text[..i]);
            (before_tests.lines().count(), f.strip_prefix(root()).unwrap_or(f).display().to_string())
        })
        .filter(|(n, _)| *n > MAX_LINES)
        .collect();
    long.sort();
    assert!(long.is_empty(), "files over {MAX_LINES} lines outside their tests (split them by concern): {long:?}");
}
