//! From bytes or text to a validated [`Scenario`]: the RON options, the
//! syntax errors placed where the author can find them, then validation
//! and each problem's place in the text.

use std::path::Path;

use ron::extensions::Extensions;

use crate::scenario::file::{FACING_EXPECTED, FACING_MISMATCH, ScenarioFile};
use crate::scenario::locate::{self, Pos};
use crate::scenario::problem::{LoadError, Problem, one_line};
use crate::scenario::spec::Scenario;
use crate::scenario::validate::validate;

/// RON options used for every scenario: `Some(..)` may be left out.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME).with_recursion_limit(64)
}

/// Reads and validates a scenario file from disk.
pub fn load(path: &Path) -> Result<Scenario, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io { file: file.clone(), source })?;
    parse_bytes(&bytes, &file)
}

/// Parses and validates raw bytes (the asset loader's entry point).
pub fn parse_bytes(bytes: &[u8], file: &str) -> Result<Scenario, LoadError> {
    parse(utf8(bytes, file)?, file)
}

/// The bytes of a scenario or save file as text, or a syntax error at the
/// first byte that is not UTF-8.
pub fn utf8<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str, LoadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        // Locate the bad byte for the author.
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = String::from_utf8_lossy(good).rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        LoadError::Syntax { file: file.into(), line, col, message: "the file is not valid UTF-8".into() }
    })
}

/// The one pure function from scenario text to a validated [`Scenario`].
/// `file` only names the source in messages.
pub fn parse(text: &str, file: &str) -> Result<Scenario, LoadError> {
    let raw = read_file(text, file)?;
    validate(raw).map_err(|mut problems| {
        locate(&mut problems, without_bom(text));
        LoadError::Invalid { file: file.into(), problems }
    })
}

/// Scenario text read as the file model, before validation (the editor
/// edits this): only its syntax and field names are checked.
pub fn read_file(text: &str, file: &str) -> Result<ScenarioFile, LoadError> {
    let text = without_bom(text);
    ron_options().from_str(text).map_err(|e| {
        let mut at = Pos { line: e.span.start.line, col: e.span.start.col };
        let mut message = one_line(e.code.to_string());
        // serde's words for a bad `facing` name a type the author never
        // wrote, and ron places the error at the end of the value: say what
        // is expected, at the value's start.
        if message.contains(FACING_MISMATCH) {
            message = FACING_EXPECTED.to_owned();
            at = locate::value_before(text, "facing", at).unwrap_or(at);
        }
        LoadError::Syntax { file: file.into(), line: at.line, col: at.col, message }
    })
}

/// Finds each problem's place in the scenario text (see [`locate::Outline`]).
/// Problems whose path the text does not hold stay unlocated.
pub fn locate(problems: &mut [Problem], text: &str) {
    let Some(outline) = locate::Outline::of(without_bom(text)) else { return };
    for p in problems {
        p.at = p.path.as_deref().and_then(|path| outline.find(path));
        if let Some(o) = &mut p.other {
            o.at = outline.find(&o.path);
        }
    }
}

/// The text without a leading byte-order mark. Windows editors start UTF-8
/// files with U+FEFF, which RON does not read as whitespace; it sits before
/// line 1, column 1, and editors do not show it, so dropping it keeps every
/// later line and column as the author sees them.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
