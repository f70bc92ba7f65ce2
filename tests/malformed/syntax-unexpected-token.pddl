(define (domain unexpected-token)
  (:requirements :strips)
  (:predicates (p) 42 (q))
  (:action a :precondition (p) :effect (q)))
