(define (domain function-as-predicate)
  (:requirements :numeric-fluents)
  (:predicates (p))
  (:functions (fuel))
  (:action a
    :precondition (fuel)
    :effect (p)))
