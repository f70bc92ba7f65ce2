(define (domain no-disjunctive)
  (:requirements :strips)
  (:predicates (p) (q) (r))
  (:action a
    :precondition (or (p) (imply (q) (r)))
    :effect (r)))
