//! The person's photo, kept in the resume at `basics.image` as a `data:` URL, so that it travels with the
//! resume (a tailored copy, a sync folder, a JSON Resume file) and is never fetched from anywhere.
//!
//! JSON Resume's `basics.image` is a URL. Redline never follows one (it is offline, and a remote image in a
//! resume would tell a server each time it is opened); it draws only a photo whose bytes are in the URL
//! itself: a PNG or a JPEG, bounded in bytes and in pixels before anything decodes it. Anything else at
//! `basics.image` is kept as it is and not drawn, and [`of`] says why in words.

use base64::Engine as _;
use serde_json::Value;

/// Where the photo is kept.
pub const POINTER: &str = "/basics/image";

/// The longest `data:` URL drawn, in bytes: a photo Redline prepares is some 30 KB.
pub const MAX_URL_BYTES: usize = 512 * 1024;

/// The most pixels a side of a photo may have: a photo is drawn some 25 mm wide.
pub const MAX_SIDE: u32 = 4096;

/// An image format a photo may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Jpeg,
}

impl Format {
    /// The file name Typst reads the photo under.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Png => "photo.png",
            Format::Jpeg => "photo.jpg",
        }
    }

    /// The media type a `data:` URL names it by.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
        }
    }
}

/// A photo that may be drawn: its format, bytes and size in pixels, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Photo {
    pub format: Format,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Why the value at `basics.image` is not drawn, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoError {
    #[error(
        "the photo is a web address; Redline draws only a photo chosen from this computer (it never fetches one)"
    )]
    Remote,
    #[error("the photo is not a PNG or JPEG image written into the resume")]
    NotAnImage,
    #[error("the photo is {bytes} bytes; at most {limit} are drawn")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the photo is {width} × {height} pixels; at most {MAX_SIDE} a side are drawn")]
    TooManyPixels { width: u32, height: u32 },
}

/// The photo the resume keeps, if it keeps one: `Ok(None)` when `basics.image` is absent or empty, an error
/// in words when there is a value that cannot be drawn. Only the header is read to size it; nothing is
/// decoded here.
pub fn of(resume: &Value) -> Result<Option<Photo>, PhotoError> {
    let url = match resume.pointer(POINTER).and_then(Value::as_str) {
        None => return Ok(None),
        Some(url) if url.trim().is_empty() => return Ok(None),
        Some(url) => url.trim(),
    };
    from_url(url).map(Some)
}

/// The photo written in a `data:` URL.
pub fn from_url(url: &str) -> Result<Photo, PhotoError> {
    if url.len() > MAX_URL_BYTES {
        return Err(PhotoError::TooLarge {
            bytes: url.len(),
            limit: MAX_URL_BYTES,
        });
    }
    let Some(rest) = strip_prefix_ignore_case(url, "data:") else {
        return Err(match url.contains("://") || url.starts_with("www.") {
            true => PhotoError::Remote,
            false => PhotoError::NotAnImage,
        });
    };
    let (head, body) = rest.split_once(',').ok_or(PhotoError::NotAnImage)?;
    let head = head.to_ascii_lowercase();
    let (media, encoding) = head.split_once(';').ok_or(PhotoError::NotAnImage)?;
    let named = match media {
        "image/png" => Format::Png,
        "image/jpeg" | "image/jpg" => Format::Jpeg,
        _ => return Err(PhotoError::NotAnImage),
    };
    if encoding != "base64" {
        return Err(PhotoError::NotAnImage);
    }
    let body: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body)
        .map_err(|_| PhotoError::NotAnImage)?;
    checked(bytes, named)
}

