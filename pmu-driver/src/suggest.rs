//! "Did you mean ...?": the closest of a set of names to a name that is not one of them, by edit
//! distance with ASCII case ignored, computed in a fixed buffer (no allocation).

/// Names longer than this are not compared.
const MAX: usize = 64;

/// Levenshtein distance between `a` and `b` (ASCII case ignored), or `None` when either is
/// longer than [`MAX`] bytes.
fn distance(a: &str, b: &str) -> Option<usize> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > MAX || b.len() > MAX {
        return None;
    }
    let mut row = [0usize; MAX + 1];
    for (j, cell) in row.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for (i, &ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(!ca.eq_ignore_ascii_case(&cb));
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row.get(b.len()).copied()
}

/// The name of `names` closest to `name`, if it is close: at most a third of its length away
/// (and at least 1, at most 3 edits), as a typo would be.
pub(crate) fn closest(
    name: &str,
    names: impl Iterator<Item = &'static str>,
) -> Option<&'static str> {
    let limit = (name.len() / 3).clamp(1, 3);
    names
        .filter_map(|candidate| distance(name, candidate).map(|d| (d, candidate)))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = [
        "L1D_CACHE",
        "L1D_CACHE_REFILL",
        "INST_RETIRED",
        "CPU_CYCLES",
    ];

    #[test]
    fn suggests_the_closest_name() {
        assert_eq!(distance("kitten", "sitting"), Some(3));
        assert_eq!(distance("inst_retired", "INST_RETIRED"), Some(0));
        assert_eq!(
            closest("L1D_CACHE_REFIL", NAMES.into_iter()),
            Some("L1D_CACHE_REFILL")
        );
        assert_eq!(
            closest("INST_RETIERD", NAMES.into_iter()),
            Some("INST_RETIRED")
        );
        assert_eq!(closest("BR_MIS_PRED", NAMES.into_iter()), None);
    }
}
