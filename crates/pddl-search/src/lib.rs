//! Forward state-space search over a ground [`pddl_ground::Task`].
