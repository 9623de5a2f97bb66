//! Links in exports: a target is a link only when it is one well-formed `https:`, `http:` or `mailto:` URL
//! (outline::safe_href); anything else is shown as text. The Markdown export is read back by pandoc's
//! CommonMark reader, for every field that becomes a link: a URL field holding a newline and a second link
//! (`https://a.example/\n[x](javascript:alert(1))`) once exported a `javascript:` link.

use std::io::Write;
use std::process::{Command, Stdio};

use redline_resume::export;
use redline_resume::outline::{outline, safe_href};
use redline_resume::words::SECTIONS;
use serde_json::{Value, json};

#[test]
fn only_one_well_formed_web_or_mail_url_is_a_link() {
    for (target, want) in [
        (
            "https://piedpiper.example",
            Some("https://piedpiper.example"),
        ),
        (
            "  https://piedpiper.example/a?b=c#d ",
            Some("https://piedpiper.example/a?b=c#d"),
        ),
        (
            "HTTP://PiedPiper.example/",
            Some("http://piedpiper.example/"),
        ),
        (
            "mailto:richard@piedpiper.example",
            Some("mailto:richard@piedpiper.example"),
        ),
        // Not ASCII: written as the URL parser writes it, so that no reader sees two targets.
        ("https://例え.jp/ü", Some("https://xn--r8jz45g.jp/%C3%BC")),
        ("https://a.example/x<y>", Some("https://a.example/x%3Cy%3E")),
        // A mail link keeps a subject, a body and a copy; never an attachment or a blind copy.
        (
            "mailto:r@p.example?subject=Hi&attach=/etc/passwd&BCC=x@evil.example&body=Yo",
            Some("mailto:r@p.example?subject=Hi&body=Yo"),
        ),
        (
            "mailto:r@p.example?attach=~/.ssh/id_rsa",
            Some("mailto:r@p.example"),
        ),
        ("https://a.example/\n[x](javascript:alert(1))", None),
        ("https://a.example/ x", None),
        ("https://a.example/\u{1b}]52;c;aGk=\u{7}", None),
        ("javascript:alert(1)", None),
        ("JaVaScRiPt:alert(1)", None),
        ("data:text/html,<script>alert(1)</script>", None),
        ("file:///etc/passwd", None),
        ("https://", None),
        ("http:/no-host", Some("http://no-host/")),
        ("mailto:a<b>@x.example", None),
        ("piedpiper.example", None),
    ] {
        assert_eq!(safe_href(target).as_deref(), want, "{target:?}");
    }
    let long = format!(
        "https://a.example/{}",
        "a".repeat(redline_resume::outline::MAX_HREF)
    );
    assert_eq!(safe_href(&long), None, "longer than MAX_HREF");
}

/// A resume with `url` in every field that becomes a link: the site and the e-mail, a profile, and an
/// entry of every section.
fn with_every_link(url: &str) -> Value {
    let mut resume = json!({
        "basics": {
            "name": "Richard Hendriks",
            "email": format!("r@p.example?x={url}"),
            "url": url,
            "profiles": [{"network": "GitHub", "username": "rh", "url": url}]
        }
    });
    for section in SECTIONS {
        resume[section] = json!([{
            "name": format!("{section} entry"), "title": format!("{section} entry"),
            "institution": format!("{section} entry"), "organization": format!("{section} entry"),
            "position": "Entry", "language": "Entry", "url": url
        }]);
    }
    resume
}

/// Every link target in `markdown`, as pandoc's CommonMark reader finds it.
fn pandoc_links(markdown: &str) -> Vec<String> {
    let mut child = Command::new("pandoc")
        .args(["--from", "commonmark", "--to", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pandoc is not installed: run scripts/setup.sh --test (or apt-get install pandoc)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(markdown.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "pandoc could not read the export");
    let ast: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut links = Vec::new();
    collect_links(&ast, &mut links);
    links
}

fn collect_links(node: &Value, links: &mut Vec<String>) {
    match node {
        Value::Object(o) => {
            if o.get("t").and_then(Value::as_str) == Some("Link")
                && let Some(target) = o["c"][2][0].as_str()
            {
                links.push(target.to_owned());
            }
            o.values().for_each(|v| collect_links(v, links));
        }
        Value::Array(a) => a.iter().for_each(|v| collect_links(v, links)),
        _ => {}
    }
}

#[test]
fn markdown_links_read_back_by_pandoc_are_only_the_safe_ones() {
    // A good URL is a link in every field: the test can tell a link from text.
    let resume = with_every_link("https://piedpiper.example/a");
    let (header, sections) = outline(&resume);
    let fields = header
        .contacts
        .iter()
        .chain(&header.profiles)
        .filter(|i| i.href.is_some())
        .count()
        + sections
            .iter()
            .flat_map(|s| &s.entries)
            .filter(|e| e.url.is_some())
            .count();
    assert!(fields > SECTIONS.len(), "{fields} link fields");
    let good = pandoc_links(&export::markdown(&resume));
    assert_eq!(good.len(), fields, "every link field is a link: {good:?}");
    for hostile in [
        "https://a.example/\n[x](javascript:alert(1))",
        "https://a.example/>[x](javascript:alert(2))",
        "https://a.example/\r\n\r\n[x](javascript:alert(3))",
        "https://a.example/ [x](javascript:alert(4))",
        "javascript:alert(5)",
        "https://a.example/\\>(javascript:alert(6))",
    ] {
        let markdown = export::markdown(&with_every_link(hostile));
        let links = pandoc_links(&markdown);
        // No field made a second link, and every link there is goes to the web or to mail.
        assert!(links.len() <= fields, "{hostile:?}: {links:?}\n{markdown}");
        for target in links {
            let lower = target.to_ascii_lowercase();
            assert!(
                lower.starts_with("https://") || lower.starts_with("mailto:"),
                "{hostile:?} exported the link {target:?}:\n{markdown}"
            );
        }
    }
}
