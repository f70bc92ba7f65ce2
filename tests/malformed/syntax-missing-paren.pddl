(define (domain missing-paren)
  (:requirements :strips)
  (:predicates (p) (q))
  (:action a
    :precondition (and (p)
    :effect (q)))
