//! Where an event happened: JSON Pointer reference tokens, borrowed from the reader.

use std::fmt;

/// One step into a container: an object member's key or an array item's index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// An object member.
    Key(String),
    /// An array item.
    Index(usize),
}

/// The location of a value, from the root. Borrowed from the reader: events carry a `&Path` and no
/// allocation is made per event.
#[derive(PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Path([Segment]);

impl Path {
    /// Wraps a slice of segments.
    pub fn new(segments: &[Segment]) -> &Path {
        // SAFETY: `Path` is a `repr(transparent)` wrapper around `[Segment]`.
        unsafe { &*(segments as *const [Segment] as *const Path) }
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// How many containers deep the location is (0 for the root).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for the root.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The location as an RFC 6901 JSON Pointer (`""` for the root, `/a~1b/0` for `["a/b", 0]`).
    pub fn to_pointer(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.0 {
            f.write_str("/")?;
            match segment {
                Segment::Index(i) => write!(f, "{i}")?,
                Segment::Key(key) => {
                    for c in key.chars() {
                        match c {
                            '~' => f.write_str("~0")?,
                            '/' => f.write_str("~1")?,
                            c => fmt::Write::write_char(f, c)?,
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_escaped_json_pointers() {
        let segments = [
            Segment::Key("a/b".into()),
            Segment::Index(3),
            Segment::Key("m~n".into()),
        ];
        assert_eq!(Path::new(&segments).to_pointer(), "/a~1b/3/m~0n");
        assert_eq!(Path::new(&[]).to_pointer(), "");
    }
}
