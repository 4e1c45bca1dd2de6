//! One kind of a record's entries in memory: the newest ones, and how many older ones left
//! for the store, so positions counted from the session's first entry still hold.

use std::collections::VecDeque;

/// The newest entries of one kind, and how many older ones left memory.
pub(super) struct Window<T> {
    pub(super) entries: VecDeque<T>,
    pub(super) evicted: usize,
}

impl<T> Default for Window<T> {
    fn default() -> Self {
        Window {
            entries: VecDeque::new(),
            evicted: 0,
        }
    }
}

impl<T: Clone> Window<T> {
    /// Appends; past `budget`, the oldest entry leaves memory and is returned.
    pub(super) fn push(&mut self, entry: T, budget: Option<usize>) -> Option<T> {
        self.entries.push_back(entry);
        match budget {
            Some(budget) if self.entries.len() > budget => {
                self.evicted += 1;
                self.entries.pop_front()
            }
            _ => None,
        }
    }

    /// Lets the oldest entries past `budget` leave memory; returns the last that left.
    pub(super) fn trim(&mut self, budget: usize) -> Option<T> {
        let mut gone = None;
        while self.entries.len() > budget {
            self.evicted += 1;
            gone = self.entries.pop_front();
        }
        gone
    }

    /// Entries from position `index` (counted from the first ever) on, as far as memory has them.
    pub(super) fn from(&self, index: usize) -> Vec<T> {
        let start = index.saturating_sub(self.evicted);
        if start >= self.entries.len() {
            return Vec::new();
        }
        self.entries.range(start..).cloned().collect()
    }

    pub(super) fn all(&self) -> Vec<T> {
        self.entries.iter().cloned().collect()
    }

    pub(super) fn count(&self) -> usize {
        self.evicted + self.entries.len()
    }
}
