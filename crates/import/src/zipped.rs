//! ZIP archives read with bounds: how many entries, how large each may inflate to, and in all. A Word file,
//! an OpenDocument file and LinkedIn's export are ZIPs; one made to inflate to gigabytes stops here.

use std::io::{Cursor, Read};

use crate::ImportError;

/// The most entries an archive may list.
const MAX_ENTRIES: usize = 10_000;

/// The most one entry may inflate to, and all of them together.
pub const MAX_ENTRY_BYTES: u64 = 32 << 20;
const MAX_TOTAL_BYTES: u64 = 128 << 20;

/// An archive opened for bounded reading.
pub struct Archive<'a> {
    zip: zip::ZipArchive<Cursor<&'a [u8]>>,
    read: u64,
}

impl<'a> Archive<'a> {
    pub fn open(bytes: &'a [u8]) -> Result<Self, ImportError> {
        let zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
            ImportError::Broken(format!("it is not a ZIP archive that can be read ({e})"))
        })?;
        if zip.len() > MAX_ENTRIES {
            return Err(ImportError::Broken(format!(
                "its archive lists {} files, more than any document has",
                zip.len()
            )));
        }
        Ok(Archive { zip, read: 0 })
    }

    /// The names of its files.
    pub fn names(&self) -> Vec<String> {
        self.zip
            .file_names()
            .filter_map(|name| name.ok().map(std::borrow::Cow::into_owned))
            .collect()
    }

    /// The file `name`, inflated, if the archive has it: an error when it inflates past the bounds.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, ImportError> {
        let Ok(mut file) = self.zip.by_name(name) else {
            return Ok(None);
        };
        let limit = MAX_ENTRY_BYTES.min(MAX_TOTAL_BYTES.saturating_sub(self.read));
        let mut out = Vec::new();
        // The size the archive declares is not trusted: the reading stops one byte past the bound.
        (&mut file)
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| ImportError::Broken(format!("{name} in it cannot be inflated ({e})")))?;
        if out.len() as u64 > limit {
            return Err(ImportError::TooLarge(format!(
                "{name} in it inflates past {} MB",
                limit >> 20
            )));
        }
        self.read += out.len() as u64;
        Ok(Some(out))
    }

    /// [`Archive::read`] as text (UTF-8, a byte-order mark dropped), not copied when it is UTF-8.
    pub fn text(&mut self, name: &str) -> Result<Option<String>, ImportError> {
        Ok(self.read(name)?.map(|bytes| {
            let mut text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            text
        }))
    }
}
