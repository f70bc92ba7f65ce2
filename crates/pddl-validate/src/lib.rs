//! Independent plan validation on the lifted PDDL model.
