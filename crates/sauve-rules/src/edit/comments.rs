//! A person's comments in a scenario file, kept across a save. The editor
//! writes a file anew ([`super::write::to_ron`]), which alone would lose
//! every note a person wrote in it. [`collect`] finds each comment and the
//! place it belongs to, named by what stands there rather than by its line
//! number: the file's top, a field (`units`, `rules.rout_hexes`), a record
//! by its identity (a unit by its `id`, a shock by its `unit` and `turn`, a
//! map row by its index), or the end of a list. [`keep`] puts the comments
//! back into the new text at the same places, so that a comment before a
//! unit still stands before that unit however the file was reordered or
//! reformatted, and lists the comments whose place the edit removed.

use std::collections::HashMap;

use super::write::HEADER;

/// The place a comment belongs to. A key is the path of an item of the
/// scenario: field names, and list records by their identity (`[id="fr-1"]`,
/// `[#7]` for the eighth map row), so that it names the same thing in any
/// text that holds it, whatever its layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// The file's header block, before its first line of code: it goes right
    /// after the editor's own header line.
    Top,
    /// The line on which the item with this key starts.
    Item(Vec<String>),
    /// The line on which this item's brackets close: a comment at the end of
    /// a list or record, with nothing after it but the closing bracket.
    End(Vec<String>),
    /// After the last line of code.
    Bottom,
}

/// A person's comment in a scenario text and the place it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    /// The comment as written: one or more whole `//` lines or a `/* */`
    /// block, from its first slash to the end of its last line, without the
    /// indentation it shares with its other lines.
    pub text: String,
    /// Whether it follows code on its anchor's line (it is appended to that
    /// line) rather than standing on lines of its own (it goes before it).
    pub trailing: bool,
    /// Where it belongs.
    pub anchor: Anchor,
    /// For a comment on its own lines: how much deeper than its anchor's line
    /// it was indented (from the left edge for the top and the bottom).
    pub indent: isize,
    /// Whether a blank line stood before it, setting it apart.
    pub gap: bool,
}

/// A written text with the comments put back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The written text with the comments in it.
    pub text: String,
    /// The comments whose place the written text no longer has, one line
    /// each, shortened for a message.
    pub dropped: Vec<String>,
}

/// What a token of RON text is, as far as finding comments and the items
/// they belong to needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Open(char),
    Close,
    Comma,
    Colon,
    /// A name, number or other bare word.
    Word,
    /// A string or character literal.
    Literal,
    /// A comment; the number is how many `/*` it left open at the end of the
    /// text (a block comment never closed).
    Comment(usize),
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Kind,
    /// Byte offsets in the text.
    start: usize,
    end: usize,
    /// The lines (from 0) its first and last characters are on.
    line: usize,
    end_line: usize,
}

impl Token {
    fn is_comment(&self) -> bool {
        matches!(self.kind, Kind::Comment(_))
    }
}

/// Reads RON text into tokens the way ron itself does: strings with `\`
/// escapes, raw strings, character literals (`'/'`), `//` comments to the
/// end of the line, and `/* */` comments, which nest.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl Lexer<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn advance_to(&mut self, end: usize) {
        while self.pos < end && self.bump().is_some() {}
    }

    fn punct(&mut self, kind: Kind) -> Kind {
        self.bump();
        kind
    }

    fn line_comment(&mut self) -> Kind {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
        Kind::Comment(0)
    }

    fn block_comment(&mut self) -> Kind {
        self.pos += 2;
        let mut level = 1;
        while level > 0 {
            if self.rest().starts_with("/*") {
                self.pos += 2;
                level += 1;
            } else if self.rest().starts_with("*/") {
                self.pos += 2;
                level -= 1;
            } else if self.bump().is_none() {
                break;
            }
        }
        Kind::Comment(level)
    }

    fn string(&mut self) -> Kind {
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '"' => break,
                _ => {}
            }
        }
        Kind::Literal
    }

    /// A raw string (`r"..."`, `r#"..."#`, `br"..."`), if one starts here.
    fn raw_string(&mut self) -> bool {
        let rest = self.rest();
        let Some(after) = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r')) else {
            return false;
        };
        let hashes = after.len() - after.trim_start_matches('#').len();
        if !after.get(hashes..).is_some_and(|a| a.starts_with('"')) {
            return false;
        }
        let close = format!("\"{}", "#".repeat(hashes));
        let body = self.pos + (rest.len() - after.len()) + hashes + 1;
        let end =
            self.text.get(body..).and_then(|b| b.find(&close)).map_or(self.text.len(), |i| body + i + close.len());
        self.advance_to(end);
        true
    }

    /// A character literal (`'a'`, `'\''`, `'\u{e9}'`), if one starts here.
    fn char_literal(&mut self) -> bool {
        let (pos, line) = (self.pos, self.line);
        self.bump();
        if self.bump() == Some('\\') && self.bump() == Some('u') {
            while self.peek().is_some_and(|c| !matches!(c, '}' | '\'' | '\n')) {
                self.bump();
            }
            if self.peek() == Some('}') {
                self.bump();
            }
        }
        if self.peek() == Some('\'') {
            self.bump();
            return true;
        }
        (self.pos, self.line) = (pos, line);
        false
    }

    fn word(&mut self) -> Kind {
        self.bump();
        while let Some(c) = self.peek() {
            let comment = self.rest().starts_with("//") || self.rest().starts_with("/*");
            if c.is_whitespace() || "()[]{},:\"'".contains(c) || comment {
                break;
            }
            self.bump();
        }
        Kind::Word
    }
}

