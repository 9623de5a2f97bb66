//! A page's runs in reading order: where a gutter runs down all or part of the page (a sidebar beside
//! the main column, two columns under a full-width header, a grid of cards), that part's columns one
//! after the other; the rest across the whole width.

use super::Run;

/// How far apart two baselines may stand, against the text's size, to be one: the lines of two columns
/// set close together often stand within a third of it by chance.
const ALIGNED: f64 = 0.12;

/// Whether `run` crosses the vertical line at `x`.
fn crosses(run: &Run, x: f64) -> bool {
    run.x0 < x - 2.0 && run.x1 > x + 2.0
}

/// A stretch of the page, top to bottom, between runs that cross a candidate gutter: the runs left and
/// right of it, or the crossing runs themselves.
struct Band {
    left: Vec<usize>,
    right: Vec<usize>,
}

/// The page's runs (sorted top to bottom) cut at `x` into bands: a run that crosses `x` ends one band and
/// stands in its own.
fn bands(runs: &[Run], x: f64) -> Vec<Band> {
    let mut out = vec![Band {
        left: Vec::new(),
        right: Vec::new(),
    }];
    for (i, r) in runs.iter().enumerate() {
        if crosses(r, x) {
            out.push(Band {
                left: vec![i],
                right: Vec::new(),
            });
            out.push(Band {
                left: Vec::new(),
                right: Vec::new(),
            });
        } else if let Some(band) = out.last_mut() {
            // A run that starts at `x` (within the margin `crosses` allows) and runs on right of it is
            // the right side's: its ink is there.
            if r.x1 <= x + 2.0 {
                band.left.push(i);
            } else {
                band.right.push(i);
            }
        }
    }
    out
}

/// Whether a band's two sides are columns read one after the other: both have a real share of its lines,
/// most of each side's start at its left edge (or end at its right edge, on a right-to-left page whose
/// right side holds its largest text: a sidebar with the name at its top), neither is only dates (right-aligned dates beside each title leave a gutter too), and their lines do not
/// stand on the same baselines (a heading or a date beside each entry is read across, as a row).
fn columns_in(runs: &[Run], dated_runs: &[bool], band: &Band, rtl: Option<f64>) -> bool {
    let (left, right) = (band.left.len(), band.right.len());
    let page_rtl = rtl.is_some();
    let rtl = rtl.is_some_and(|largest| band.right.iter().any(|&i| runs[i].size >= largest - 0.01));
    let all = left + right;
    if left < 3 || right < 3 || left * 12 < all || right * 12 < all {
        return false;
    }
    let dated = |side: &[usize]| side.iter().filter(|&&i| dated_runs[i]).count() * 2 >= side.len();
    // Places and dates set flush right beside each title (a LaTeX or Typst template's right-hand column)
    // end together and start where their length puts them: not a column of text, whose lines start
    // together.
    let flush_right = |side: &[usize]| {
        let right = side.iter().map(|&i| runs[i].x1).fold(f64::MIN, f64::max);
        let left = side.iter().map(|&i| runs[i].x0).fold(f64::MAX, f64::min);
        let size = side.iter().map(|&i| runs[i].size).fold(f64::MAX, f64::min);
        let share = |near: &dyn Fn(&Run) -> bool| {
            side.iter().filter(|&&i| near(&runs[i])).count() * 5 >= side.len() * 4
        };
        share(&|r| right - r.x1 <= size * 0.3) && !share(&|r| r.x0 - left <= size * 0.2)
    };
    if dated(&band.left)
        || dated(&band.right)
        || !edged(runs, &band.left, rtl, page_rtl)
        || !edged(runs, &band.right, rtl, page_rtl)
        || (!rtl && (flush_right(&band.left) || flush_right(&band.right)))
    {
        return false;
    }
    // The right side's runs are in page order, top to bottom: each left run looks only at those near its
    // baseline (a few; past [`NEAR`] of them on one baseline, it is certainly a row).
    const NEAR: usize = 64;
    let aligned = band
        .left
        .iter()
        .filter(|&&i| {
            // One baseline, within a tenth of the text's size: the lines of two columns set close
            // together often stand within a third of it by chance.
            let (y, reach) = (runs[i].y, runs[i].size * ALIGNED);
            let from = band.right.partition_point(|&j| runs[j].y < y - reach);
            let near = &band.right[from..];
            let within = near.partition_point(|&j| runs[j].y <= y + reach);
            within > NEAR
                || near[..within]
                    .iter()
                    .any(|&j| (y - runs[j].y).abs() <= runs[i].size.min(runs[j].size) * ALIGNED)
        })
        .count();
    aligned * 2 < left
}

