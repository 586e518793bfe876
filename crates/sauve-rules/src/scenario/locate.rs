//! Where a value lies in a RON file: line and column for a path such as
//! `units[3].facing` or `rules.terrain.Woods`.
//!
//! ron 0.12 reports positions for syntax errors only; once a file has parsed,
//! its values carry no spans. Validation finds problems in the parsed data
//! and names them by path, and this module finds the path in the text again
//! so that the message can say `FILE:LINE:COL`. It reads just enough of RON
//! to know where each field, element and map entry starts: strings (plain,
//! escaped, raw, byte), characters and comments (`//` and nested `/* */`) are
//! skipped, so a bracket or a field name inside them is never mistaken for
//! structure. It works on any text and never panics: what it cannot follow
//! it leaves unlocated, and the problem keeps its old, unlocated form.

/// A place in the text: line and column, both from 1, the column counted
/// in characters as ron counts it in its syntax errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// The shape of a parsed RON document: where every value starts and what
/// it holds. Built once per file, then asked for as many paths as needed.
#[derive(Debug)]
pub struct Outline {
    root: Node,
}

#[derive(Debug)]
struct Node {
    at: Pos,
    body: Body,
}

#[derive(Debug)]
enum Body {
    /// A number, string, character, or a bare name (`Infantry`, `None`).
    Leaf,
    /// `(name: value, ...)`, named or not: each field's name, where the name
    /// stands, and its value.
    Fields(Vec<(String, Pos, Node)>),
    /// `[a, b]` or a tuple `(a, b)`.
    Items(Vec<Node>),
    /// One value in a named wrapper, `Some(a)` or a newtype variant; paths
    /// look through it, since optional fields may be written with or
    /// without `Some`.
    Wrap(Box<Node>),
    /// `{ key: value }`: the key as written (quotes stripped from strings),
    /// where it stands, and the value.
    Entries(Vec<(String, Pos, Node)>),
}

/// One step of a path: a field or map key, or a list index.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Name(String),
    Index(usize),
}

/// Deeper nesting than this is not followed (ron itself refuses files
/// nested deeper than the scenario loader's recursion limit of 64).
const MAX_DEPTH: usize = 128;

impl Outline {
    /// Reads `text`; `None` when it is not RON this reader can follow.
    pub fn of(text: &str) -> Option<Outline> {
        let tokens = tokenize(text)?;
        let mut p = Parser { tokens: &tokens, i: 0 };
        p.skip_attributes();
        let root = p.value(0)?;
        Some(Outline { root })
    }

    /// Where `path` lies: the start of the field (its name) or list element
    /// it ends with. A path whose tail the file leaves out, a field given
    /// its default by omission, is placed at the deepest part that is
    /// written (`sides[1].rear` of a side without `rear` at the start of
    /// `sides[1]`); a path none of which is written gives `None`.
    pub fn find(&self, path: &str) -> Option<Pos> {
        let steps = parse_path(path)?;
        let mut node = &self.root;
        let mut found = None;
        for step in &steps {
            match node.child(step) {
                Some((at, next)) => {
                    found = Some(at);
                    node = next;
                }
                None => break,
            }
        }
        found
    }
}

/// Where the value of the last `field: value` that starts before `before`
/// begins. A value that reads as RON but fits none of its type's forms (a
/// `facing` that is neither a number nor a hexside name) is reported by ron
/// at the end of a bare name or just inside a string's quotes; this finds
/// the value's start, so that the message points where the author looks.
pub fn value_before(text: &str, field: &str, before: Pos) -> Option<Pos> {
    let tokens = tokenize(text)?;
    tokens
        .windows(3)
        .rev()
        .find(|w| matches!(&w[0].0, Tok::Ident(n) if n == field) && w[1].0 == Tok::Colon && w[2].1 <= before)
        .map(|w| w[2].1)
}