fn lex(text: &str) -> Vec<Token> {
    let mut lx = Lexer { text, pos: 0, line: 0 };
    let mut out = Vec::new();
    while let Some(c) = lx.peek() {
        if c.is_whitespace() {
            lx.bump();
            continue;
        }
        let (start, line) = (lx.pos, lx.line);
        let kind = match c {
            '/' if lx.rest().starts_with("//") => lx.line_comment(),
            '/' if lx.rest().starts_with("/*") => lx.block_comment(),
            '(' | '[' | '{' => lx.punct(Kind::Open(c)),
            ')' | ']' | '}' => lx.punct(Kind::Close),
            ',' => lx.punct(Kind::Comma),
            ':' => lx.punct(Kind::Colon),
            '"' => lx.string(),
            '\'' if lx.char_literal() => Kind::Literal,
            _ if lx.raw_string() => Kind::Literal,
            _ => lx.word(),
        };
        out.push(Token { kind, start, end: lx.pos, line, end_line: lx.line });
    }
    out
}

/// A value of the text, by the indices of its code tokens.
enum Val {
    Atom(usize),
    Group { name: Option<usize>, open: char, close: Option<usize>, entries: Vec<Entry> },
}

/// A field (`name: value`), a map entry or a list or tuple element.
struct Entry {
    label: Option<Val>,
    value: Val,
    first: usize,
    last: usize,
}

/// How deep brackets may nest before the rest is skipped unread: deeper
/// than any scenario, shallow enough never to exhaust the stack.
const MAX_DEPTH: usize = 64;

/// Reads the code tokens as RON values, forgiving: a stray token is
/// skipped, an unclosed bracket closes at the end of the text.
struct Parser<'a> {
    text: &'a str,
    code: &'a [Token],
    pos: usize,
}