/// Whether the lines of one side of a gutter (`side`, runs in page order) start at its left edge, most
/// of them, or a bullet's indent from it on a left-to-right page (`page_rtl` false; where `rtl`, the band
/// of a right-to-left page's sidebar, they may end at its right edge instead): a column of
/// text, not chips or dates set anywhere. A line is a baseline: a line of chips, or of letters set one
/// apart, counts once.
fn edged(runs: &[Run], side: &[usize], rtl: bool, page_rtl: bool) -> bool {
    let edge = side.iter().map(|&i| runs[i].x0).fold(f64::MAX, f64::min);
    let end = side.iter().map(|&i| runs[i].x1).fold(f64::MIN, f64::max);
    let size = side.iter().map(|&i| runs[i].size).fold(f64::MAX, f64::min);
    // Each baseline's first start and last end.
    let mut lines: Vec<(f64, f64, f64)> = Vec::new();
    for &i in side {
        let r = &runs[i];
        match lines.last_mut() {
            Some((y, x0, x1)) if (r.y - *y).abs() <= size * 0.35 => {
                (*x0, *x1) = (x0.min(r.x0), x1.max(r.x1));
            }
            _ => lines.push((r.y, r.x0, r.x1)),
        }
    }
    let share = |at_edge: &dyn Fn(f64, f64) -> bool| {
        lines.iter().filter(|&&(_, x0, x1)| at_edge(x0, x1)).count() * 2 >= lines.len()
    };
    // A bullet's indent is allowed on a left-to-right page; a right-to-left one sets its lines flush
    // right, and a left side whose lines start anywhere within four sizes is not a column there.
    let indent = if page_rtl { 1.5 } else { 4.0 };
    share(&|x0, _| x0 - edge <= size * indent) || (rtl && share(&|_, x1| end - x1 <= size * 1.5))
}

/// The page's runs in reading order, as groups each read top to bottom: where a gutter runs down part of
/// the page (a sidebar beside the main column, two columns under a full-width header), that part's left
/// column, then its right (on a right-to-left page, its right column first); the rest across the whole
/// width.
pub(super) fn columns(mut runs: Vec<Run>, width: f64) -> Vec<Vec<Run>> {
    runs.sort_by(|a, b| a.y.total_cmp(&b.y));
    // A right-to-left page: one run in twenty or more has a right-to-left letter (its headings, its dates),
    // though the rest may be in English.
    let rtl = runs
        .iter()
        .filter(|r| r.text.chars().any(redline_resume::words::right_to_left))
        .count()
        * 20
        >= runs.len().max(1);
    let largest = runs.iter().map(|r| r.size).fold(0.0, f64::max);
    let rtl = rtl.then_some(largest);
    let dated: Vec<bool> = runs
        .iter()
        .map(|r| crate::dates::only(&r.text).is_some())
        .collect();
    let mut best: Option<(f64, usize)> = None;
    let mut x = width * 0.15;
    while x < width * 0.85 {
        let score: usize = bands(&runs, x)
            .iter()
            .filter(|b| columns_in(&runs, &dated, b, rtl))
            .map(|b| b.left.len().min(b.right.len()))
            .sum();
        if score > 0 && best.is_none_or(|(_, b)| score > b) {
            best = Some((x, score));
        }
        x += 2.0;
    }
    let Some((x, _)) = best else {
        return vec![runs];
    };
    let mut out: Vec<Vec<usize>> = vec![Vec::new()];
    let bands = bands(&runs, x);
    let count = bands.len();
    for (k, band) in bands.into_iter().enumerate() {
        if columns_in(&runs, &dated, &band, rtl) {
            let (mut first, mut then) = match rtl.is_some() {
                true => (band.right, band.left),
                false => (band.left, band.right),
            };
            // A band that full-width lines follow ends where its sides do.
            let tail = match k + 1 < count {
                true => [
                    tail_below(&runs, &mut first, &then),
                    tail_below(&runs, &mut then, &first),
                ],
                false => Default::default(),
            };
            for (first, then) in card_rows(&runs, first, then) {
                out.push(first);
                out.push(then);
            }
            out.push(tail.concat());
        } else if let Some(across) = out.last_mut() {
            across.extend(band.left);
            across.extend(band.right);
        }
    }
    let mut slots: Vec<Option<Run>> = runs.into_iter().map(Some).collect();
    out.into_iter()
        .filter(|g| !g.is_empty())
        .map(|g| {
            let mut g: Vec<Run> = g.into_iter().filter_map(|i| slots[i].take()).collect();
            g.sort_by(|a, b| a.y.total_cmp(&b.y));
            g
        })
        .collect()
}

