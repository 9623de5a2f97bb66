//! Skills and the like set side by side in a grid, read back one after the other.

use crate::Line;

/// Entries set side by side in a grid (skills in two columns: names, then levels, then keywords, each a
/// row) back one after the other: consecutive lines with as many wide-gap cells as each other, two or
/// more, read column by column; or, where the file says where each cell starts, a row of names over rows
/// with more cells, each cell under the name it stands beneath.
pub(super) fn ungridded(lines: &[&Line]) -> Vec<Line> {
    let cells = |l: &Line| l.text.split("   ").count();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((columns, used)) = under_names(&lines[i..]) {
            out.extend(columns);
            i += used;
            continue;
        }
        let n = cells(lines[i]);
        let mut end = i + 1;
        while end < lines.len() && n >= 2 && cells(lines[end]) == n {
            end += 1;
        }
        if n >= 2 && end - i >= 2 {
            // Lines of fewer cells under the grid, each standing under one of its columns (a card's list
            // that ran on a line further): read into the columns they stand under.
            let mut under = Vec::new();
            while let Some(placed) = lines.get(end).and_then(|l| under_columns(l, lines[i], n)) {
                under.push(placed);
                end += 1;
            }
            for column in 0..n {
                for line in &lines[i..end - under.len()] {
                    let cell = line.text.split("   ").nth(column).unwrap_or("").trim();
                    let mut l = Line::plain(cell);
                    l.size = line.size;
                    out.push(l);
                }
                for (line, placed) in lines[end - under.len()..end].iter().zip(&under) {
                    if !placed[column].is_empty() {
                        let mut l = Line::plain(&placed[column].join("   "));
                        l.size = line.size;
                        out.push(l);
                    }
                }
            }
        } else {
            out.extend(lines[i..end].iter().map(|l| (*l).clone()));
        }
        i = end;
    }
    out
}

/// `line`'s cells by the column of `grid` (a line of `n` cells, which says where each starts) each stands
/// under; `None` unless `line` has fewer cells than the grid, says where they start (one cell: its indent),
/// and is set as body text with no space above it.
fn under_columns(line: &Line, grid: &Line, n: usize) -> Option<Vec<Vec<String>>> {
    let parts: Vec<&str> = line.text.split("   ").map(str::trim).collect();
    let starts = match (line.cells.len(), parts.len()) {
        (0, 1) => vec![line.indent],
        (c, p) if c == p => line.cells.clone(),
        _ => return None,
    };
    if parts.len() >= n || grid.cells.len() != n || line.gap || line.bold || line.heading {
        return None;
    }
    let mut placed = vec![Vec::new(); n];
    for (part, x) in parts.into_iter().zip(starts) {
        let column = grid.cells.iter().rposition(|start| *start <= x + 0.5)?;
        placed[column].push(part.to_owned());
    }
    Some(placed)
}

/// A row of two or more names (`lines[0]`) over rows with more cells, each cell standing under one of the
/// names (by where it starts, which PDF lines carry): the names one after the other, each followed by the
/// cells under it, a line a row. `None` unless every name has a cell under it in the first row below, and
/// with the number of lines read.
fn under_names(lines: &[&Line]) -> Option<(Vec<Line>, usize)> {
    let names = lines.first()?;
    let parts = |l: &Line| {
        l.text
            .split("   ")
            .map(str::trim)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let heads = parts(names);
    if heads.len() < 2 || names.cells.len() != heads.len() {
        return None;
    }
    // The column a cell starting at `x` stands in: the last name starting at or before it (half a body
    // size to spare for glyphs' side bearings).
    let column = |x: f32| names.cells.iter().rposition(|start| *start <= x + 0.5);
    let mut rows: Vec<(&Line, Vec<Vec<String>>)> = Vec::new();
    for line in &lines[1..] {
        let cells = parts(line);
        if line.cells.len() != cells.len() || cells.len() <= heads.len() {
            break;
        }
        let mut by_column = vec![Vec::new(); heads.len()];
        for (cell, x) in cells.into_iter().zip(&line.cells) {
            by_column[column(*x)?].push(cell);
        }
        if by_column.iter().any(Vec::is_empty) {
            break;
        }
        rows.push((line, by_column));
    }
    if rows.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for (c, head) in heads.iter().enumerate() {
        let mut name = Line::plain(head);
        name.size = names.size;
        name.heading = names.heading;
        name.bold = names.bold;
        out.push(name);
        for (line, by_column) in &rows {
            let mut l = Line::plain(&by_column[c].join("   "));
            l.size = line.size;
            out.push(l);
        }
    }
    Some((out, 1 + rows.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cards three across, read row by row: the last card's list ran on a line of one cell, which stands
    /// under the first column.
    #[test]
    fn a_line_of_fewer_cells_under_a_grid_goes_to_the_column_it_stands_under() {
        let row = |text: &str| {
            let mut l = Line::plain(text);
            l.cells = vec![0.0, 17.0];
            l
        };
        let mut run_on = Line::plain("Epic EHR");
        run_on.indent = 0.0;
        let lines = [
            row("Clinical   Systems Programming"),
            row("Master   Proficient"),
            row("Patient Assessment · Triage   Rust"),
            run_on,
        ];
        let read = ungridded(&lines.iter().collect::<Vec<_>>());
        let texts: Vec<&str> = read.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Clinical",
                "Master",
                "Patient Assessment · Triage",
                "Epic EHR",
                "Systems Programming",
                "Proficient",
                "Rust"
            ]
        );
    }

    #[test]
    fn names_in_a_row_take_the_cells_that_stand_under_them() {
        let mut names = Line::plain("Web Development   Compression");
        names.size = 1.5;
        names.heading = true;
        names.cells = vec![0.0, 20.0];
        let mut keywords = Line::plain("HTML   CSS   Mpeg   GIF");
        keywords.cells = vec![0.1, 4.0, 20.2, 25.0];
        let (lines, used) = under_names(&[&names, &keywords]).unwrap();
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Web Development", "HTML   CSS", "Compression", "Mpeg   GIF"]
        );
        assert_eq!(used, 2);
        assert!(lines[0].heading && !lines[1].heading);
        // Where the file does not say where cells start, or a name has nothing under it: not a grid.
        let mut unplaced = keywords.clone();
        unplaced.cells.clear();
        assert!(under_names(&[&names, &unplaced]).is_none());
        let mut left = keywords.clone();
        left.cells = vec![0.1, 4.0, 8.0, 12.0];
        assert!(under_names(&[&names, &left]).is_none());
    }
}