impl Node {
    /// The place and value one step down, looking through a one-item
    /// wrapper such as `Some(..)` (optional fields may be written either way).
    fn child(&self, step: &Step) -> Option<(Pos, &Node)> {
        match (&self.body, step) {
            (Body::Fields(fields), Step::Name(name)) => {
                fields.iter().find(|(n, _, _)| n == name).map(|(_, at, node)| (*at, node))
            }
            (Body::Entries(entries), Step::Name(name)) => {
                entries.iter().find(|(k, _, _)| k == name).map(|(_, at, node)| (*at, node))
            }
            (Body::Items(items), Step::Index(i)) => items.get(*i).map(|node| (node.at, node)),
            (Body::Wrap(inner), _) => inner.child(step),
            _ => None,
        }
    }
}

/// `units[3].facing` as steps; `None` for text that is not a path (a
/// subject such as `unit 'x'`).
fn parse_path(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return None;
            }
            steps.push(Step::Name(name.to_owned()));
        } else if rest.is_empty() {
            return None;
        }
        while let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            steps.push(Step::Index(inner[..close].parse().ok()?));
            rest = &inner[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    (!steps.is_empty()).then_some(steps)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Open(char),
    Close(char),
    Colon,
    Comma,
    /// `#` or `!` of an attribute such as `#![enable(implicit_some)]`.
    Mark,
    Ident(String),
    /// A string, with its quotes and escapes removed only as far as a map
    /// key needs (plain text keys).
    Str(String),
    /// A number or a character.
    Other,
}

/// The characters of a text with the line and column of each.
struct Chars<'a> {
    it: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl Chars<'_> {
    fn peek(&mut self) -> Option<char> {
        self.it.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.it.next()?;
        if c == '\n' {
            self.pos = Pos { line: self.pos.line + 1, col: 1 };
        } else {
            self.pos.col += 1;
        }
        Some(c)
    }

    /// Skips a quoted string or character whose opening `quote` has been
    /// read, honouring backslash escapes; returns its text.
    fn quoted(&mut self, quote: char) -> Option<String> {
        let mut s = String::new();
        loop {
            match self.next()? {
                '\\' => {
                    let c = self.next()?;
                    s.push(c);
                }
                c if c == quote => return Some(s),
                c => s.push(c),
            }
        }
    }

    /// Skips a raw string `r#"..."#` after its `r`: any number of `#`, a
    /// quote, and text up to a quote followed by as many `#`.
    fn raw(&mut self) -> Option<String> {
        let mut hashes = 0;
        while self.peek() == Some('#') {
            self.next();
            hashes += 1;
        }
        if self.next()? != '"' {
            return None;
        }
        let mut s = String::new();
        loop {
            let c = self.next()?;
            if c == '"' {
                let mut seen = 0;
                while seen < hashes && self.peek() == Some('#') {
                    self.next();
                    seen += 1;
                }
                if seen == hashes {
                    return Some(s);
                }
                s.push('"');
                s.extend(std::iter::repeat_n('#', seen));
            } else {
                s.push(c);
            }
        }
    }
}

