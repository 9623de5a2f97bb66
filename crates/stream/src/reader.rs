//! The incremental reader: a push parser whose work is proportional to the bytes fed.
//!
//! The reader is a byte-level state machine with an explicit stack (never recursion, so no input can
//! overflow the call stack). It keeps three things up to date as bytes arrive:
//! - the path of the value being read, as reusable [`Segment`]s (a key is read straight into its segment,
//!   so steady-state reading allocates nothing per event);
//! - the live partial value, a [`serde_json::Value`] into which each new piece is inserted in place: a
//!   member or item appears when its value starts, a string grows by appends, a number or literal appears
//!   only once it is complete;
//! - the text seen so far, so that [`Reader::completed_text`] costs a copy plus O(depth).

use serde_json::{Map, Number, Value};

use crate::error::{Error, ErrorKind};
use crate::path::{Path, Segment};

/// One thing the reader found. Each event comes with the [`Path`] of the value it belongs to; for
/// [`Event::Key`], the path of the object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event<'a> {
    /// An object value started (`{`).
    StartObject,
    /// An object value is complete (`}`).
    EndObject,
    /// An array value started (`[`).
    StartArray,
    /// An array value is complete (`]`).
    EndArray,
    /// An object member's key is complete; its value comes next.
    Key(&'a str),
    /// A string value started (its opening quote).
    StringStart,
    /// A string value grew by this text (decoded; never a split character).
    StringAppend(&'a str),
    /// A string value is complete (its closing quote): from now on it will not change.
    StringEnd,
    /// A number, complete.
    Number(&'a Number),
    /// `true` or `false`, complete.
    Bool(bool),
    /// `null`, complete.
    Null,
}

/// Limits that keep a hostile stream from exhausting the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The deepest nesting of objects and arrays allowed.
    pub max_depth: usize,
    /// The most bytes a stream may have.
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 512,
            max_bytes: 64 << 20,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    kind: Kind,
    /// Offset just after the last complete member or item, or after the opening bracket: where
    /// [`Reader::completed_text`] cuts when the member being read cannot be finished without inventing.
    complete_end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpInt,
}

impl Num {
    /// True when the number read so far is a whole JSON number (it may still grow).
    fn is_valid(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpInt)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lit {
    True,
    False,
    Null,
}

impl Lit {
    fn text(self) -> &'static [u8] {
        match self {
            Lit::True => b"true",
            Lit::False => b"false",
            Lit::Null => b"null",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value must come: at the start, after `:`, after `,` in an array.
    Value,
    /// After `[`: a value or `]`.
    ArrayFirst,
    /// After `{`: a key or `}`.
    ObjectFirst,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    AfterValue,
    /// The root value is complete: only whitespace may follow.
    Done,
    /// Inside a string (a key when `in_key`).
    Str,
    /// After `\` in a string.
    Escape,
    /// Inside `\uXXXX`, after this many hex digits.
    Hex(u8),
    /// After a high-surrogate escape: `\` must follow…
    SurrogateBackslash,
    /// …then `u`.
    SurrogateU,
    /// Inside a number.
    Number(Num),
    /// Inside `true`, `false` or `null`, before the byte at this position.
    Literal(Lit, u8),
    /// A previous error; every call returns it again.
    Failed,
}

/// Bytes that end a run of plain string content: the quote, the backslash and control characters.
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// An incremental JSON reader. Feed it bytes as they arrive, in chunks split anywhere; read the partial
/// value at any time; [`finish`](Reader::finish) at the end of the stream.
pub struct Reader {
    limits: Limits,
    state: State,
    frames: Vec<Frame>,
    /// `path[i]` is the current member of `frames[i]`. Slots past `frames.len()` are kept for reuse.
    path: Vec<Segment>,
    root: Option<Value>,
    /// Everything fed so far.
    text: Vec<u8>,
    error: Option<Error>,
    in_key: bool,
    /// Decoded text of the current value string that the partial value has not received yet.
    scratch: String,
    /// An incomplete UTF-8 sequence at the end of the last chunk.
    utf8: [u8; 4],
    utf8_len: u8,
    hex: u32,
    /// A high surrogate waiting for its low half.
    high: Option<u32>,
    /// Offset of the `\` that began the escape being read (the high surrogate's, while one waits).
    escape_start: usize,
    num: String,
    num_start: usize,
    /// Offset just after the longest prefix of the current number that is a whole number.
    num_valid_end: usize,
    deepest: usize,
    /// False for a reader that only reports events (see [`Reader::events_only`]).
    build_value: bool,
}

impl Default for Reader {
    fn default() -> Self {
        Reader::new()
    }
}

impl Reader {
    /// A reader with the default [`Limits`].
    pub fn new() -> Reader {
        Reader::with_limits(Limits::default())
    }

    /// A reader with the given limits.
    pub fn with_limits(limits: Limits) -> Reader {
        Reader {
            limits,
            state: State::Value,
            frames: Vec::new(),
            path: Vec::new(),
            root: None,
            text: Vec::new(),
            error: None,
            in_key: false,
            scratch: String::new(),
            utf8: [0; 4],
            utf8_len: 0,
            hex: 0,
            high: None,
            escape_start: 0,
            num: String::new(),
            num_start: 0,
            num_valid_end: 0,
            deepest: 0,
            build_value: true,
        }
    }

    /// A reader that reports events (and checks the text) but keeps no partial value.
    ///
    /// Keeping the partial value costs O(depth) per value that starts (the reader walks down to the
    /// container being filled), which the default depth limit keeps small. A reader allowed very deep
    /// nesting that only needs to validate or to watch events does O(1) work per byte this way.
    pub fn events_only(mut self) -> Reader {
        self.build_value = false;
        self
    }

    /// The limits this reader enforces.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The partial value: everything read so far that is certain. `None` until the root value starts.
    pub fn value(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    /// Takes the partial value out of the reader.
    pub fn into_value(mut self) -> Option<Value> {
        self.root.take()
    }

    /// How many bytes have been fed.
    pub fn offset(&self) -> usize {
        self.text.len()
    }

    /// The text fed so far.
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// True once the root value is complete.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// The path of the value being read: the innermost container's current member (empty at the root).
    pub fn path(&self) -> &Path {
        Path::new(&self.path[..self.frames.len()])
    }

    /// Feeds the next bytes of the stream, calling `sink` with each event found.
    pub fn feed<F>(&mut self, bytes: &[u8], mut sink: F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        if self.text.len() + bytes.len() > self.limits.max_bytes {
            let offset = self.limits.max_bytes;
            return Err(self.fail(offset, ErrorKind::TooLarge(self.limits.max_bytes)));
        }
        let base = self.text.len();
        self.text.extend_from_slice(bytes);
        let result = self.run(bytes, base, &mut sink);
        if result.is_ok() {
            self.flush_text(&mut sink);
        }
        result
    }

    /// Feeds bytes without looking at the events.
    pub fn feed_quiet(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.feed(bytes, |_, _| {})
    }

    /// Ends the stream: `Ok` if it held exactly one whole JSON value, an [`ErrorKind::Incomplete`] error if
    /// it stopped early, or the error already found.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.finish_with(|_, _| {})
    }

    /// [`finish`](Reader::finish), calling `sink` with the last event (a number at the root is only
    /// known to be complete when the stream ends).
    pub fn finish_with<F>(&mut self, mut sink: F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        let end = self.text.len();
        let incomplete = match self.state {
            State::Done => return Ok(()),
            State::Number(num) if self.frames.is_empty() && num.is_valid() => {
                return self.end_number(end, &mut sink);
            }
            State::Value if self.frames.is_empty() => "before any JSON value",
            State::Str
            | State::Escape
            | State::Hex(_)
            | State::SurrogateBackslash
            | State::SurrogateU => "inside a string",
            State::Number(_) => "inside a number",
            State::Literal(..) => "inside a literal",
            _ => "before every object and array was closed",
        };
        Err(self.fail(end, ErrorKind::Incomplete(incomplete)))
    }

    /// The shortest valid JSON text that closes what has been read: the text so far, less any piece that
    /// cannot be finished without inventing content (a dangling comma, a key without its value, half an
    /// escape, an unfinished number such as `-` or `2.`), plus the closing quotes, literal letters and
    /// brackets. `None` before the root value starts, or after an error.
    ///
    /// It costs one copy of the text plus O(depth): nothing is parsed again.
    pub fn completed_text(&self) -> Option<String> {
        if self.error.is_some() {
            return None;
        }
        let innermost_cut = self.frames.last().map(|f| f.complete_end);
        let mut tail = String::new();
        let cut = match self.state {
            State::Done | State::AfterValue | State::ArrayFirst | State::ObjectFirst => {
                self.text.len()
            }
            State::Str
            | State::Escape
            | State::Hex(_)
            | State::SurrogateBackslash
            | State::SurrogateU
                if self.in_key =>
            {
                innermost_cut?
            }
            State::Str if self.high.is_none() => {
                tail.push('"');
                self.text.len() - self.utf8_len as usize
            }
            State::Str
            | State::Escape
            | State::Hex(_)
            | State::SurrogateBackslash
            | State::SurrogateU => {
                tail.push('"');
                self.escape_start
            }
            State::Key | State::Colon | State::Value => innermost_cut?,
            // An open number stays if its longest whole prefix is a number serde_json can represent
            // (`1e999` is well formed but out of range).
            State::Number(_)
                if self.num_valid_end > self.num_start
                    && parse_number(&self.num[..self.num_valid_end - self.num_start]).is_some() =>
            {
                self.num_valid_end
            }
            State::Number(_) => innermost_cut?,
            State::Literal(lit, pos) => {
                let rest = &lit.text()[pos as usize..];
                tail.push_str(std::str::from_utf8(rest).unwrap_or_default());
                self.text.len()
            }
            State::Failed => return None,
        };
        for frame in self.frames.iter().rev() {
            tail.push(if frame.kind == Kind::Object { '}' } else { ']' });
        }
        let mut out = String::from_utf8(self.text[..cut].to_vec()).ok()?;
        out.push_str(&tail);
        Some(out)
    }

    fn fail(&mut self, offset: usize, kind: ErrorKind) -> Error {
        let err = Error { offset, kind };
        self.error = Some(err.clone());
        self.state = State::Failed;
        err
    }

    fn invalid(&mut self, offset: usize, message: impl Into<String>) -> Error {
        self.fail(offset, ErrorKind::Invalid(message.into()))
    }

    fn unexpected(&mut self, offset: usize, byte: u8, expected: &str) -> Error {
        let found = match byte {
            b' '..=b'~' => format!("'{}'", byte as char),
            _ => format!("byte 0x{byte:02x}"),
        };
        self.invalid(offset, format!("unexpected {found}, expected {expected}"))
    }

    /// The state machine. `base` is the stream offset of `input[0]`. Each state reads from `input[i]` on
    /// and says where the next state starts reading.
    fn run<F>(&mut self, input: &[u8], base: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let n = input.len();
        let mut i = 0;
        while i < n {
            let at = base + i;
            i = match self.state {
                State::Str => self.string(input, i, base, sink)?,
                State::Escape => self.escape(input[i], at).map(|()| i + 1)?,
                State::Hex(count) => self.hex_digit(input[i], count, at).map(|()| i + 1)?,
                State::SurrogateBackslash | State::SurrogateU => {
                    self.surrogate(input[i], at).map(|()| i + 1)?
                }
                // A byte that ends a number is read again in the state after the value.
                State::Number(num) => match self.number(input[i], num, at, sink)? {
                    true => i + 1,
                    false => i,
                },
                State::Literal(lit, pos) => {
                    self.literal(input[i], lit, pos, at, sink).map(|()| i + 1)?
                }
                // Structural states: whitespace is skipped in all of them.
                _ if matches!(input[i], b' ' | b'\t' | b'\n' | b'\r') => i + 1,
                _ => self.structural(input[i], at, sink).map(|()| i + 1)?,
            };
        }
        Ok(())
    }

    /// In a string (or a key), from `input[i]`: the run of plain content up to a quote, a backslash or a
    /// control byte, handed over at once (the hot loop: most bytes of a model's output are such runs),
    /// then that byte.
    #[inline]
    fn string<F>(
        &mut self,
        input: &[u8],
        mut i: usize,
        base: usize,
        sink: &mut F,
    ) -> Result<usize, Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let n = input.len();
        let start = i;
        let mut high_bits = 0u8;
        while i < n && !STRING_STOP[input[i] as usize] {
            high_bits |= input[i];
            i += 1;
        }
        if i > start {
            let run = &input[start..i];
            if high_bits < 0x80 && self.utf8_len == 0 {
                // All ASCII: already valid UTF-8, no need to ask `from_utf8`.
                // SAFETY: every byte of `run` is below 0x80.
                self.push_str(unsafe { std::str::from_utf8_unchecked(run) });
            } else {
                self.take_run(run, base + start)?;
            }
        }
        if i == n {
            return Ok(n);
        }
        let at = base + i;
        if self.utf8_len > 0 {
            return Err(self.invalid(at, "invalid UTF-8 in a string"));
        }
        match input[i] {
            b'"' => self.end_string(at, sink),
            b'\\' => {
                if self.high.is_none() {
                    self.escape_start = at;
                }
                self.state = State::Escape;
            }
            byte => {
                return Err(self.invalid(
                    at,
                    format!("control character 0x{byte:02x} in a string (it must be escaped)"),
                ));
            }
        }
        Ok(i + 1)
    }

    /// The byte after a backslash in a string.
    #[inline]
    fn escape(&mut self, byte: u8, at: usize) -> Result<(), Error> {
        let decoded = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                self.hex = 0;
                self.state = State::Hex(0);
                return Ok(());
            }
            byte => {
                return Err(self.unexpected(
                    at,
                    byte,
                    "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)",
                ));
            }
        };
        if self.high.is_some() {
            return Err(self.invalid(
                at,
                "a high surrogate escape is not followed by its low half",
            ));
        }
        self.push_char(decoded);
        self.state = State::Str;
        Ok(())
    }

    /// Digit `count` (from 0) of a `\u` escape.
    #[inline]
    fn hex_digit(&mut self, byte: u8, count: u8, at: usize) -> Result<(), Error> {
        let digit = match byte {
            b @ b'0'..=b'9' => b - b'0',
            b @ b'a'..=b'f' => b - b'a' + 10,
            b @ b'A'..=b'F' => b - b'A' + 10,
            byte => {
                return Err(self.unexpected(at, byte, "a hex digit in a \\u escape"));
            }
        };
        self.hex = self.hex * 16 + u32::from(digit);
        if count < 3 {
            self.state = State::Hex(count + 1);
            Ok(())
        } else {
            self.end_unicode_escape(at)
        }
    }

    /// The `\` or the `u` of the low half that must follow a high surrogate escape.
    #[inline]
    fn surrogate(&mut self, byte: u8, at: usize) -> Result<(), Error> {
        let (wanted, next) = if self.state == State::SurrogateBackslash {
            (b'\\', State::SurrogateU)
        } else {
            (b'u', State::Hex(0))
        };
        if byte != wanted {
            return Err(self.invalid(
                at,
                "a high surrogate escape is not followed by its low half",
            ));
        }
        self.hex = 0;
        self.state = next;
        Ok(())
    }

    /// A byte in a number: true if it belongs to it, false if it ended it (then it is read again).
    #[inline]
    fn number<F>(&mut self, byte: u8, num: Num, at: usize, sink: &mut F) -> Result<bool, Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let next = match (num, byte) {
            (Num::Minus, b'0') => Num::Zero,
            (Num::Minus, b'1'..=b'9') => Num::Int,
            (Num::Int, b'0'..=b'9') => Num::Int,
            (Num::Zero | Num::Int, b'.') => Num::Dot,
            (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
            (Num::Exp, b'+' | b'-') => Num::ExpSign,
            (Num::Exp | Num::ExpSign | Num::ExpInt, b'0'..=b'9') => Num::ExpInt,
            (Num::Zero, b'0'..=b'9') => {
                return Err(self.invalid(at, "a number may not have a leading zero"));
            }
            (num, _) if num.is_valid() => {
                self.end_number(at, sink)?;
                return Ok(false);
            }
            (_, byte) => return Err(self.unexpected(at, byte, "a digit")),
        };
        self.num.push(byte as char);
        if next.is_valid() {
            self.num_valid_end = at + 1;
        }
        self.state = State::Number(next);
        Ok(true)
    }

    /// Byte `pos` of `true`, `false` or `null`.
    #[inline]
    fn literal<F>(
        &mut self,
        byte: u8,
        lit: Lit,
        pos: u8,
        at: usize,
        sink: &mut F,
    ) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let text = lit.text();
        if byte != text[pos as usize] {
            let word = std::str::from_utf8(text).unwrap_or_default();
            return Err(self.unexpected(at, byte, &format!("the literal `{word}`")));
        }
        if pos as usize + 1 < text.len() {
            self.state = State::Literal(lit, pos + 1);
            return Ok(());
        }
        let (value, event) = match lit {
            Lit::True => (Value::Bool(true), Event::Bool(true)),
            Lit::False => (Value::Bool(false), Event::Bool(false)),
            Lit::Null => (Value::Null, Event::Null),
        };
        sink(self.path(), event);
        self.insert(value, at)?;
        self.value_done(at + 1);
        Ok(())
    }

    /// A byte that is not whitespace between values, keys and brackets.
    #[inline]
    fn structural<F>(&mut self, byte: u8, at: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        match self.state {
            State::Value => self.begin_value(byte, at, sink)?,
            State::ArrayFirst if byte == b']' => self.close(Kind::Array, at, sink),
            State::ArrayFirst => self.begin_value(byte, at, sink)?,
            State::ObjectFirst | State::Key => self.key_or_close(byte, at, sink)?,
            State::Colon if byte == b':' => self.state = State::Value,
            State::Colon => return Err(self.unexpected(at, byte, "':' after a key")),
            State::AfterValue => self.after_value(byte, at, sink)?,
            State::Done => return Err(self.unexpected(at, byte, "nothing after the JSON value")),
            State::Failed => {
                return Err(self.error.clone().unwrap_or(Error {
                    offset: at,
                    kind: ErrorKind::Invalid("the reader failed earlier".into()),
                }));
            }
            State::Str
            | State::Escape
            | State::Hex(_)
            | State::SurrogateBackslash
            | State::SurrogateU
            | State::Number(_)
            | State::Literal(..) => unreachable!("read by their own states"),
        }
        Ok(())
    }

    /// Where an object's key may start (or, first, the object close).
    fn key_or_close<F>(&mut self, byte: u8, at: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        match byte {
            b'"' => {
                self.in_key = true;
                match &mut self.path[self.frames.len() - 1] {
                    Segment::Key(key) => key.clear(),
                    slot => *slot = Segment::Key(String::new()),
                }
                self.state = State::Str;
            }
            b'}' if self.state == State::ObjectFirst => self.close(Kind::Object, at, sink),
            byte if self.state == State::ObjectFirst => {
                return Err(self.unexpected(at, byte, "a key or '}'"));
            }
            byte => return Err(self.unexpected(at, byte, "a key after ','")),
        }
        Ok(())
    }

    /// After a value inside an array or an object: a comma, or the close.
    fn after_value<F>(&mut self, byte: u8, at: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let depth = self.frames.len();
        let kind = self.frames[depth - 1].kind;
        match (kind, byte) {
            (Kind::Array, b',') => {
                if let Segment::Index(index) = &mut self.path[depth - 1] {
                    *index += 1;
                }
                self.state = State::Value;
            }
            (Kind::Object, b',') => self.state = State::Key,
            (Kind::Array, b']') => self.close(Kind::Array, at, sink),
            (Kind::Object, b'}') => self.close(Kind::Object, at, sink),
            (Kind::Array, byte) => return Err(self.unexpected(at, byte, "',' or ']'")),
            (Kind::Object, byte) => return Err(self.unexpected(at, byte, "',' or '}'")),
        }
        Ok(())
    }

    fn begin_value<F>(&mut self, byte: u8, at: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        match byte {
            b'{' => self.open(Kind::Object, at, sink),
            b'[' => self.open(Kind::Array, at, sink),
            b'"' => {
                self.insert(Value::String(String::new()), at)?;
                sink(self.path(), Event::StringStart);
                self.in_key = false;
                self.state = State::Str;
                Ok(())
            }
            b'-' | b'0'..=b'9' => {
                self.num.clear();
                self.num.push(byte as char);
                self.num_start = at;
                let num = match byte {
                    b'-' => Num::Minus,
                    b'0' => Num::Zero,
                    _ => Num::Int,
                };
                self.num_valid_end = if num.is_valid() { at + 1 } else { at };
                self.state = State::Number(num);
                Ok(())
            }
            b't' => {
                self.state = State::Literal(Lit::True, 1);
                Ok(())
            }
            b'f' => {
                self.state = State::Literal(Lit::False, 1);
                Ok(())
            }
            b'n' => {
                self.state = State::Literal(Lit::Null, 1);
                Ok(())
            }
            byte => Err(self.unexpected(at, byte, "a JSON value")),
        }
    }

    fn open<F>(&mut self, kind: Kind, at: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let depth = self.frames.len();
        if depth >= self.limits.max_depth {
            return Err(self.fail(at, ErrorKind::TooDeep(self.limits.max_depth)));
        }
        let (value, event) = match kind {
            Kind::Object => (Value::Object(Map::new()), Event::StartObject),
            Kind::Array => (Value::Array(Vec::new()), Event::StartArray),
        };
        self.insert(value, at)?;
        sink(self.path(), event);
        self.frames.push(Frame {
            kind,
            complete_end: at + 1,
        });
        self.deepest = self.deepest.max(depth + 1);
        let first = match kind {
            Kind::Object => Segment::Key(String::new()),
            Kind::Array => Segment::Index(0),
        };
        match self.path.get_mut(depth) {
            // Reuse the slot (and a key's allocation) left by an earlier container at this depth.
            Some(Segment::Key(key)) if kind == Kind::Object => key.clear(),
            Some(slot) => *slot = first,
            None => self.path.push(first),
        }
        self.state = match kind {
            Kind::Object => State::ObjectFirst,
            Kind::Array => State::ArrayFirst,
        };
        Ok(())
    }

    fn close<F>(&mut self, kind: Kind, at: usize, sink: &mut F)
    where
        F: FnMut(&Path, Event<'_>),
    {
        self.frames.pop();
        let event = match kind {
            Kind::Object => Event::EndObject,
            Kind::Array => Event::EndArray,
        };
        sink(self.path(), event);
        self.value_done(at + 1);
    }

    /// A value ending just before offset `end` is complete.
    fn value_done(&mut self, end: usize) {
        match self.frames.last_mut() {
            None => self.state = State::Done,
            Some(frame) => {
                frame.complete_end = end;
                self.state = State::AfterValue;
            }
        }
    }

    fn end_string<F>(&mut self, at: usize, sink: &mut F)
    where
        F: FnMut(&Path, Event<'_>),
    {
        if self.in_key {
            self.in_key = false;
            let depth = self.frames.len();
            if let Segment::Key(key) = &self.path[depth - 1] {
                sink(Path::new(&self.path[..depth - 1]), Event::Key(key));
            }
            self.state = State::Colon;
        } else {
            self.flush_text(sink);
            sink(self.path(), Event::StringEnd);
            self.value_done(at + 1);
        }
    }

    fn end_number<F>(&mut self, at: usize, sink: &mut F) -> Result<(), Error>
    where
        F: FnMut(&Path, Event<'_>),
    {
        let Some(number) = parse_number(&self.num) else {
            let message = format!("the number {} is out of range", self.num);
            return Err(self.invalid(self.num_start, message));
        };
        sink(self.path(), Event::Number(&number));
        self.insert(Value::Number(number), at)?;
        self.value_done(at);
        Ok(())
    }

    fn end_unicode_escape(&mut self, at: usize) -> Result<(), Error> {
        let code = self.hex;
        let decoded = match (self.high.take(), code) {
            (Some(high), 0xDC00..=0xDFFF) => 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00),
            (Some(_), _) => {
                return Err(self.invalid(
                    at,
                    "a high surrogate escape is not followed by its low half",
                ));
            }
            (None, 0xD800..=0xDBFF) => {
                // Wait for the low half: half a character is never shown.
                self.high = Some(code);
                self.state = State::SurrogateBackslash;
                return Ok(());
            }
            (None, 0xDC00..=0xDFFF) => {
                return Err(self.invalid(at, "a low surrogate escape without a high one before it"));
            }
            (None, code) => code,
        };
        match char::from_u32(decoded) {
            Some(c) => self.push_char(c),
            None => return Err(self.invalid(at, "a \\u escape that is not a character")),
        }
        self.state = State::Str;
        Ok(())
    }

    /// Takes a run of plain string bytes, which may begin or end in the middle of a UTF-8 sequence.
    fn take_run(&mut self, mut bytes: &[u8], mut at: usize) -> Result<(), Error> {
        if self.utf8_len > 0 {
            let width = utf8_width(self.utf8[0]);
            let have = self.utf8_len as usize;
            let take = (width - have).min(bytes.len());
            self.utf8[have..have + take].copy_from_slice(&bytes[..take]);
            self.utf8_len += take as u8;
            let sequence = &self.utf8[..self.utf8_len as usize];
            match std::str::from_utf8(sequence) {
                Ok(s) => {
                    let mut buf = [0u8; 4];
                    let len = s.len();
                    buf[..len].copy_from_slice(s.as_bytes());
                    self.utf8_len = 0;
                    self.push_str(std::str::from_utf8(&buf[..len]).unwrap_or_default());
                }
                Err(e) if e.error_len().is_none() => {}
                Err(_) => {
                    let offset = at - have;
                    return Err(self.invalid(offset, "invalid UTF-8 in a string"));
                }
            }
            bytes = &bytes[take..];
            at += take;
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => self.push_str(s),
            Err(e) => {
                let valid = e.valid_up_to();
                // SAFETY: `from_utf8` has just checked that `bytes[..valid]` is UTF-8.
                self.push_str(unsafe { std::str::from_utf8_unchecked(&bytes[..valid]) });
                if e.error_len().is_some() {
                    return Err(self.invalid(at + valid, "invalid UTF-8 in a string"));
                }
                let tail = &bytes[valid..];
                self.utf8[..tail.len()].copy_from_slice(tail);
                self.utf8_len = tail.len() as u8;
            }
        }
        Ok(())
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.push_str(c.encode_utf8(&mut buf));
    }

    /// Decoded string text goes to the key being read, or waits in `scratch` for the partial value.
    fn push_str(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if self.in_key {
            if let Some(Segment::Key(key)) = self.path.get_mut(self.frames.len() - 1) {
                key.push_str(s);
            }
        } else {
            self.scratch.push_str(s);
        }
    }

    /// Hands the text decoded since the last flush to the partial value and to the sink, once per feed
    /// (and at the string's end): one navigation and one event however the text arrived.
    fn flush_text<F>(&mut self, sink: &mut F)
    where
        F: FnMut(&Path, Event<'_>),
    {
        if self.scratch.is_empty() {
            return;
        }
        let depth = self.frames.len();
        if self.build_value
            && let Some(Value::String(s)) = navigate(&mut self.root, &self.path[..depth])
        {
            s.push_str(&self.scratch);
        }
        sink(
            Path::new(&self.path[..depth]),
            Event::StringAppend(&self.scratch),
        );
        self.scratch.clear();
    }

    /// Puts a value that has just started into the partial value, where the path says.
    fn insert(&mut self, value: Value, at: usize) -> Result<(), Error> {
        if !self.build_value {
            return Ok(());
        }
        let depth = self.frames.len();
        if depth == 0 {
            self.root = Some(value);
            return Ok(());
        }
        let parent = navigate(&mut self.root, &self.path[..depth - 1]);
        match (parent, &self.path[depth - 1]) {
            (Some(Value::Object(map)), Segment::Key(key)) => {
                // A repeated key replaces the earlier member (as serde_json does); it moves to the end so
                // that the member being read is always the last one.
                map.remove(key.as_str());
                map.insert(key.clone(), value);
                Ok(())
            }
            (Some(Value::Array(items)), Segment::Index(_)) => {
                items.push(value);
                Ok(())
            }
            _ => Err(self.invalid(at, "internal error: the partial value lost its place")),
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        // serde_json drops values recursively; take a deeply nested one apart iteratively instead, so that
        // even a reader allowed very deep nesting cannot overflow the stack when it goes away.
        if self.deepest > 128
            && let Some(root) = self.root.take()
        {
            let mut stack = vec![root];
            while let Some(value) = stack.pop() {
                match value {
                    Value::Array(items) => stack.extend(items),
                    Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
                    _ => {}
                }
            }
        }
    }
}

/// The value at `path` below `root`: the current member of each container on the way down.
///
/// Hot path (once per feed while a string grows): the member being read is always the *last* one of its
/// container — items are appended, and `insert` moves a repeated key to the end — so each step is O(1),
/// with no hashing of keys. This relies on serde_json's `preserve_order` (an insertion-ordered map), which
/// this crate's manifest turns on.
fn navigate<'v>(root: &'v mut Option<Value>, path: &[Segment]) -> Option<&'v mut Value> {
    let mut node = root.as_mut()?;
    for segment in path {
        node = match (node, segment) {
            (Value::Object(map), Segment::Key(_)) => map.values_mut().next_back()?,
            (Value::Array(items), Segment::Index(_)) => items.last_mut()?,
            _ => return None,
        };
    }
    Some(node)
}

/// How many bytes the UTF-8 sequence starting with `lead` has.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// A JSON number, as serde_json reads it: a `u64` or `i64` where it fits, else an `f64`.
fn parse_number(text: &str) -> Option<Number> {
    let plain = !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
    if plain && !text.starts_with('-') {
        if let Ok(n) = text.parse::<u64>() {
            return Some(n.into());
        }
    } else if plain
        && text != "-0"
        && let Ok(n) = text.parse::<i64>()
    {
        return Some(n.into());
    }
    serde_json::from_str::<Number>(text).ok()
}

#[cfg(test)]
mod tests;
