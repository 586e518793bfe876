//! References a newcomer can follow: every rule cited in the code and the
//! docs (`docs/rules.md 1.3`, `rules.md 2.2.6`) is a numbered section of
//! docs/rules.md, numbered once; every file or folder of the repository
//! named in backticks (`tests/golden/`) or linked from Markdown exists, as
//! does the heading a link points at; and nothing cites a file that lives
//! outside the repository (the rule and contract texts the project began
//! from).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The repository's text files: sources, docs, scenarios, scripts.
fn text_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !matches!(name.as_str(), "target" | ".git" | "golden") {
                    walk(&p, out);
                }
            } else if ["rs", "md", "ron", "toml", "sh", "py", "sbatch", "yaml"]
                .iter()
                .any(|x| p.extension().is_some_and(|e| e == *x))
                || name == "run"
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out.sort();
    out
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// The section numbers of docs/rules.md: its numbered headings (`### 1.3
/// ...`, `#### 1.3.1 ...`), each with how often it is used, and the
/// sub-points written inline (`(2.2.4)`).
fn rule_numbers() -> (BTreeMap<String, usize>, BTreeSet<String>) {
    let text = read(&root().join("docs/rules.md"));
    let heading = Regex::new(r"(?m)^#{2,5} (\d+(?:\.\d+)+) ").expect("a valid pattern");
    let mut headings = BTreeMap::new();
    for c in heading.captures_iter(&text) {
        *headings.entry(c[1].to_owned()).or_insert(0) += 1;
    }
    let inline = Regex::new(r"\((\d+\.\d+\.\d+)[,)]").expect("a valid pattern");
    let points = inline.captures_iter(&text).map(|c| c[1].to_owned()).collect();
    (headings, points)
}

#[test]
fn docs_rules_is_numbered_once_and_cleanly() {
    let (headings, _) = rule_numbers();
    let twice: Vec<_> = headings.iter().filter(|(_, n)| **n > 1).map(|(k, _)| k.clone()).collect();
    assert!(twice.is_empty(), "docs/rules.md numbers these sections more than once: {twice:?}");
    // Within each part, the sections run 1, 2, 3, ... with none left out.
    let mut by_part: BTreeMap<(u32, Vec<u32>), Vec<u32>> = BTreeMap::new();
    for k in headings.keys() {
        let n: Vec<u32> = k.split('.').map(|x| x.parse().expect("digits")).collect();
        let (last, parent) = n.split_last().expect("two numbers at least");
        by_part.entry((n[0], parent.to_vec())).or_default().push(*last);
    }
    for ((_, parent), mut nums) in by_part {
        nums.sort_unstable();
        let want: Vec<u32> = (1..=nums.len() as u32).collect();
        assert_eq!(nums, want, "docs/rules.md: the sections under {parent:?} skip a number");
    }
}

#[test]
fn every_rule_cited_is_a_section_of_docs_rules() {
    let (headings, points) = rule_numbers();
    // `rules.md` then numbers: `1.3`, `2.2-2.5`, `1.7, 2.2.5`, `2.3 and 2.6`.
    let cite = Regex::new(r"rules\.md,? (\d+\.\d+(?:\.\d+)?(?:(?:, | and |-|–)\d+\.\d+(?:\.\d+)?)*)")
        .expect("a valid pattern");
    let number = Regex::new(r"\d+\.\d+(?:\.\d+)?").expect("a valid pattern");
    let mut broken = Vec::new();
    let mut cited = 0;
    for f in text_files() {
        let text = read(&f);
        for (i, line) in text.lines().enumerate() {
            for c in cite.captures_iter(line) {
                for n in number.find_iter(&c[1]) {
                    cited += 1;
                    let n = n.as_str();
                    if !headings.contains_key(n) && !points.contains(n) {
                        broken.push(format!("{}:{}: docs/rules.md has no section {n}", rel(&f), i + 1));
                    }
                }
            }
        }
    }
    assert!(cited > 50, "only {cited} rule references found: the pattern has gone wrong");
    assert!(broken.is_empty(), "{} broken rule references:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn nothing_cites_a_text_outside_the_repository() {
    // Spelt in pieces, so that this file does not find itself.
    let outside = [concat!("RULES", ".md"), concat!("CONTRACT", ".md"), concat!("../", "shared")];
    let mut found = Vec::new();
    for f in text_files() {
        for (i, line) in read(&f).lines().enumerate() {
            for o in outside {
                if line.contains(o) {
                    found.push(format!("{}:{}: {o}", rel(&f), i + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "references to files a clone does not have:\n{}", found.join("\n"));
}

/// A heading's anchor as GitHub makes it: lower case, spaces to hyphens,
/// other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(md: &Path) -> BTreeSet<String> {
    read(md).lines().filter_map(|l| l.strip_prefix('#')).map(|h| anchor(h.trim_start_matches('#'))).collect()
}

#[test]
fn every_file_named_or_linked_exists() {
    // `path` in backticks, starting at a folder of the repository; a path
    // with a placeholder in it (`scenarios/X-1813.ron`, `tests/golden/<stem>`)
    // names no one file and is left alone.
    let named =
        Regex::new(r"`((?:src|crates|tests|docs|scenarios|benches|cluster|tools|assets|\.ci)/[A-Za-z0-9_./-]*)")
            .expect("a valid pattern");
    let placeholder = Regex::new(r"(^|[/_.-])([A-Z]+|NAME|STEM|N)([/_.-]|$)").expect("a valid pattern");
    // A doc named anywhere, in backticks or not (`(docs/why.md)`).
    let doc = Regex::new(r"\b(docs/[a-z0-9_-]+\.md)").expect("a valid pattern");
    let link = Regex::new(r"\]\(([^)\s]+)\)").expect("a valid pattern");
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in text_files() {
        let text = read(&f);
        let md = f.extension().is_some_and(|e| e == "md");
        for (i, line) in text.lines().enumerate() {
            let at = format!("{}:{}", rel(&f), i + 1);
            for c in named.captures_iter(line) {
                let p = c[1].trim_end_matches('.');
                if placeholder.is_match(p) && !root().join(p).exists() {
                    continue;
                }
                checked += 1;
                if !root().join(p).exists() {
                    broken.push(format!("{at}: no {p}"));
                }
            }
            for c in doc.captures_iter(line) {
                checked += 1;
                if !root().join(&c[1]).exists() {
                    broken.push(format!("{at}: no {}", &c[1]));
                }
            }
            if !md {
                continue;
            }
            for c in link.captures_iter(line) {
                let target = &c[1];
                if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, frag) = target.split_once('#').unwrap_or((target, ""));
                let dest = if file.is_empty() { f.clone() } else { f.parent().unwrap_or(&root()).join(file) };
                if !dest.exists() {
                    broken.push(format!("{at}: the link to {target} leads nowhere"));
                } else if !frag.is_empty()
                    && dest.extension().is_some_and(|e| e == "md")
                    && !anchors(&dest).contains(frag)
                {
                    broken.push(format!("{at}: {file} has no heading #{frag}"));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} paths and links found: the patterns have gone wrong");
    assert!(broken.is_empty(), "{} broken references:\n{}", broken.len(), broken.join("\n"));
}
