//! A set of temp register components, as one bit per (register, component).

/// Temp components, as (register, component) pairs with component 0..4:
/// a bit set, so the liveness analysis copies and joins sets of a whole
/// program's temps in a few words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Components {
    /// Bit `register * 4 + component`.
    words: Vec<u64>,
}

impl Components {
    /// The empty set.
    pub fn new() -> Components {
        Components::default()
    }

    /// The bit of a component: its word and mask.
    fn bit((reg, c): (u32, u8)) -> (usize, u64) {
        let n = reg as usize * 4 + usize::from(c & 3);
        (n / 64, 1 << (n % 64))
    }

    /// Adds a component.
    pub fn insert(&mut self, key: (u32, u8)) {
        let (word, mask) = Self::bit(key);
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= mask;
    }

    /// Removes a component.
    pub fn remove(&mut self, key: &(u32, u8)) {
        let (word, mask) = Self::bit(*key);
        if let Some(w) = self.words.get_mut(word) {
            *w &= !mask;
        }
    }

    /// Whether the set holds a component.
    pub fn contains(&self, key: &(u32, u8)) -> bool {
        let (word, mask) = Self::bit(*key);
        self.words.get(word).is_some_and(|w| w & mask != 0)
    }

    /// Components in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// The components, by register, then component.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64).filter(move |b| w & (1 << b) != 0).map(move |b| {
                let n = i * 64 + b;
                ((n / 4) as u32, (n % 4) as u8)
            })
        })
    }

    /// Adds every component of `other`.
    pub fn union_with(&mut self, other: &Components) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    /// The components of either set.
    pub fn union(&self, other: &Components) -> Components {
        let mut out = self.clone();
        out.union_with(other);
        out
    }

    /// Whether both sets hold the same components (trailing empty words
    /// aside).
    pub fn same(&self, other: &Components) -> bool {
        let n = self.words.len().max(other.words.len());
        (0..n).all(|i| self.words.get(i).unwrap_or(&0) == other.words.get(i).unwrap_or(&0))
    }
}

impl FromIterator<(u32, u8)> for Components {
    fn from_iter<I: IntoIterator<Item = (u32, u8)>>(iter: I) -> Components {
        let mut set = Components::new();
        set.extend(iter);
        set
    }
}

impl Extend<(u32, u8)> for Components {
    fn extend<I: IntoIterator<Item = (u32, u8)>>(&mut self, iter: I) {
        for key in iter {
            self.insert(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Components;

    #[test]
    fn holds_what_is_inserted_in_order() {
        let mut set: Components = [(17, 3), (0, 1), (16, 0)].into_iter().collect();
        assert!(set.contains(&(17, 3)) && set.contains(&(0, 1)) && !set.contains(&(0, 0)));
        assert_eq!(set.len(), 3);
        set.remove(&(0, 1));
        set.remove(&(900, 2));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![(16, 0), (17, 3)]);
    }

    #[test]
    fn unions_and_sameness_ignore_length() {
        let small: Components = [(1, 0)].into_iter().collect();
        let mut big: Components = [(1, 0), (40, 2)].into_iter().collect();
        assert_eq!(
            small.union(&big).iter().collect::<Vec<_>>(),
            vec![(1, 0), (40, 2)]
        );
        big.remove(&(40, 2));
        assert!(big.same(&small) && small.same(&big));
        assert!(!Components::new().same(&small));
        assert!(Components::new().is_empty());
    }
}
