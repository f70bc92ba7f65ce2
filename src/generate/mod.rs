//! Problem generators for the shipped domains (`plan generate`).
