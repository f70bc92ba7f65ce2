(define (domain truncated)
  (:requirements :strips)
  (:predicates (p) (q))
  (:action a
    :precondition (p)
    :effect (and (q)