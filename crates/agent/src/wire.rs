//! A streamed answer's server-sent events, read with a bound on every part as the bytes arrive.
//!
//! async-openai reads a stream through eventsource-stream 0.2, which holds a line, or an event of many
//! `data:` lines, with no bound, and parses its whole buffer again for every piece of the body that
//! arrives and copies what is left after every line: a server that sends `data: ` and then bytes with no
//! newline grows the process without end, and the time to read one line grows with its square (measured:
//! `cargo bench -p redline-agent --bench wire`). [`Events`] reads the same format in one pass, pulling
//! the body only as the reader asks for events:
//! - a line, an event and the whole stream each have a bound ([`MAX_LINE_BYTES`], [`MAX_EVENT_BYTES`],
//!   [`MAX_STREAM_BYTES`]), checked on each piece of the body before it is kept; past one, the stream
//!   ends with [`WireError::Overrun`], naming it;
//! - `\n`, `\r\n` and `\r` end a line; an empty line ends an event; comments (`:` lines), `id:` and
//!   `retry:` are read and dropped; a byte-order mark at the start is skipped (the WHATWG rules).
//!
//! [`Transport`] is what async-openai's retry layer sends through: reqwest, with an error's body cut short.
//!
//! The answer's content has its own limits after this (the reply, the arguments, the stabilizer's).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use async_openai::error::OpenAIError;
use async_openai::middleware::{HttpRequestFactory, ReqwestService};
use bytes::Bytes;
use futures::{Stream, StreamExt};

use crate::limits::MAX_ANSWER_BYTES;

/// The most bytes of one event (its lines together, up to the blank line that ends it): one event may carry
/// a whole answer (some servers send it in one piece) and its envelope. Read as JSON, the worst an event
/// this long can hold (a million empty objects) takes ~11 bytes of memory a byte.
pub const MAX_EVENT_BYTES: usize = MAX_ANSWER_BYTES + (64 << 10);
/// The longest line: an event of one line.
pub const MAX_LINE_BYTES: usize = MAX_EVENT_BYTES;
/// The most bytes of one streamed answer on the wire. The longest answer a model is asked for
/// (16,384 tokens, a token an event of ~250 bytes) is about 4 MB; eight times that is refused.
pub const MAX_STREAM_BYTES: usize = 32 << 20;
/// The most bytes of an error's body that are read (a server's message is a few hundred).
pub const MAX_ERROR_BYTES: usize = 64 << 10;

/// Which bound a streamed answer went past.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Overrun {
    #[error("it sent a line of over {} MB", MAX_LINE_BYTES >> 20)]
    Line,
    #[error("it sent an event of over {} MB", MAX_EVENT_BYTES >> 20)]
    Event,
    #[error("its stream went past {} MB", MAX_STREAM_BYTES >> 20)]
    Stream,
}

/// Why a stream of events ended before its end.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// It went past a bound.
    #[error(transparent)]
    Overrun(#[from] Overrun),
    /// The connection broke.
    #[error("the connection broke: {0}")]
    Broken(#[source] reqwest::Error),
}

/// One server-sent event: its type (`message` unless it said otherwise) and its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: String,
    pub data: String,
}

/// Counts a stream's lines and events as bytes arrive, before they are kept.
#[derive(Debug, Default)]
struct Framing {
    line: usize,
    event: usize,
    total: usize,
    after_cr: bool,
}

impl Framing {
    fn feed(&mut self, bytes: &[u8]) -> Result<(), Overrun> {
        self.total += bytes.len();
        if self.total > MAX_STREAM_BYTES {
            return Err(Overrun::Stream);
        }
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.after_cr && rest[0] == b'\n' {
                rest = &rest[1..];
            }
            self.after_cr = false;
            let Some(end) = memchr::memchr2(b'\n', b'\r', rest) else {
                self.text(rest.len())?;
                break;
            };
            self.text(end)?;
            if self.line == 0 {
                self.event = 0;
            }
            self.line = 0;
            self.after_cr = rest[end] == b'\r';
            rest = &rest[end + 1..];
        }
        Ok(())
    }

    /// `n` bytes of a line.
    fn text(&mut self, n: usize) -> Result<(), Overrun> {
        self.line += n;
        self.event += n;
        if self.line > MAX_LINE_BYTES {
            Err(Overrun::Line)
        } else if self.event > MAX_EVENT_BYTES {
            Err(Overrun::Event)
        } else {
            Ok(())
        }
    }
}

