//! Incremental JSON for streamed model output.
//!
//! Models stream JSON a few bytes at a time. Most partial-JSON libraries re-parse the whole accumulated text
//! on every chunk, which is quadratic over a stream. [`Reader`] instead resumes exactly where it stopped:
//! each [`Reader::feed`] does work proportional to the new bytes only, all the way to path-level [`Event`]s
//! and to a live partial [`serde_json::Value`] that is updated in place.
//!
//! # Layout
//! - [`reader`]: [`Reader`], the push parser: bytes in, [`Event`]s and a partial value out, plus
//!   [`Reader::completed_text`], the shortest valid JSON that closes what has been read so far.
//! - [`path`]: [`Segment`] and [`Path`], the location of an event as JSON Pointer reference tokens.
//! - [`encoder`]: [`Encoder`], the reverse direction for tests and fixtures: a sequence of JSON snapshots of a
//!   growing value becomes the chunks a model would have streamed.
//! - [`error`]: [`Error`], with the byte offset and a plain message.
//! - [`growth`]: [`is_growth`], the relation between successive partial values, and the rescanning
//!   baseline the benchmarks compare against.
//!
//! # Example
//! ```
//! use redline_stream::{Event, Reader};
//!
//! let mut reader = Reader::new();
//! let mut appended = String::new();
//! for chunk in [r#"{"summary": "Bui"#, r#"lds things"#, r#"."}"#] {
//!     reader
//!         .feed(chunk.as_bytes(), |path, event| {
//!             if let Event::StringAppend(text) = event {
//!                 assert_eq!(path.to_pointer(), "/summary");
//!                 appended.push_str(text);
//!             }
//!         })
//!         .unwrap();
//! }
//! reader.finish().unwrap();
//! assert_eq!(appended, "Builds things.");
//! assert_eq!(reader.value().unwrap()["summary"], "Builds things.");
//! ```

pub mod encoder;
pub mod error;
pub mod growth;
pub mod path;
pub mod reader;

pub use encoder::{EncodeError, Encoder, encode};
pub use error::{Error, ErrorKind};
pub use growth::is_growth;
pub use path::{Path, Segment};
pub use reader::{Event, Limits, Reader};
