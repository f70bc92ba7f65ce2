(define (domain undeclared-function)
  (:requirements :numeric-fluents)
  (:predicates (p))
  (:functions (fuel))
  (:action a
    :precondition (> (fuel) (capacity))
    :effect (and (p) (decrease (fuel) 1))))