/// The body of a response, piece by piece.
pub type Body = Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>;

/// The events of a `text/event-stream` body, read as they are asked for.
pub struct Events {
    body: Body,
    framing: Framing,
    /// The piece of the body being read, and how far.
    piece: Bytes,
    at: usize,
    /// The line so far, when it began in an earlier piece.
    line: Vec<u8>,
    /// A `\r` ended the last line: a `\n` right after it is part of that line end.
    after_cr: bool,
    /// The event so far: its data lines (each followed by `\n`) and its type.
    data: Vec<u8>,
    kind: Vec<u8>,
    started: bool,
    ended: bool,
}

impl Events {
    /// The events of `body`.
    pub fn new(body: Body) -> Events {
        Events {
            body,
            framing: Framing::default(),
            piece: Bytes::new(),
            at: 0,
            line: Vec::new(),
            after_cr: false,
            data: Vec::new(),
            kind: Vec::new(),
            started: false,
            ended: false,
        }
    }

    /// The events of a response's body.
    pub fn of(response: reqwest::Response) -> Events {
        Events::new(Box::pin(response.bytes_stream()))
    }

    /// The next event; `None` at the end of the body (an event not ended by an empty line is dropped, as
    /// the format says). After an error, `None`.
    pub async fn next(&mut self) -> Option<Result<Event, WireError>> {
        loop {
            if self.ended {
                return None;
            }
            if let Some(event) = self.read_piece() {
                return Some(Ok(event));
            }
            match self.body.next().await {
                Some(Ok(piece)) => {
                    if let Err(overrun) = self.framing.feed(&piece) {
                        self.end();
                        return Some(Err(overrun.into()));
                    }
                    self.piece = piece;
                    self.at = 0;
                    if !self.started && !self.piece.is_empty() {
                        self.started = true;
                        if self.piece.starts_with("\u{feff}".as_bytes()) {
                            self.at = 3;
                        }
                    }
                }
                Some(Err(e)) => {
                    self.end();
                    return Some(Err(WireError::Broken(e)));
                }
                None => {
                    self.end();
                    return None;
                }
            }
        }
    }

    /// Gives up what is held: nothing more is read.
    fn end(&mut self) {
        self.ended = true;
        self.piece = Bytes::new();
        self.line = Vec::new();
        self.data = Vec::new();
    }

    /// Reads lines from the current piece up to the end of an event; what is left of a line is kept.
    fn read_piece(&mut self) -> Option<Event> {
        while self.at < self.piece.len() {
            let rest = &self.piece[self.at..];
            if std::mem::take(&mut self.after_cr) && rest[0] == b'\n' {
                self.at += 1;
                continue;
            }
            let Some(end) = memchr::memchr2(b'\n', b'\r', rest) else {
                self.line.extend_from_slice(rest);
                self.at = self.piece.len();
                break;
            };
            self.after_cr = rest[end] == b'\r';
            self.at += end + 1;
            let event = if self.line.is_empty() {
                let piece = self.piece.clone();
                self.take_line(&piece[self.at - end - 1..self.at - 1])
            } else {
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(&self.piece[self.at - end - 1..self.at - 1]);
                let event = self.take_line(&line);
                line.clear();
                self.line = line;
                event
            };
            if event.is_some() {
                return event;
            }
        }
        None
    }

    /// One whole line: a field of the event, or the empty line that ends it.
    fn take_line(&mut self, line: &[u8]) -> Option<Event> {
        if line.is_empty() {
            return self.dispatch();
        }
        let (field, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            b"event" => self.kind = value.to_vec(),
            _ => {}
        }
        None
    }

