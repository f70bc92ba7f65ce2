//! The facade: one call to parse, check, ground and solve a PDDL task.
