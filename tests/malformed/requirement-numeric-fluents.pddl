(define (domain no-fluents)
  (:requirements :strips)
  (:predicates (p))
  (:functions (fuel))
  (:action a
    :precondition (> (fuel) 0)
    :effect (and (p) (decrease (fuel) 1))))