    /// The event the lines so far make; none when it has no data.
    fn dispatch(&mut self) -> Option<Event> {
        let kind = std::mem::take(&mut self.kind);
        if self.data.is_empty() {
            return None;
        }
        self.data.pop();
        let data = String::from_utf8_lossy(&self.data).into_owned();
        self.data.clear();
        Some(Event {
            kind: if kind.is_empty() {
                "message".to_owned()
            } else {
                String::from_utf8_lossy(&kind).into_owned()
            },
            data,
        })
    }
}

pub use redline_bounded::{BodyError, JsonError, MAX_JSON_VALUES, body_at_most, json};

/// Reads at most [`MAX_ERROR_BYTES`] of an error's body; the rest is never read.
pub async fn error_body(response: &mut reqwest::Response) -> Vec<u8> {
    let mut body = Vec::new();
    while body.len() < MAX_ERROR_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => body.extend_from_slice(&chunk),
            _ => break,
        }
    }
    body.truncate(MAX_ERROR_BYTES);
    body
}

/// The model client's transport: reqwest, an error's body cut to its first [`MAX_ERROR_BYTES`] before
/// anything reads it (async-openai's retry layer, above it, reads a 429's body whole).
#[derive(Clone, Debug)]
pub struct Transport {
    inner: ReqwestService,
}

impl Transport {
    /// Requests sent with `client`.
    pub fn new(client: reqwest::Client) -> Transport {
        Transport {
            inner: ReqwestService::new(client),
        }
    }
}

type Responding = Pin<Box<dyn Future<Output = Result<reqwest::Response, OpenAIError>> + Send>>;