/// `bytes` as a photo, once its own first bytes say it is the format it was named as and its header gives
/// a size within bounds.
fn checked(bytes: Vec<u8>, named: Format) -> Result<Photo, PhotoError> {
    let format = match imagesize::image_type(&bytes) {
        Ok(imagesize::ImageType::Png) => Format::Png,
        Ok(imagesize::ImageType::Jpeg) => Format::Jpeg,
        _ => return Err(PhotoError::NotAnImage),
    };
    if format != named {
        return Err(PhotoError::NotAnImage);
    }
    let size = imagesize::blob_size(&bytes).map_err(|_| PhotoError::NotAnImage)?;
    let (width, height) = (size.width as u64, size.height as u64);
    if width == 0 || height == 0 {
        return Err(PhotoError::NotAnImage);
    }
    if width > u64::from(MAX_SIDE) || height > u64::from(MAX_SIDE) {
        return Err(PhotoError::TooManyPixels {
            width: u32::try_from(width).unwrap_or(u32::MAX),
            height: u32::try_from(height).unwrap_or(u32::MAX),
        });
    }
    Ok(Photo {
        format,
        bytes,
        width: width as u32,
        height: height as u32,
    })
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// The photo a design draws for `resume` (every export that draws one: the PDF, a theme, the HTML): the one
/// it keeps, unless the design's `style` hides it or it cannot be drawn (a web address, an image out of
/// bounds: the Design panel says why).
pub fn drawn(resume: &Value, style: &crate::design::Style) -> Option<Photo> {
    if !style.photo {
        return None;
    }
    of(resume).ok().flatten()
}

/// `bytes` of `format` as the `data:` URL a resume keeps.
pub fn to_url(format: Format, bytes: &[u8]) -> String {
    format!(
        "data:{};base64,{}",
        format.media_type(),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// The resume as a model is shown it: a photo's bytes replaced by a few words. They are tens of thousands
/// of characters a small model's context cannot spare, and nothing a model can read.
pub fn for_model(resume: &Value) -> std::borrow::Cow<'_, Value> {
    match resume.pointer(POINTER).and_then(Value::as_str) {
        Some(url) if strip_prefix_ignore_case(url.trim(), "data:").is_some() => {
            let mut shown = resume.clone();
            if let Some(image) = shown.pointer_mut(POINTER) {
                *image = Value::String("(the person's photo, not shown)".to_owned());
            }
            std::borrow::Cow::Owned(shown)
        }
        _ => std::borrow::Cow::Borrowed(resume),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A PNG's signature and header, `width` × `height`: enough for the size to be read.
    fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        bytes.extend_from_slice(&width.to_be_bytes());
        bytes.extend_from_slice(&height.to_be_bytes());
        bytes.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
        bytes
    }

    fn with_image(url: &str) -> Value {
        json!({"basics": {"name": "Ada", "image": url}})
    }

    #[test]
    fn a_photo_written_in_the_resume_is_read_with_its_size() {
        let url = to_url(Format::Png, &png_header(300, 400));
        let photo = of(&with_image(&url)).unwrap().unwrap();
        assert_eq!(
            (photo.format, photo.width, photo.height),
            (Format::Png, 300, 400)
        );
        assert_eq!(of(&json!({"basics": {}})), Ok(None));
        assert_eq!(of(&with_image("  ")), Ok(None));
    }

    #[test]
    fn what_cannot_be_drawn_is_said_in_words() {
        assert_eq!(
            of(&with_image("https://example.com/me.jpg")),
            Err(PhotoError::Remote)
        );
        assert_eq!(
            of(&with_image("data:image/png;base64,!!!")),
            Err(PhotoError::NotAnImage)
        );
        // Named a JPEG, but its bytes are a PNG's: not drawn.
        let lying = to_url(Format::Png, &png_header(10, 10)).replace("image/png", "image/jpeg");
        assert_eq!(of(&with_image(&lying)), Err(PhotoError::NotAnImage));
        // An SVG could hold anything: only raster photos.
        assert_eq!(
            of(&with_image("data:image/svg+xml;base64,PHN2Zz4=")),
            Err(PhotoError::NotAnImage)
        );
        // A header that claims a bomb's size is refused before anything decodes it.
        let bomb = to_url(Format::Png, &png_header(100_000, 100_000));
        assert!(matches!(
            of(&with_image(&bomb)),
            Err(PhotoError::TooManyPixels { .. })
        ));
        let huge = format!("data:image/png;base64,{}", "A".repeat(MAX_URL_BYTES));
        assert!(matches!(
            of(&with_image(&huge)),
            Err(PhotoError::TooLarge { .. })
        ));
    }

    #[test]
    fn a_model_is_shown_a_few_words_for_the_photo() {
        let url = to_url(Format::Png, &png_header(3, 3));
        let resume = with_image(&url);
        let shown = for_model(&resume);
        assert_eq!(
            shown["basics"]["image"],
            json!("(the person's photo, not shown)")
        );
        assert_eq!(shown["basics"]["name"], json!("Ada"));
        let remote = with_image("https://example.com/a.png");
        assert!(matches!(for_model(&remote), std::borrow::Cow::Borrowed(_)));
    }
}
