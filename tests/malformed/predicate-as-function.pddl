(define (domain predicate-as-function)
  (:requirements :numeric-fluents)
  (:predicates (p))
  (:functions (fuel))
  (:action a
    :precondition (> (p) 1)
    :effect (increase (p) 1)))
