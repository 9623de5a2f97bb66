//! Values read into a field they do not fit (an e-mail address that is not one, a date that is not a
//! date): taken out of the resume and named, so that one field read wrongly never costs the whole file.
//! The value's text joins the lines not placed, where the import review shows it and the user can put it
//! where it belongs.

use serde::Serialize;
use serde_json::Value;

/// A value the reader put in a field that it does not fit, left out of the resume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(rename = "ImportMisfit")]
pub struct Misfit {
    /// Where it was read into, as a JSON Pointer (`/basics/email`).
    pub pointer: String,
    /// The field in words ("your e-mail").
    pub field: String,
    /// The text that was read there.
    pub text: String,
    /// Why it does not fit, in words ("is not an e-mail address").
    pub reason: String,
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "“{}” was read as {} but {}; it was left out",
            self.text, self.field, self.reason
        )
    }
}

/// The most rounds of taking values out: each round takes out every value the schema names, so a second
/// is needed only when taking one out leaves its entry empty in a way the schema refuses.
const MAX_ROUNDS: usize = 4;

/// `document` with every value the schema refuses taken out, and those values named. `Err` with the
/// document as far as it was mended when what the schema refuses is not a value that can be taken out (the
/// document's own shape): the import is then refused, its remaining problems named.
pub fn take_out(mut document: Value) -> Result<(Value, Vec<Misfit>), Value> {
    let mut misfits = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let Err(problems) = redline_resume::validate(&document) else {
            return Ok((document, misfits));
        };
        let mut pointers: Vec<String> = problems.into_iter().map(|p| p.pointer).collect();
        // The deepest and the last first (`/work/10` before `/work/9`), so that taking one out does not
        // move another's index.
        pointers.sort_by_cached_key(|p| std::cmp::Reverse(tokens(p)));
        pointers.dedup();
        for pointer in pointers {
            match remove(&mut document, &pointer) {
                Some(misfit) => misfits.push(misfit),
                None => return Err(document),
            }
        }
    }
    match redline_resume::validate(&document) {
        Ok(()) => Ok((document, misfits)),
        Err(_) => Err(document),
    }
}

/// A pointer's tokens, an index as its number, so that pointers order as the places they name.
fn tokens(pointer: &str) -> Vec<(usize, String)> {
    pointer
        .split('/')
        .map(|t| (t.parse().unwrap_or(usize::MAX), t.to_owned()))
        .collect()
}

/// Takes the text value at `pointer` out of `document`, naming it; `None` when it is not a text value in an
/// object or a list.
fn remove(document: &mut Value, pointer: &str) -> Option<Misfit> {
    let (parent, last) = pointer.rsplit_once('/')?;
    let key = last.replace("~1", "/").replace("~0", "~");
    let field = redline_resume::place::place(document, pointer);
    let removed = match document.pointer_mut(parent)? {
        Value::Object(map) if map.get(&key).is_some_and(Value::is_string) => map.remove(&key),
        Value::Array(list) => {
            let i: usize = key.parse().ok()?;
            list.get(i)
                .is_some_and(Value::is_string)
                .then(|| list.remove(i))
        }
        _ => None,
    }?;
    Some(Misfit {
        pointer: pointer.to_owned(),
        field,
        text: removed.as_str().unwrap_or_default().to_owned(),
        reason: reason(&key).to_owned(),
    })
}

/// Why a value does not fit the field `key`, in words.
fn reason(key: &str) -> &'static str {
    match key {
        "email" => "is not an e-mail address",
        "url" | "image" => "is not a web address",
        k if k == "date" || k.ends_with("Date") || k == "releaseDate" => {
            "is not a date (a year, a month or a day)"
        }
        _ => "does not fit that field",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_that_is_not_what_its_field_holds_is_taken_out_and_named() {
        let document = json!({
            "basics": {"name": "Ada Lovelace", "email": "ada at example", "url": "https://ada.example"},
            "work": [
                {"name": "Engines", "startDate": "spring 2019", "highlights": ["Wrote it"]},
                {"name": "Babbage", "startDate": "2015-03", "url": "not a url"}
            ]
        });
        let (kept, misfits) = take_out(document).unwrap();
        assert_eq!(misfits.len(), 3);
        assert!(redline_resume::validate(&kept).is_ok());
        assert_eq!(kept["basics"]["url"], "https://ada.example");
        assert_eq!(kept["work"][0]["highlights"][0], "Wrote it");
        let mut named: Vec<(&str, &str, &str)> = misfits
            .iter()
            .map(|m| (m.pointer.as_str(), m.text.as_str(), m.reason.as_str()))
            .collect();
        named.sort_unstable();
        assert_eq!(
            named,
            [
                (
                    "/basics/email",
                    "ada at example",
                    "is not an e-mail address"
                ),
                (
                    "/work/0/startDate",
                    "spring 2019",
                    "is not a date (a year, a month or a day)"
                ),
                ("/work/1/url", "not a url", "is not a web address"),
            ]
        );
        let email = misfits
            .iter()
            .find(|m| m.pointer == "/basics/email")
            .unwrap();
        assert_eq!(
            email.to_string(),
            "“ada at example” was read as your e-mail but is not an e-mail address; it was left out"
        );
    }

    #[test]
    fn thousands_of_values_that_do_not_fit_are_each_taken_out_once() {
        let profiles: Vec<Value> = (0..5_000)
            .map(|i| json!({"network": "Site", "url": format!("not a url {i}")}))
            .collect();
        let document = json!({"basics": {"name": "Ada", "profiles": profiles}});
        let (kept, misfits) = take_out(document).unwrap();
        assert_eq!(misfits.len(), 5_000);
        assert_eq!(misfits[0].pointer, "/basics/profiles/4999/url");
        assert_eq!(kept["basics"]["profiles"][10], json!({"network": "Site"}));
    }

    #[test]
    fn pointers_order_as_the_places_they_name() {
        let mut pointers = vec!["/work/9", "/work/10", "/work/2/url", "/basics/email"];
        pointers.sort_by_cached_key(|p| std::cmp::Reverse(tokens(p)));
        assert_eq!(
            pointers,
            ["/work/10", "/work/9", "/work/2/url", "/basics/email"]
        );
    }

    #[test]
    fn a_document_whose_shape_is_wrong_is_not_mended() {
        assert!(take_out(json!({"basics": {"name": "Ada", "profiles": {"x": 1}}})).is_err());
        assert!(take_out(json!({"basics": {"name": 7}})).is_err());
    }
}