/// The text as tokens with their positions; `None` if a string, character
/// or block comment never closes.
fn tokenize(text: &str) -> Option<Vec<(Tok, Pos)>> {
    let mut cs = Chars { it: text.chars().peekable(), pos: Pos { line: 1, col: 1 } };
    let mut out = Vec::new();
    while let Some(c) = cs.peek() {
        let at = cs.pos;
        if c.is_whitespace() || matches!(c, '\u{200E}' | '\u{200F}') {
            cs.next();
            continue;
        }
        cs.next();
        let tok = match c {
            '/' => {
                match cs.next()? {
                    '/' => {
                        while cs.peek().is_some_and(|c| c != '\n') {
                            cs.next();
                        }
                    }
                    '*' => skip_block_comment(&mut cs)?,
                    _ => return None,
                }
                continue;
            }
            '(' | '[' | '{' => Tok::Open(c),
            ')' | ']' | '}' => Tok::Close(c),
            ':' => Tok::Colon,
            ',' => Tok::Comma,
            '#' | '!' => Tok::Mark,
            '"' => Tok::Str(cs.quoted('"')?),
            '\'' => {
                cs.quoted('\'')?;
                Tok::Other
            }
            // Byte strings and characters: b"..", b'.', br".." and br#".."#.
            'b' if matches!(cs.peek(), Some('"' | '\'')) => {
                let q = cs.next()?;
                let s = cs.quoted(q)?;
                if q == '"' { Tok::Str(s) } else { Tok::Other }
            }
            'b' if cs.peek() == Some('r') && raw_string_ahead(&cs, 1) => {
                cs.next();
                Tok::Str(cs.raw()?)
            }
            'r' if raw_string_ahead(&cs, 0) => Tok::Str(cs.raw()?),
            // A raw identifier, `r#name`.
            'r' if cs.peek() == Some('#') => {
                cs.next();
                let mut name = String::new();
                while let Some(c) = cs.peek().filter(|&c| c.is_alphanumeric() || matches!(c, '_' | '.' | '+' | '-')) {
                    name.push(c);
                    cs.next();
                }
                Tok::Ident(name)
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut name = String::from(c);
                while let Some(c) = cs.peek().filter(|&c| c.is_alphanumeric() || c == '_') {
                    name.push(c);
                    cs.next();
                }
                Tok::Ident(name)
            }
            c if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => {
                // Numbers, signed names (`-inf`) included: up to the next
                // separator. An exponent's sign belongs to the number.
                let mut prev = c;
                while let Some(c) = cs.peek().filter(|&c| {
                    c.is_alphanumeric() || c == '_' || c == '.' || (matches!(c, '+' | '-') && matches!(prev, 'e' | 'E'))
                }) {
                    prev = c;
                    cs.next();
                }
                Tok::Other
            }
            _ => Tok::Other,
        };
        out.push((tok, at));
    }
    Some(out)
}

/// Whether the characters after the `r` just read (and `skip` more) open a
/// raw string: any number of `#`, then a quote.
fn raw_string_ahead(cs: &Chars, skip: usize) -> bool {
    let mut ahead = cs.it.clone().skip(skip);
    loop {
        match ahead.next() {
            Some('#') => continue,
            Some('"') => return true,
            _ => return false,
        }
    }
}

/// Skips a block comment after its `/*`; RON's block comments nest.
fn skip_block_comment(cs: &mut Chars) -> Option<()> {
    let mut depth = 1;
    while depth > 0 {
        match cs.next()? {
            '/' if cs.peek() == Some('*') => {
                cs.next();
                depth += 1;
            }
            '*' if cs.peek() == Some('/') => {
                cs.next();
                depth -= 1;
            }
            _ => {}
        }
    }
    Some(())
}

