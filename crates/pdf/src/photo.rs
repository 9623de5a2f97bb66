//! A photo the user chose made into one a resume keeps ([`prepare`]); [`redline_resume::photo`] keeps,
//! bounds and picks the photo a design draws.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder as _, ImageReader, Limits};
use redline_resume::photo::Format;

use crate::PdfError;

/// The largest file a photo is made from: a camera's JPEG is a few megabytes.
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// The longest side of a photo as a resume keeps it, in pixels: 26 mm at 300 dpi, a design draws it at most
/// 25 mm wide.
pub const KEPT_SIDE: u32 = 320;

/// A photo file's bytes (PNG, JPEG, WebP or GIF, as a camera or a screenshot makes it) as the `data:` URL a
/// resume keeps: turned upright as its EXIF says, scaled to at most [`KEPT_SIDE`] pixels a side and saved as
/// a JPEG, some 20–40 KB. A file that is not an image, or whose header claims more than 16,384 pixels a
/// side or 512 MB to decode, is refused in words before it is decoded.
pub fn prepare(bytes: &[u8]) -> Result<String, PdfError> {
    let unreadable =
        |e: image::ImageError| PdfError(format!("the file is not a photo that can be read: {e}"));
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PdfError(format!("the file could not be read: {e}")))?;
    if reader.format().is_none() {
        return Err(PdfError(
            "the file is not a photo: choose a JPEG, PNG, WebP or GIF image".to_owned(),
        ));
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(16_384);
    limits.max_image_height = Some(16_384);
    limits.max_alloc = Some(512 << 20);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(unreadable)?;
    let orientation = decoder.orientation().map_err(unreadable)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(unreadable)?;
    image.apply_orientation(orientation);
    let image = image.thumbnail(KEPT_SIDE, KEPT_SIDE).into_rgb8();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 88)
        .encode_image(&image)
        .map_err(|e| PdfError(format!("the photo could not be saved: {e}")))?;
    Ok(redline_resume::photo::to_url(Format::Jpeg, &jpeg))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera-sized photo becomes a small upright JPEG that the resume keeps and a design draws.
    #[test]
    fn a_chosen_photo_is_kept_small_as_a_jpeg() {
        let big = image::RgbImage::from_fn(1200, 1600, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        });
        let mut png = Vec::new();
        DynamicImage::ImageRgb8(big)
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let url = prepare(&png).unwrap();
        assert!(url.starts_with("data:image/jpeg;base64,"));
        assert!(url.len() < 64 * 1024, "{} bytes", url.len());
        let photo = redline_resume::photo::from_url(&url).unwrap();
        assert_eq!((photo.width, photo.height), (240, 320));
    }

    /// Not an image, or an image whose header claims a bomb's size: refused in words, nothing decoded.
    #[test]
    fn what_is_not_a_photo_is_refused_in_words() {
        let refused = prepare(b"%PDF-1.7 not a photo").unwrap_err();
        assert!(refused.to_string().contains("not a photo"), "{refused}");
        let mut bomb = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        bomb.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
        let refused = prepare(&bomb).unwrap_err();
        assert!(
            refused.to_string().contains("cannot be read")
                || refused.to_string().contains("can be read"),
            "{refused}"
        );
    }
}
