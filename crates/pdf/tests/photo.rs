//! The person's photo (`basics.image`, a `data:` URL Redline made from a file the user chose) in every
//! design and in a theme of the user's own: drawn once, hidden when the design says so, never fetched, and
//! never in the way of an applicant-tracking system reading the text back in order.

use std::io::Cursor;
use std::path::Path;

use redline_resume::export::{Page, Template};
use serde_json::{Value, json};

mod tools;
use tools::tool;

/// A photo as the Design panel makes it from a camera's file: a 900 × 1200 picture, prepared.
fn photo_url() -> String {
    let picture = image::RgbImage::from_fn(900, 1200, |x, y| {
        image::Rgb([(x / 4 % 256) as u8, (y / 5 % 256) as u8, 90])
    });
    let mut png = Vec::new();
    image::DynamicImage::ImageRgb8(picture)
        .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    redline_pdf::photo::prepare(&png).unwrap()
}

fn sample_with(image: &str, language: &str) -> Value {
    let mut resume = redline_resume::sample();
    resume["basics"]["image"] = json!(image);
    resume["meta"] = json!({ "language": language });
    resume
}

/// How many images `pdfimages` lists in the PDF `bytes`.
fn images_in(dir: &Path, bytes: &[u8]) -> usize {
    let path = dir.join("photo.pdf");
    std::fs::write(&path, bytes).unwrap();
    // Two lines of heading, then one line an image.
    tool("pdfimages", &["-list", path.to_str().unwrap()])
        .lines()
        .skip(2)
        .count()
}

#[test]
fn every_design_draws_the_photo_once_and_still_reads_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let url = photo_url();
    for language in ["en", "ar"] {
        let resume = sample_with(&url, language);
        for template in Template::ALL {
            let what = format!("{language}/{}", template.name());
            let pdf = redline_pdf::pdf(&resume, template, Page::A4).unwrap();
            assert_eq!(images_in(dir.path(), &pdf), 1, "{what}");
            let report = redline_pdf::ats::check(&resume, template, Page::A4).unwrap();
            assert!(
                report.clean(),
                "{what}: missing {:?}, out of order {:?}",
                report.missing,
                report.out_of_order
            );
            let (with, _) = redline_pdf::page_images(&resume, template, Page::A4, 0.5).unwrap();
            let (without, _) =
                redline_pdf::page_images(&sample_with("", language), template, Page::A4, 0.5)
                    .unwrap();
            assert_ne!(with[0].png, without[0].png, "{what}: the photo shows");
        }
    }
}

#[test]
fn a_hidden_remote_or_broken_photo_is_not_drawn_and_the_export_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut hidden = sample_with(&photo_url(), "en");
    hidden["meta"]["design"] = json!({ "photo": false });
    // A web address is never fetched; bytes that are not the image they claim are not drawn.
    let remote = sample_with("https://tracker.example/pixel.png", "en");
    let broken = sample_with("data:image/jpeg;base64,/9j/AAAA", "en");
    for (what, resume) in [("hidden", hidden), ("remote", remote), ("broken", broken)] {
        for template in [Template::Classic, Template::Sidebar] {
            let pdf = redline_pdf::pdf(&resume, template, Page::A4).unwrap();
            assert_eq!(images_in(dir.path(), &pdf), 0, "{what}/{}", template.name());
        }
    }
}

#[test]
fn a_theme_of_your_own_draws_the_photo_it_is_handed() {
    let dir = tempfile::tempdir().unwrap();
    let folder = redline_pdf::theme::create(dir.path(), "mine", Template::Modern).unwrap();
    let manifest = redline_pdf::theme::Manifest::read(&folder).unwrap();
    let resume = sample_with(&photo_url(), "en");
    let request = manifest.request(&folder, &resume, Page::A4, None);
    assert!(request.photo.is_some());
    let pdf = redline_pdf::theme::render(&request).unwrap();
    assert_eq!(images_in(dir.path(), &pdf), 1);
    // The photo a request carries is checked again where the theme is laid out.
    let mut forged = manifest.request(&folder, &resume, Page::A4, None);
    forged.photo = Some("data:image/png;base64,AAAA".to_owned());
    let refused = redline_pdf::theme::render(&forged).unwrap_err();
    assert!(
        refused.to_string().contains("not a PNG or JPEG"),
        "{refused}"
    );
}