struct Parser<'a> {
    tokens: &'a [(Tok, Pos)],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.i).map(|(t, _)| t)
    }

    fn peek_at(&self, ahead: usize) -> Option<&Tok> {
        self.tokens.get(self.i + ahead).map(|(t, _)| t)
    }

    fn pos(&self) -> Option<Pos> {
        self.tokens.get(self.i).map(|(_, p)| *p)
    }

    fn bump(&mut self) -> Option<Tok> {
        let t = self.tokens.get(self.i).map(|(t, _)| t.clone());
        self.i += 1;
        t
    }

    /// `#![enable(...)]` lines before the value.
    fn skip_attributes(&mut self) {
        while self.peek() == Some(&Tok::Mark) {
            while self.peek() == Some(&Tok::Mark) {
                self.i += 1;
            }
            if self.peek() == Some(&Tok::Open('[')) && self.value(0).is_none() {
                return;
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let at = self.pos()?;
        let body = match self.bump()? {
            Tok::Open('(') => self.parens(depth)?,
            Tok::Open('[') => Body::Items(self.items(']', depth)?),
            Tok::Open('{') => self.entries(depth)?,
            // A named struct, tuple struct or variant: `Scenario(..)`, `Some(..)`.
            Tok::Ident(_) if self.peek() == Some(&Tok::Open('(')) => {
                self.i += 1;
                match self.parens(depth)? {
                    Body::Items(mut items) if items.len() == 1 => Body::Wrap(Box::new(items.remove(0))),
                    body => body,
                }
            }
            Tok::Ident(_) | Tok::Str(_) | Tok::Other => Body::Leaf,
            _ => return None,
        };
        Some(Node { at, body })
    }

    /// After `(`: named fields if it opens with `name:`, else items.
    fn parens(&mut self, depth: usize) -> Option<Body> {
        let named = matches!(self.peek(), Some(Tok::Ident(_))) && self.peek_at(1) == Some(&Tok::Colon);
        if !named {
            return Some(Body::Items(self.items(')', depth)?));
        }
        let mut fields = Vec::new();
        loop {
            if self.peek() == Some(&Tok::Close(')')) {
                self.i += 1;
                return Some(Body::Fields(fields));
            }
            let at = self.pos()?;
            let Some(Tok::Ident(name)) = self.bump() else { return None };
            if self.bump()? != Tok::Colon {
                return None;
            }
            let v = self.value(depth + 1)?;
            fields.push((name, at, v));
            self.separator(')')?;
        }
    }

    fn items(&mut self, close: char, depth: usize) -> Option<Vec<Node>> {
        let mut items = Vec::new();
        loop {
            if self.peek() == Some(&Tok::Close(close)) {
                self.i += 1;
                return Some(items);
            }
            items.push(self.value(depth + 1)?);
            self.separator(close)?;
        }
    }

    fn entries(&mut self, depth: usize) -> Option<Body> {
        let mut entries = Vec::new();
        loop {
            if self.peek() == Some(&Tok::Close('}')) {
                self.i += 1;
                return Some(Body::Entries(entries));
            }
            let key = match self.peek() {
                Some(Tok::Ident(s) | Tok::Str(s)) => s.clone(),
                _ => String::new(),
            };
            let k = self.value(depth + 1)?;
            if self.bump()? != Tok::Colon {
                return None;
            }
            let v = self.value(depth + 1)?;
            entries.push((key, k.at, v));
            self.separator('}')?;
        }
    }

    /// A comma, or the closing bracket (left for the caller to take).
    fn separator(&mut self, close: char) -> Option<()> {
        match self.peek()? {
            Tok::Comma => {
                self.i += 1;
                Some(())
            }
            Tok::Close(c) if *c == close => Some(()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, path: &str) -> Option<(usize, usize)> {
        Outline::of(text).and_then(|o| o.find(path)).map(|p| (p.line, p.col))
    }

    const FILE: &str = r##"#![enable(implicit_some)]
Scenario(
    name: "a (tricky) name, with [brackets] and units: \"quotes\"",
    // units: [ (id: "commented out") ],
    /* a block comment /* nested */ still in it: sides: [] */
    sides: [(id: "fr", rear: South), (id: "ru")],
    map: (rows: ["..", r#".""#], legend: { 'h': Village, ',': Town }),
    units: [
        (id: "a", at: (1, 2), facing: NE),
        (id: "b", cause: Some("a"), pos: (-1.5e-3, +2), facing: -inf),
    ],
    rules: (terrain: { Woods: (infantry: NaN, cavalry: 1.0, artillery: None) }, rout_hexes: 6),
)
"##;

    #[test]
    fn fields_elements_and_map_entries_are_found_at_their_start() {
        assert_eq!(at(FILE, "name"), Some((3, 5)));
        assert_eq!(at(FILE, "sides"), Some((6, 5)));
        assert_eq!(at(FILE, "sides[1]"), Some((6, 38)));
        assert_eq!(at(FILE, "sides[0].rear"), Some((6, 24)));
        assert_eq!(at(FILE, "map.rows[1]"), Some((7, 24)));
        assert_eq!(at(FILE, "units[0]"), Some((9, 9)));
        assert_eq!(at(FILE, "units[1]"), Some((10, 9)));
        assert_eq!(at(FILE, "units[0].facing"), Some((9, 31)));
        assert_eq!(at(FILE, "units[1].facing"), Some((10, 57)));
        assert_eq!(at(FILE, "rules.terrain.Woods"), Some((12, 24)));
        assert_eq!(at(FILE, "rules.rout_hexes"), Some((12, 81)));
    }

    #[test]
    fn strings_characters_and_comments_hide_what_looks_like_structure() {
        // The name's "units:" and the commented-out units are not the list.
        assert_eq!(at(FILE, "units"), Some((8, 5)));
        assert_eq!(at(FILE, "units[2]"), Some((8, 5)));
        // ',' and 'h' are legend keys, not separators, and the raw string
        // before them ends at its own `"#`.
        assert_eq!(at(FILE, "map.legend"), Some((7, 34)));
        assert_eq!(at(FILE, "map.legend.h"), Some((7, 34)), "a character key is not a name");
    }

    #[test]
    fn a_path_the_file_leaves_out_is_placed_at_its_deepest_written_part() {
        assert_eq!(at(FILE, "sides[1].rear"), Some((6, 38)));
        assert_eq!(at(FILE, "units[1].cause"), Some((10, 19)));
        assert_eq!(at(FILE, "rules.retreat_mp"), Some((12, 5)));
        assert_eq!(at(FILE, "shocks[0]"), None);
        assert_eq!(at(FILE, "unit 'a'"), None, "a subject that is not a path");
    }

    #[test]
    fn every_unit_of_the_bundled_scenarios_is_found_at_its_entry() {
        for text in [
            include_str!("../../../../scenarios/cascade.ron"),
            include_str!("../../../../scenarios/grossbeeren-1813.ron"),
            include_str!("../../../../scenarios/plancenoit-1815.ron"),
        ] {
            let outline = Outline::of(text).expect("a bundled scenario is followed");
            let scenario = crate::scenario::parse(text, "bundled").expect("valid");
            let lines: Vec<&str> = text.lines().collect();
            for (i, u) in scenario.units.iter().enumerate() {
                let at = outline.find(&format!("units[{i}]")).expect("located");
                let rest: String = lines[at.line - 1].chars().skip(at.col - 1).collect();
                assert!(rest.starts_with('('), "units[{i}] at {at}: {rest}");
                assert!(rest.contains(&format!("\"{}\"", u.id)), "units[{i}] at {at} is not {}: {rest}", u.id);
            }
        }
    }

    #[test]
    fn the_value_of_a_field_is_found_before_a_place() {
        let text = "(a: (facing: ENE), b: (facing: /* facing: */ \"x\"))";
        assert_eq!(value_before(text, "facing", Pos { line: 1, col: 17 }), Some(Pos { line: 1, col: 14 }));
        assert_eq!(value_before(text, "facing", Pos { line: 1, col: 47 }), Some(Pos { line: 1, col: 46 }));
        assert_eq!(value_before(text, "facing", Pos { line: 1, col: 5 }), None);
        assert_eq!(value_before("(facing: \"open", "facing", Pos { line: 1, col: 12 }), None);
    }

    #[test]
    fn some_is_looked_through() {
        let text = "(cause: Some((x: 1, y: [4, 5])), list: Some([7, 8]))";
        assert_eq!(at(text, "cause.y[1]"), Some((1, 28)));
        assert_eq!(at(text, "list[1]"), Some((1, 49)));
        assert_eq!(at(text, "list[0]"), Some((1, 46)));
    }

    #[test]
    fn text_it_cannot_follow_is_unlocated_not_a_panic() {
        for bad in ["", "(", "(a: \"open", "/* open", "(a: 1 b: 2)", "[1, 2", "(a: r##\"x\"#)", "((((((", "'"] {
            assert_eq!(at(bad, "a"), None, "{bad:?}");
        }
        let deep = "[".repeat(500) + &"]".repeat(500);
        assert_eq!(at(&deep, "x"), None);
    }

    #[test]
    fn paths_are_read_strictly() {
        assert_eq!(
            parse_path("units[3].facing"),
            Some(vec![Step::Name("units".into()), Step::Index(3), Step::Name("facing".into())])
        );
        assert_eq!(parse_path("rules.combat.fire_table[2]").map(|s| s.len()), Some(4));
        for bad in ["", "units[", "units[x]", "units[1]x", "unit 'a'", "a..b"] {
            assert_eq!(parse_path(bad), None, "{bad:?}");
        }
    }
}
