//! `cargo run -p redline-pdf --example pdf -- RESUME.json OUT.pdf [classic|modern] [a4|letter]`
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let resume: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&args[0]).unwrap()).unwrap();
    let template =
        redline_resume::export::Template::parse(args.get(2).map_or("classic", String::as_str))
            .unwrap();
    let page =
        redline_resume::export::Page::parse(args.get(3).map_or("a4", String::as_str)).unwrap();
    std::fs::write(&args[1], redline_pdf::pdf(&resume, template, page).unwrap()).unwrap();
}
