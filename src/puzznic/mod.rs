//! Puzznic: level files, a reference simulator, PDDL problems and plan rendering (`plan puzznic`).