impl Parser<'_> {
    fn kind(&self) -> Option<Kind> {
        self.code.get(self.pos).map(|t| t.kind)
    }

    fn value(&mut self, depth: usize) -> Option<Val> {
        let at = self.pos;
        match self.kind()? {
            Kind::Open(c) => {
                self.pos += 1;
                Some(self.group(None, c, depth))
            }
            Kind::Word => {
                self.pos += 1;
                let ident = self.code.get(at).is_some_and(|t| {
                    self.text
                        .get(t.start..t.end)
                        .is_some_and(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
                });
                if ident && self.kind() == Some(Kind::Open('(')) {
                    self.pos += 1;
                    Some(self.group(Some(at), '(', depth))
                } else {
                    Some(Val::Atom(at))
                }
            }
            Kind::Literal => {
                self.pos += 1;
                Some(Val::Atom(at))
            }
            _ => None,
        }
    }

    /// The rest of a group whose opening bracket was just read.
    fn group(&mut self, name: Option<usize>, open: char, depth: usize) -> Val {
        let mut entries = Vec::new();
        if depth >= MAX_DEPTH {
            let close = self.skip();
            return Val::Group { name, open, close, entries };
        }
        loop {
            match self.kind() {
                None => return Val::Group { name, open, close: None, entries },
                Some(Kind::Close) => {
                    self.pos += 1;
                    return Val::Group { name, open, close: Some(self.pos - 1), entries };
                }
                Some(Kind::Comma | Kind::Colon) => self.pos += 1,
                Some(_) => {
                    let first = self.pos;
                    let Some(v) = self.value(depth + 1) else {
                        self.pos += 1;
                        continue;
                    };
                    let (label, value) = if self.kind() == Some(Kind::Colon) {
                        self.pos += 1;
                        match self.value(depth + 1) {
                            Some(w) => (Some(v), w),
                            None => (None, v),
                        }
                    } else {
                        (None, v)
                    };
                    entries.push(Entry { label, value, first, last: self.pos.saturating_sub(1) });
                }
            }
        }
    }

    /// Past the bracket that closes the one just opened; where it is.
    fn skip(&mut self) -> Option<usize> {
        let mut level = 1usize;
        while let Some(k) = self.kind() {
            self.pos += 1;
            match k {
                Kind::Open(_) => level += 1,
                Kind::Close => {
                    level -= 1;
                    if level == 0 {
                        return Some(self.pos - 1);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// A field, record or other entry of the text, or its top-level value.
struct Item {
    key: Vec<String>,
    /// Its first code token.
    first: usize,
}

/// A text read for anchoring: its tokens, its items with their keys, and
/// which item each line starts or closes.
struct Scan<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    code: Vec<Token>,
    line_starts: Vec<usize>,
    items: Vec<Item>,
    /// The innermost item holding each code token.
    owner: Vec<Option<usize>>,
    /// The item each closing bracket (a code token) closes.
    closes: HashMap<usize, usize>,
    /// The first item starting on each line.
    first_item: HashMap<usize, usize>,
    /// The first code token starting on each line.
    first_code: HashMap<usize, usize>,
}

impl<'a> Scan<'a> {
    fn new(text: &'a str) -> Self {
        let tokens = lex(text);
        let code: Vec<Token> = tokens.iter().copied().filter(|t| !t.is_comment()).collect();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut s = Scan {
            text,
            tokens,
            owner: vec![None; code.len()],
            code,
            line_starts,
            items: Vec::new(),
            closes: HashMap::new(),
            first_item: HashMap::new(),
            first_code: HashMap::new(),
        };
        let code = s.code.clone();
        let mut p = Parser { text, code: &code, pos: 0 };
        let mut tops = Vec::new();
        while p.pos < code.len() {
            let first = p.pos;
            match p.value(0) {
                Some(v) => tops.push((v, first, p.pos.saturating_sub(1))),
                None => p.pos += 1,
            }
        }
        // The scenario is the largest top-level value; anything before it
        // (such as `#![enable(..)]`) is named by its place.
        let root = tops.iter().enumerate().max_by_key(|(_, (_, f, l))| l.saturating_sub(*f)).map(|(i, _)| i);
        for (i, (v, first, last)) in tops.iter().enumerate() {
            let key = if Some(i) == root { Vec::new() } else { vec![format!("#top{i}")] };
            let item = s.add_item(key.clone(), *first, *last);
            s.walk(v, item, &key);
        }
        for (i, item) in s.items.iter().enumerate() {
            if let Some(t) = s.code.get(item.first) {
                s.first_item.entry(t.line).or_insert(i);
            }
        }
        for (i, t) in s.code.iter().enumerate() {
            s.first_code.entry(t.line).or_insert(i);
        }
        s
    }

    fn add_item(&mut self, key: Vec<String>, first: usize, last: usize) -> usize {
        let item = self.items.len();
        self.items.push(Item { key, first });
        for o in self.owner.iter_mut().take(last.saturating_add(1)).skip(first) {
            *o = Some(item);
        }
        item
    }

    /// Adds the entries of `v`, the value of `item`, as items.
    fn walk(&mut self, v: &Val, item: usize, key: &[String]) {
        let Val::Group { open, close, entries, .. } = v else { return };
        if let Some(c) = close {
            self.closes.insert(*c, item);
        }
        let list = key.last().map_or("", String::as_str);
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            let seg = match (&e.label, open) {
                (Some(Val::Atom(l)), '(') => self.slice(self.code.get(*l)).to_owned(),
                (Some(l), _) => format!("{{{}}}", self.canon(l)),
                (None, '[') => self.identity(list, &e.value, i),
                (None, _) => format!("#{i}"),
            };
            let n = seen.entry(seg.clone()).or_insert(0);
            *n += 1;
            let seg = if *n > 1 { format!("{seg}~{n}") } else { seg };
            let mut k = key.to_vec();
            k.push(seg);
            let it = self.add_item(k.clone(), e.first, e.last);
            self.walk(&e.value, it, &k);
        }
    }

    /// What names a record of the list `list` however it is written: its
    /// `id`, or what the file format makes unique for the records that have
    /// none; else its place in the list (a map row).
    fn identity(&self, list: &str, v: &Val, index: usize) -> String {
        let mut fields = HashMap::new();
        if let Val::Group { open: '(', entries, .. } = v {
            for e in entries {
                if let Some(Val::Atom(l)) = &e.label {
                    fields.insert(self.slice(self.code.get(*l)), self.canon(&e.value));
                }
            }
        }
        let names: &[&str] = match list {
            "shocks" => &["unit", "turn"],
            "staff" if fields.contains_key("name") => &["side", "name"],
            "staff" => &["side", "pos"],
            "objectives" => &["at"],
            "exits" => &["side", "edge"],
            "hexsides" => &["at", "side"],
            _ => &["id"],
        };
        let parts: Option<Vec<String>> = names.iter().map(|n| fields.get(n).map(|v| format!("{n}={v}"))).collect();
        match parts {
            Some(p) => format!("[{}]", p.join(", ")),
            None => format!("[#{index}]"),
        }
    }

    /// A value written one way for all the ways RON allows: numbers by
    /// value (`40` and `40.0` alike), strings unescaped, no spaces, and
    /// `Some(x)` as `x`.
    fn canon(&self, v: &Val) -> String {
        match v {
            Val::Atom(i) => {
                let t = self.code.get(*i);
                let s = self.slice(t);
                match t.map(|t| t.kind) {
                    Some(Kind::Literal) => {
                        let q = if s.starts_with('\'') { '\'' } else { '"' };
                        format!("{q}{}{q}", unquote(s))
                    }
                    _ => number(s),
                }
            }
            Val::Group { name, open, entries, .. } => {
                let name = name.map_or("", |n| self.slice(self.code.get(n)));
                if let [Entry { label: None, value, .. }] = entries.as_slice()
                    && name == "Some"
                {
                    return self.canon(value);
                }
                let inner: Vec<String> = entries
                    .iter()
                    .map(|e| match &e.label {
                        Some(l) => format!("{}:{}", self.canon(l), self.canon(&e.value)),
                        None => self.canon(&e.value),
                    })
                    .collect();
                let close = match open {
                    '[' => ']',
                    '{' => '}',
                    _ => ')',
                };
                format!("{name}{open}{}{close}", inner.join(","))
            }
        }
    }

    fn slice(&self, t: Option<&Token>) -> &'a str {
        t.and_then(|t| self.text.get(t.start..t.end)).unwrap_or("")
    }

    /// How many spaces or tabs a line starts with.
    fn indent(&self, line: usize) -> usize {
        let start = self.line_starts.get(line).copied().unwrap_or(self.text.len());
        self.text.get(start..).unwrap_or("").chars().take_while(|c| matches!(c, ' ' | '\t')).count()
    }

    /// The place a line of code is: the first item starting on it, else the
    /// item whose bracket it starts by closing, else the item it is inside.
    fn anchor_of_line(&self, line: usize) -> Anchor {
        let key = |i: usize| self.items.get(i).map(|it| it.key.clone()).unwrap_or_default();
        if let Some(&it) = self.first_item.get(&line) {
            return Anchor::Item(key(it));
        }
        let on_line = self.first_code.get(&line).copied();
        if let Some(&it) = on_line.and_then(|c| self.closes.get(&c)) {
            return Anchor::End(key(it));
        }
        let before = self.code.partition_point(|t| t.line < line).checked_sub(1);
        match on_line.or(before).and_then(|c| self.owner.get(c).copied().flatten()) {
            Some(it) => Anchor::Item(key(it)),
            None => Anchor::Top,
        }
    }

    /// The text of the comments from `first` to `last`, and its indentation:
    /// a comment on its own lines loses the indentation all its lines share.
    fn comment_text(&self, first: &Token, last: &Token, trailing: bool) -> (String, usize) {
        let raw = self.text.get(first.start..last.end).unwrap_or("");
        let mut lines: Vec<String> = raw.split('\n').map(|l| l.trim_end().to_owned()).collect();
        if let Kind::Comment(open) = last.kind
            && let Some(l) = lines.last_mut()
        {
            // A block comment never closed would swallow the rest of a text
            // it is put back into.
            l.push_str(&" */".repeat(open));
        }
        if trailing {
            return (lines.join("\n"), 0);
        }
        let line_start = self.line_starts.get(first.line).copied().unwrap_or(0);
        let col = self.text.get(line_start..first.start).map_or(0, |s| s.chars().count());
        let lead = |l: &str| l.chars().take_while(|c| matches!(c, ' ' | '\t')).count();
        let shared = lines.iter().skip(1).filter(|l| !l.is_empty()).map(|l| lead(l)).fold(col, usize::min);
        for (i, l) in lines.iter_mut().enumerate() {
            *l = if i == 0 { format!("{}{l}", " ".repeat(col - shared)) } else { l.chars().skip(shared).collect() };
        }
        (lines.join("\n"), shared)
    }
}

/// A string or character literal's characters, escapes read.
fn unquote(lit: &str) -> String {
    if let Some(raw) = lit.strip_prefix("br").or_else(|| lit.strip_prefix('r')) {
        let body = raw.trim_matches('#');
        return body.strip_prefix('"').unwrap_or(body).strip_suffix('"').unwrap_or(body).to_owned();
    }
    let mut chars = lit.chars();
    let quote = chars.next();
    let inner: String = chars.collect();
    let inner = quote.and_then(|q| inner.strip_suffix(q)).unwrap_or(&inner);
    let mut out = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let hex: String = it.by_ref().take_while(|&c| c != '}').filter(char::is_ascii_hexdigit).collect();
                out.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
            }
            Some('x') => {
                let hex: String = it.by_ref().take(2).collect();
                out.extend(u8::from_str_radix(&hex, 16).ok().map(char::from));
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    out
}

/// A bare word, a number written by its value.
fn number(w: &str) -> String {
    if w.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.'))
        && let Ok(x) = w.replace('_', "").parse::<f64>()
    {
        return format!("{x}");
    }
    w.to_owned()
}

fn is_header(s: &Scan, t: &Token) -> bool {
    s.slice(Some(t)).trim_end() == HEADER
}

/// Every comment of `text` other than the editor's own header line
/// ([`HEADER`]), each anchored to the place it belongs to. Comments on
/// adjacent lines with no code between them are one comment.
pub fn collect(text: &str) -> Vec<Comment> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let s = Scan::new(text);
    let toks = &s.tokens;
    // The line of the next code token after each token.
    let mut next_code = vec![None; toks.len() + 1];
    for i in (0..toks.len()).rev() {
        next_code[i] = match toks.get(i + 1) {
            Some(n) if !n.is_comment() => Some(n.line),
            _ => next_code[i + 1],
        };
    }
    let mut out = Vec::new();
    let mut prev_end: Option<usize> = None;
    let mut last_code: Option<&Token> = None;
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        i += 1;
        if !t.is_comment() || is_header(&s, t) {
            prev_end = Some(t.end_line);
            if !t.is_comment() {
                last_code = Some(t);
            }
            continue;
        }
        let trailing = last_code.is_some_and(|c| c.end_line == t.line);
        let mut last = t;
        while let Some(n) = toks.get(i) {
            let adjacent = if trailing { n.line == last.end_line } else { n.line <= last.end_line + 1 };
            if !n.is_comment() || is_header(&s, n) || !adjacent {
                break;
            }
            last = n;
            i += 1;
        }
        let gap = !trailing && prev_end.is_some_and(|p| t.line > p + 1);
        prev_end = Some(last.end_line);
        let (anchor, base) = match next_code.get(i - 1).copied().flatten() {
            _ if trailing => (s.anchor_of_line(t.line), 0),
            _ if last_code.is_none() => (Anchor::Top, 0),
            Some(line) => (s.anchor_of_line(line), s.indent(line)),
            None => (Anchor::Bottom, 0),
        };
        let (text, indent) = s.comment_text(t, last, trailing);
        let indent = if trailing { 0 } else { to_isize(indent) - to_isize(base) };
        out.push(Comment { text, trailing, anchor, indent, gap });
    }
    out
}

fn to_isize(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

/// A comment as one line for a message, at most about 60 characters.
fn summary(text: &str) -> String {
    let one = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= 60 {
        return one;
    }
    let mut short: String = one.chars().take(59).collect();
    short.push('…');
    short
}

/// The most a comment is indented when put back: a bound on what a
/// malformed comment can make.
const MAX_INDENT: usize = 240;

/// Puts a comment on its own lines at the end of `out`, indented from `base`.
fn put_own(out: &mut Vec<String>, c: &Comment, base: usize) {
    if c.gap && out.last().is_some_and(|l| !l.trim().is_empty()) {
        out.push(String::new());
    }
    let indent = to_isize(base).saturating_add(c.indent).clamp(0, to_isize(MAX_INDENT));
    let pad = " ".repeat(usize::try_from(indent).unwrap_or(0));
    for l in c.text.split('\n') {
        out.push(if l.is_empty() { String::new() } else { format!("{pad}{l}") });
    }
}

/// `written` (a text [`super::write::to_ron`] wrote) with `comments` put
/// back at their places: a comment on its own lines before the line its
/// anchor names, indented as deep relative to it as it was; a trailing one
/// at the end of that line; the header block right after the editor's
/// header line. The comments whose place `written` no longer has (the unit
/// the edit deleted, a field now left at its default) are listed in
/// `dropped`.
pub fn keep(comments: &[Comment], written: &str) -> Kept {
    let s = Scan::new(written);
    let line_of = |t: usize| s.code.get(t).map(|t| t.line);
    let mut starts: HashMap<&[String], usize> = HashMap::new();
    for it in &s.items {
        if let Some(l) = line_of(it.first) {
            starts.entry(it.key.as_slice()).or_insert(l);
        }
    }
    let mut ends: HashMap<&[String], usize> = HashMap::new();
    for (t, it) in &s.closes {
        if let (Some(l), Some(it)) = (line_of(*t), s.items.get(*it)) {
            ends.entry(it.key.as_slice()).or_insert(l);
        }
    }
    let lines: Vec<&str> = written.lines().collect();
    // Lines that begin inside a string or a comment, where nothing may go.
    let mut inside = vec![false; lines.len() + 2];
    for t in &s.tokens {
        for l in inside.iter_mut().take(t.end_line + 1).skip(t.line + 1) {
            *l = true;
        }
    }
    let header = lines.first().is_some_and(|l| l.trim_end() == HEADER);
    let mut before: Vec<Vec<&Comment>> = vec![Vec::new(); lines.len() + 1];
    let mut after: Vec<Vec<&Comment>> = vec![Vec::new(); lines.len()];
    let mut dropped = Vec::new();
    for c in comments {
        let line = match &c.anchor {
            Anchor::Top if header => Some(1),
            Anchor::Top => Some(0),
            Anchor::Bottom => Some(lines.len()),
            Anchor::Item(k) => starts.get(k.as_slice()).copied(),
            Anchor::End(k) => ends.get(k.as_slice()).copied(),
        };
        match line {
            Some(l) if c.trailing && l < lines.len() && !inside[l + 1] => after[l].push(c),
            Some(l) if !c.trailing && !inside[l] => before[l].push(c),
            _ => dropped.push(summary(&c.text)),
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + comments.len());
    for (i, line) in lines.iter().enumerate() {
        // The header block goes after the editor's header, at the left edge.
        let base = if header && i == 1 { 0 } else { s.indent(i) };
        for c in &before[i] {
            put_own(&mut out, c, base);
        }
        let mut l = (*line).to_owned();
        for c in &after[i] {
            l.push_str("  ");
            l.push_str(&c.text);
        }
        out.push(l);
    }
    for c in &before[lines.len()] {
        put_own(&mut out, c, 0);
    }
    let mut text = out.join("\n");
    text.push('\n');
    Kept { text, dropped }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::write::to_ron;
    use crate::scenario::{ScenarioFile, read_file};

    const BATTLES: [(&str, &str); 6] = [
        ("cascade", include_str!("../../../../scenarios/cascade.ron")),
        ("dennewitz-1813", include_str!("../../../../scenarios/dennewitz-1813.ron")),
        ("grossbeeren-1813", include_str!("../../../../scenarios/grossbeeren-1813.ron")),
        ("hagelberg-1813", include_str!("../../../../scenarios/hagelberg-1813.ron")),
        ("ligny-1815", include_str!("../../../../scenarios/ligny-1815.ron")),
        ("plancenoit-1815", include_str!("../../../../scenarios/plancenoit-1815.ron")),
    ];

    fn battle(name: &str) -> &'static str {
        BATTLES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).unwrap_or_else(|| panic!("no battle {name}"))
    }

    fn read(text: &str) -> ScenarioFile {
        read_file(text, "test.ron").unwrap_or_else(|e| panic!("{e:?}\n{text}"))
    }

    /// What a save does: the file written anew, its comments kept.
    fn save(text: &str) -> Kept {
        keep(&collect(text), &to_ron(&read(text)))
    }

    /// Every line of every comment, trimmed and sorted: what people wrote,
    /// wherever it stands.
    fn comment_lines(text: &str) -> Vec<String> {
        let mut out: Vec<String> = collect(text)
            .iter()
            .flat_map(|c| c.text.lines().map(|l| l.trim().to_owned()).collect::<Vec<_>>())
            .collect();
        out.sort();
        out
    }

    /// The line just before the first line holding `needle`.
    fn line_before<'a>(text: &'a str, needle: &str) -> &'a str {
        let lines: Vec<&str> = text.lines().collect();
        let i = lines.iter().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no {needle} in\n{text}"));
        lines.get(i.wrapping_sub(1)).copied().unwrap_or("")
    }

    #[test]
    fn a_saved_bundled_battle_keeps_every_comment_and_reads_back_the_same() {
        for (name, text) in BATTLES {
            let kept = save(text);
            assert!(kept.dropped.is_empty(), "{name} lost {:?}", kept.dropped);
            assert_eq!(read(&kept.text), read(text), "{name} reads back the same");
            assert!(kept.text.starts_with(HEADER), "{name}");
            for c in collect(text) {
                for l in c.text.lines() {
                    assert!(kept.text.contains(l.trim()), "{name} lost {l:?}:\n{}", kept.text);
                }
            }
            assert_eq!(comment_lines(&kept.text), comment_lines(text), "{name}");
        }
    }

    #[test]
    fn a_comment_stays_before_its_record_and_a_trailing_one_on_its_line() {
        let ligny = save(battle("ligny-1815")).text;
        assert_eq!(line_before(&ligny, "(id: \"pr-1-7\""), "        // Jagow's brigade holding Ligny on both banks");
        assert_eq!(
            line_before(&ligny, "(id: \"fr-1-15l\""),
            "        // Vandamme's III Corps against Saint-Amand, lines facing north"
        );
        assert_eq!(line_before(&ligny, "// Gérard's IV Corps"), "", "a blank line still sets a group apart");
        assert!(ligny.contains("            \".....vvr..............r.............\",  //  7\n"), "{ligny}");
        assert!(ligny.contains("aggression: 0.4),  // Brye and Sombreffe lie north\n"), "{ligny}");
        assert_eq!(
            line_before(&ligny, "\"....................................\",  //  0"),
            "            //      012345678901234567890123456789012345"
        );
        // The header block follows the editor's header line.
        assert!(ligny.starts_with(&format!("{HEADER}\n// Ligny, 16 June 1815: the villages on the brook\n//\n")));
        // Sections the editor writes in another order keep their comments.
        assert_eq!(
            line_before(&ligny, "    staff: ["),
            "    // its rectangle gets the staff bonus to reorganise (rules 2.4)."
        );
        assert_eq!(
            line_before(&ligny, "    rules: ("),
            "    // attacker's way to win is to bleed the defender of the villages."
        );
        let cascade = save(battle("cascade")).text;
        assert_eq!(
            line_before(&cascade, "(at: (8, 2), side: S, kind: Slope)"),
            "            // the foot of a low fold below the Russian guns"
        );
        let grossbeeren = save(battle("grossbeeren-1813")).text;
        assert_eq!(
            line_before(&grossbeeren, "        off_map_recovery: [South],"),
            "        // the battle, but recorded as rallying off the map, not destroyed."
        );
    }

    #[test]
    fn a_comment_before_a_deleted_unit_is_reported_and_the_rest_kept() {
        let text = battle("ligny-1815");
        let mut f = read(text);
        f.units.retain(|u| u.id != "pr-1-7");
        let kept = keep(&collect(text), &to_ron(&f));
        assert_eq!(kept.dropped, vec!["// Jagow's brigade holding Ligny on both banks".to_owned()]);
        assert_eq!(read(&kept.text), f);
        assert!(kept.text.contains("// guns on the slope below Brye, and the cavalry"), "{}", kept.text);
    }

    #[test]
    fn a_long_dropped_comment_is_reported_on_one_short_line() {
        let text = "Scenario(\n    // one\n    // two words that go on and on and on and on and on and on and on\n    mode: Hex,\n)\n";
        let kept = keep(&collect(text), "Scenario(\n)\n");
        assert_eq!(kept.dropped.len(), 1);
        assert!(kept.dropped[0].starts_with("// one // two words") && kept.dropped[0].chars().count() == 60);
    }

    #[test]
    fn slashes_in_strings_and_char_literals_are_not_comments() {
        let text = concat!(
            "Scenario(\n",
            "    name: \"a // b /* c */\",  // the name\n",
            "    legend: { '/': Road, '\"': Town, '\\'': Marsh, '\\u{2f}': Woods },\n",
            "    note: r#\"raw \" // \"#,\n",
            "    q: \"say \\\"// not\\\" /*\",\n",
            ")\n",
        );
        let found = collect(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].text, "// the name");
        assert!(found[0].trailing);
        assert_eq!(found[0].anchor, Anchor::Item(vec!["name".into()]));
    }

    #[test]
    fn records_are_known_by_their_identity_not_their_layout() {
        let a = "Scenario(\n  units: [\n    // first\n    (id: \"a\", pos: (40, 5)),\n  ],\n  staff: [\n    // chief\n    (side: \"fr\", name: \"N\", pos: (1, 2)),\n  ],\n)\n";
        let b = "Scenario(\n    staff: [(pos: (1.0, 2.0), side: \"fr\", name: \"N\")],\n    units: [\n        (pos: (40.0, 5.0), id: \"a\"),\n    ],\n)\n";
        let kept = keep(&collect(a), b);
        assert!(kept.dropped.is_empty(), "{:?}", kept.dropped);
        assert_eq!(line_before(&kept.text, "(pos: (40.0, 5.0)"), "        // first");
        assert_eq!(line_before(&kept.text, "staff: [(pos"), "    // chief");
    }

    #[test]
    fn a_comment_at_the_end_of_a_list_stays_before_its_closing_bracket() {
        let text = battle("cascade").replacen(
            "    ],\n\n    shocks",
            "        // more battalions to come\n    ],\n\n    shocks",
            1,
        );
        let kept = save(&text);
        assert!(kept.dropped.is_empty(), "{:?}", kept.dropped);
        assert!(line_before(&kept.text, "        // more battalions to come").contains("(id: \"ru-akhtyrka\""));
        let lines: Vec<&str> = kept.text.lines().collect();
        let i = lines.iter().position(|l| l.contains("more battalions")).unwrap_or(0);
        assert_eq!(lines.get(i + 1), Some(&"    ],"));
    }

    #[test]
    fn a_comment_inside_a_record_written_on_one_line_goes_before_that_line() {
        let text = battle("dennewitz-1813").replacen(
            "            \"wu-1-1\", \"wu-2-1\"",
            "            // the Württembergers first\n            \"wu-1-1\", \"wu-2-1\"",
            1,
        );
        let kept = save(&text);
        assert!(kept.dropped.is_empty(), "{:?}", kept.dropped);
        assert_eq!(line_before(&kept.text, "(id: \"IV\", side: \"fr\""), "        // the Württembergers first");
        assert_eq!(read(&kept.text), read(&text));
    }

    #[test]
    fn keeping_twice_gives_the_same_text() {
        for (name, text) in BATTLES {
            let once = save(text);
            let twice = save(&once.text);
            assert!(twice.dropped.is_empty(), "{name}: {:?}", twice.dropped);
            assert_eq!(twice.text, once.text, "{name}");
            assert_eq!(collect(&twice.text), collect(&once.text), "{name}");
        }
    }

    #[test]
    fn the_editors_header_is_not_collected_and_a_file_without_comments_is_unchanged() {
        let written = to_ron(&read(battle("cascade")));
        assert!(collect(&written).is_empty());
        let kept = keep(&[], &written);
        assert_eq!(kept.text, written);
    }

    #[test]
    fn malformed_text_gives_no_panic() {
        let deep = "(".repeat(100_000);
        let texts = [
            "",
            "// only a comment",
            "/* never closed",
            "Scenario( // a\n  units: [ /* b */\n",
            "]]]) // c\n)(",
            "\"unclosed // d",
            "'",
            "r#\"",
            "x: 1 /* e \n f */ y\n// g",
            deep.as_str(),
            "\u{feff}// bom\nScenario()",
        ];
        for t in texts {
            let found = collect(t);
            for w in texts {
                let kept = keep(&found, w);
                assert!(kept.text.ends_with('\n'));
            }
        }
        // A block comment never closed is closed when put back.
        let kept = keep(&collect("Scenario()\n/* open /* twice"), "Scenario()\n");
        assert_eq!(kept.text, "Scenario()\n/* open /* twice */ */\n");
    }
}