impl tower::Service<HttpRequestFactory> for Transport {
    type Response = reqwest::Response;
    type Error = OpenAIError;
    type Future = Responding;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: HttpRequestFactory) -> Self::Future {
        let sent = self.inner.call(request);
        Box::pin(async move {
            let mut response = sent.await?;
            if response.status().is_success() {
                return Ok(response);
            }
            let status = response.status();
            let version = response.version();
            let mut headers = std::mem::take(response.headers_mut());
            headers.remove(reqwest::header::CONTENT_LENGTH);
            headers.remove(reqwest::header::TRANSFER_ENCODING);
            let mut cut = http::Response::new(reqwest::Body::from(error_body(&mut response).await));
            *cut.status_mut() = status;
            *cut.version_mut() = version;
            *cut.headers_mut() = headers;
            Ok(reqwest::Response::from(cut))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(pieces: &[&[u8]]) -> Result<(), Overrun> {
        let mut framing = Framing::default();
        pieces.iter().try_for_each(|piece| framing.feed(piece))
    }

    #[test]
    fn each_bound_is_counted_across_pieces_and_line_endings() {
        let line = vec![b'x'; MAX_LINE_BYTES / 2];
        // A line's halves in two pieces: at the bound, then one byte past it.
        assert_eq!(fed(&[b"data: ", &line[6..], &line]), Ok(()));
        assert_eq!(fed(&[b"data: ", &line[5..], &line]), Err(Overrun::Line));
        // Many short lines and no blank one: the event's bound; a blank line (LF, CRLF or CR) resets it.
        let lines: Vec<u8> = b"data: xxxxxxxxx\n".repeat(MAX_EVENT_BYTES / 15 + 1);
        assert_eq!(fed(&[&lines]), Err(Overrun::Event));
        // Half an event's bound and a bit, ending inside a line.
        let x = vec![b'x'; MAX_EVENT_BYTES / 2 - 6];
        let half = [b"data: ", &x[..], b"\ndata: x"].concat();
        for blank in [&b"\n\n"[..], b"\r\n\r\n", b"\r\r"] {
            assert_eq!(fed(&[&half, blank, &half]), Ok(()), "{blank:?}");
        }
        assert_eq!(fed(&[&half, b"\n", &half]), Err(Overrun::Event));
        // CRLF split between pieces is one line end, not an empty line.
        let mut framing = Framing::default();
        framing.feed(b"data: a\r").unwrap();
        framing.feed(b"\ndata: b").unwrap();
        assert_eq!((framing.line, framing.event), (7, 14));
        // The whole stream, however it is framed.
        let events = b"data: {}\n\n".repeat(MAX_STREAM_BYTES / 10);
        assert_eq!(fed(&[&events]), Ok(()));
        assert_eq!(fed(&[&events, b"\n\n\n"]), Err(Overrun::Stream));
    }

    /// The events of a body that arrives in `pieces`, or where they stop.
    fn events(pieces: &[&[u8]]) -> (Vec<Event>, Option<Overrun>) {
        let pieces: Vec<reqwest::Result<Bytes>> = pieces
            .iter()
            .map(|p| Ok(Bytes::copy_from_slice(p)))
            .collect();
        let mut events = Events::new(Box::pin(futures::stream::iter(pieces)));
        let mut out = Vec::new();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            while let Some(event) = events.next().await {
                match event {
                    Ok(event) => out.push(event),
                    Err(WireError::Overrun(overrun)) => return (out, Some(overrun)),
                    Err(e) => panic!("{e}"),
                }
            }
            (out, None)
        })
    }

    fn message(data: &str) -> Event {
        Event {
            kind: "message".to_owned(),
            data: data.to_owned(),
        }
    }

    #[test]
    fn events_are_read_as_the_format_says_however_the_body_is_cut() {
        let body = "\u{feff}: a comment\ndata: {\"a\":1}\r\n\r\nevent: keepalive\rdata\r\rid: 7\nretry: 10\ndata:x\ndata:  y\n\n\n\ndata: no end";
        let expected = vec![
            message(r#"{"a":1}"#),
            Event {
                kind: "keepalive".to_owned(),
                data: String::new(),
            },
            message("x\n y"),
        ];
        // Whole, then cut at every byte (a CRLF, the byte-order mark and UTF-8 split between pieces).
        assert_eq!(events(&[body.as_bytes()]), (expected.clone(), None));
        for at in 1..body.len() {
            let (a, b) = body.as_bytes().split_at(at);
            assert_eq!(events(&[a, b]), (expected.clone(), None), "cut at {at}");
        }
        let one_by_one: Vec<&[u8]> = body.as_bytes().chunks(1).collect();
        assert_eq!(events(&one_by_one), (expected, None));
        // Bytes that are not UTF-8 are read leniently; the JSON reader judges them.
        assert_eq!(events(&[b"data: \xff\n\n"]).0, vec![message("\u{fffd}")]);
    }

    #[test]
    fn a_stream_ends_at_the_first_bound_it_passes_and_holds_no_more() {
        let block = vec![b'x'; 64 << 10];
        let mut pieces: Vec<&[u8]> = vec![b"data: {}\n\ndata: "];
        pieces.extend(std::iter::repeat_n(
            &block[..],
            MAX_LINE_BYTES / block.len() + 1,
        ));
        let (read, overrun) = events(&pieces);
        assert_eq!((read, overrun), (vec![message("{}")], Some(Overrun::Line)));
        let lines = b"data: x\n".repeat(8 << 10);
        let pieces: Vec<&[u8]> =
            std::iter::repeat_n(&lines[..], MAX_EVENT_BYTES / lines.len() * 8 / 7 + 2).collect();
        assert_eq!(events(&pieces), (vec![], Some(Overrun::Event)));
        let empty = b"data: {\"choices\":[]}\n\n".repeat(4 << 10);
        let pieces: Vec<&[u8]> =
            std::iter::repeat_n(&empty[..], MAX_STREAM_BYTES / empty.len() + 1).collect();
        let (read, overrun) = events(&pieces);
        assert_eq!(overrun, Some(Overrun::Stream));
        // Every whole piece before the bound is read, none after.
        assert_eq!(read.len(), MAX_STREAM_BYTES / empty.len() * (4 << 10));
    }
}