/// A band's two sides (`first`, `then`: runs in page order) cut where they are rows of cards, read row
/// by row: where a line of each side stands on one baseline, both set apart from their side's lines above
/// (or the first of their side) and both set as titles (bold, or larger than most of their side), a row of
/// cards starts (a grid of skills: each card's title, then its lines). Each row's two sides are read one
/// after the other, the rows in order. A sidebar beside a main column is one row.
fn card_rows(runs: &[Run], first: Vec<usize>, then: Vec<usize>) -> Vec<(Vec<usize>, Vec<usize>)> {
    let (starts_a, starts_b) = (row_starts(runs, &first), row_starts(runs, &then));
    let reach = ALIGNED * runs_size(runs, &first);
    let mut cuts: Vec<f64> = (starts_a.iter().copied())
        .filter(|&a| starts_b.iter().any(|&b| (a - b).abs() <= reach))
        .collect();
    cuts.sort_by(f64::total_cmp);
    // The first row starts where the band does: only a later one cuts.
    let top = |side: &[usize]| side.iter().map(|&i| runs[i].y).fold(f64::MAX, f64::min);
    let start = top(&first).max(top(&then));
    cuts.retain(|&y| y > start + 1.0);
    if cuts.is_empty() {
        return vec![(first, then)];
    }
    let row_of = |y: f64| cuts.partition_point(|&cut| cut <= y + 1.0);
    let mut rows = vec![(Vec::new(), Vec::new()); cuts.len() + 1];
    for i in first {
        rows[row_of(runs[i].y)].0.push(i);
    }
    for i in then {
        rows[row_of(runs[i].y)].1.push(i);
    }
    rows
}

/// The smallest size in `side`.
fn runs_size(runs: &[Run], side: &[usize]) -> f64 {
    side.iter().map(|&i| runs[i].size).fold(f64::MAX, f64::min)
}

/// The distinct baselines of `side`, top to bottom, and a space between them: the one `share` of the
/// way up from the narrowest (a half: the median).
fn baselines(runs: &[Run], side: &[usize], share: f64) -> (Vec<f64>, Option<f64>) {
    let mut ys: Vec<f64> = side.iter().map(|&i| runs[i].y).collect();
    ys.sort_by(f64::total_cmp);
    ys.dedup_by(|a, b| (*a - *b).abs() < 1.0);
    let mut steps: Vec<f64> = ys.windows(2).map(|w| w[1] - w[0]).collect();
    steps.sort_by(f64::total_cmp);
    let step = steps.get((steps.len() as f64 * share) as usize).copied();
    (ys, step)
}

/// The baselines in `side` (runs in page order) where a card's title could start: a run set as a title
/// (bold, or larger than the side's most common size) with a wider space above it than one and a half of
/// the side's line spacing within a card. That spacing is the lower quartile of its spaces, not their
/// median: in a column of a few short cards, the spaces between cards are a good share of them all.
fn row_starts(runs: &[Run], side: &[usize]) -> Vec<f64> {
    let (ys, step) = baselines(runs, side, 0.25);
    let Some(step) = step else {
        return Vec::new();
    };
    let mut sizes: Vec<f64> = side.iter().map(|&i| runs[i].size).collect();
    sizes.sort_by(f64::total_cmp);
    let usual = sizes[sizes.len() / 2];
    side.iter()
        .filter(|&&i| {
            let r = &runs[i];
            let titled = r.bold || r.size > usual * 1.1;
            let above = ys.iter().rev().find(|&&y| y < r.y - 1.0);
            titled && above.is_none_or(|&y| r.y - y > step * 1.5)
        })
        .map(|&i| runs[i].y)
        .collect()
}

/// The last runs of one side of a band (`side`) that stand a line or more below the other side's last,
/// set apart from the side's lines above: the page's one column again (a heading and an entry's first
/// lines under a grid of cards), not the side's; taken out of `side`, to be read after the band.
fn tail_below(runs: &[Run], side: &mut Vec<usize>, other: &[usize]) -> Vec<usize> {
    let Some(&last) = other
        .iter()
        .max_by(|&&a, &&b| runs[a].y.total_cmp(&runs[b].y))
    else {
        return Vec::new();
    };
    let (end, size) = (runs[last].y, runs[last].size);
    let below: Vec<usize> = (side.iter().copied())
        .filter(|&i| runs[i].y > end + size * 1.5)
        .collect();
    if below.is_empty() {
        return Vec::new();
    }
    // It stands apart from its side's lines above: a wider space than one and a half of theirs.
    let (ys, step) = baselines(runs, side, 0.5);
    let step = step.unwrap_or(size);
    let top = runs[below[0]].y;
    let above = ys.iter().rev().find(|&&y| y < top - 1.0);
    if above.is_none_or(|&y| top - y <= step * 1.5) {
        return Vec::new();
    }
    side.retain(|i| !below.contains(i));
    below
}
